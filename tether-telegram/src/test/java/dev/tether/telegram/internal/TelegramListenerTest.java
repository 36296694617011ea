package dev.tether.telegram.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.tether.telegram.BotToken;
import dev.tether.telegram.TelegramChat;
import dev.tether.telegram.TelegramListener;
import dev.tether.telegram.testing.RecordingBotApi;
import dev.tether.telegram.testing.TgMessages;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/** What a bound {@link TelegramListener} hears from the Bot API client, against the local Bot API server. */
class TelegramListenerTest {
  /** Records each call as a line. */
  static final class RecordingTelegramListener implements TelegramListener {
    final List<String> events = new CopyOnWriteArrayList<>();

    @Override
    public void updatesReceived(int count) {
      events.add("updates " + count);
    }

    @Override
    public void sent(String method) {
      events.add("sent " + method);
    }

    @Override
    public void rateLimited(String method, int retryAfterSeconds) {
      events.add("429 " + method + " " + retryAfterSeconds);
    }

    @Override
    public void answered(String method, boolean ok) {
      events.add((ok ? "ok " : "failed ") + method);
    }
  }

  private static BotApi client(RecordingBotApi api, TelegramListener listener) {
    BotApi c = new BotApi(api.url(), BotToken.of(RecordingBotApi.TOKEN), HttpClient.newHttpClient(), Duration.ofSeconds(20));
    c.listener(listener);
    return c;
  }

  @Test
  void updatesSendsAnd429_areTold_chatActionsAreNotMessages() throws Exception {
    RecordingTelegramListener l = new RecordingTelegramListener();
    try (RecordingBotApi api = new RecordingBotApi()) {
      BotApi c = client(api, l);
      api.addMessage(TgMessages.text(1, "a"));
      api.addMessage(TgMessages.text(1, "b"));
      assertEquals(2, c.getUpdates(0, 0).size());
      c.sendMessage(TelegramChat.of(1), "hi");
      c.sendChatAction(TelegramChat.of(1), "typing");
      api.failNext("sendMessage", 1, 429, "Too Many Requests: retry after 3", 3);
      assertThrows(BotApiException.class, () -> c.sendMessage(TelegramChat.of(1), "x"));
      assertEquals(List.of("ok getUpdates", "updates 2", "ok sendMessage", "sent sendMessage", "ok sendChatAction",
          "429 sendMessage 3", "failed sendMessage"), l.events);
    }
  }
}
