package dev.tether.telegram.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tether.telegram.TelegramChat;
import java.io.IOException;
import java.util.List;

/**
 * Fuzz target for what the bridge reads from Telegram: a {@code getUpdates} result. In a normal
 * test run Jazzer replays the seeds under {@code src/test/resources/dev/tether/telegram/internal/BotApiFuzzTestInputs/};
 * with {@code JAZZER_FUZZ=1} it fuzzes. The only allowed failure is the documented
 * {@link IOException}; every message that survives parsing can be handled without a crash.
 */
class BotApiFuzzTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @FuzzTest(maxDuration = "30s")
  void updates(byte[] data) {
    JsonNode root;
    try {
      root = JSON.readTree(data);
    } catch (IOException notJson) {
      return;
    }
    List<BotTypes.Update> updates;
    try {
      updates = BotApi.updatesOf(root);
    } catch (IOException expected) {
      return;
    }
    assertEquals(root.size(), updates.size());
    for (BotTypes.Update u : updates) {
      BotTypes.Message m = u.message();
      if (m == null) {
        continue;
      }
      assertTrue(m.isWellFormed());
      TelegramChat chat = Ingress.chatOf(m);
      assertEquals(chat, TelegramChat.parse(chat.sessionId()).orElseThrow());
      assertTrue(Ingress.msgIdOf(m).startsWith("tg-"));
      Ingress.textOf(m);
      if (ImageFetcher.hasFile(m) && m.photo() != null && !m.photo().isEmpty()) {
        m.photo().get(m.photo().size() - 1).fileId(); // the largest size is there
      }
    }
  }
}
