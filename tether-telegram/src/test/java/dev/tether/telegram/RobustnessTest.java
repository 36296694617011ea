package dev.tether.telegram;

import static dev.tether.telegram.BridgeHarness.CHAT;
import static dev.tether.telegram.BridgeHarness.INSTANCE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tether.api.Frame;
import dev.tether.api.Payload;
import dev.tether.api.SessionKey;
import dev.tether.telegram.testing.RecordingBotApi;
import dev.tether.telegram.testing.TgMessages;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Flood control, failures, restarts and hostile updates. */
class RobustnessTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final SessionKey CHAT_SESSION = new SessionKey("telegram", Long.toString(CHAT));

  @TempDir Path dir;

  private static Predicate<RecordingBotApi.Call> textIs(String text) {
    return c -> text.equals(c.fields().get("text"));
  }

  @Test
  void floodControl429_isRetriedAfterRetryAfter_andDeliveredOnce() throws Exception {
    try (BridgeHarness h = new BridgeHarness(dir).withAgent()) {
      h.api.failNext("sendMessage", 1, 429, "Too Many Requests: retry after 1", 1);
      h.start();
      h.api.addMessage(TgMessages.text(CHAT, "busy"));
      h.api.awaitText(CHAT, "You said: busy");
      List<RecordingBotApi.Call> attempts = h.api.calls("sendMessage").stream().filter(textIs("You said: busy")).toList();
      assertEquals(2, attempts.size(), "refused once, then sent");
      long waitedMs = (attempts.get(1).atNanos() - attempts.get(0).atNanos()) / 1_000_000;
      assertTrue(waitedMs >= 950, "waited retry_after (1 s) but only " + waitedMs + " ms");
      Thread.sleep(500);
      assertEquals(1, h.api.delivered().stream().filter(textIs("You said: busy")).count());
    }
  }

  @Test
  void serverErrors_areRetriedWithBackoff_andTheFileIsUploadedOnce() throws Exception {
    try (BridgeHarness h = new BridgeHarness(dir).withAgent()) {
      h.api.failNext("sendPhoto", 3, 502, "Bad Gateway", 0);
      h.start();
      h.api.addMessage(TgMessages.text(CHAT, "chart please"));
      h.api.awaitText(CHAT, ScriptedAgent.CHART_TEXT);
      assertEquals(4, h.api.calls("sendPhoto").size());
      assertEquals(1, h.api.delivered().size());
    }
  }

  @Test
  void hostUnreachable_messageIsForwardedOnceItIsBack() throws Exception {
    try (BridgeHarness h = new BridgeHarness(dir).withAgent()) {
      h.client.failSends(3);
      h.start();
      h.api.addMessage(TgMessages.text(CHAT, "are you there?"));
      h.api.awaitText(CHAT, "You said: are you there?");
      assertEquals(1, h.forwarded().size());
    }
  }

  @Test
  void restart_withUpdatesHandledButNotConfirmed_forwardsAndSendsNothingTwice() throws Exception {
    try (BridgeHarness h = new BridgeHarness(dir).withAgent()) {
      h.start();
      long first = h.api.addMessage(TgMessages.text(CHAT, "one"));
      long second = h.api.addMessage(TgMessages.text(CHAT, "two"));
      h.api.awaitText(CHAT, "You said: one");
      h.api.awaitText(CHAT, "You said: two");
      h.stopBridge();
      // Telegram never heard the confirming offset, and work arrives while the bridge is down.
      h.api.forgetConfirmationsAfter(first - 1);
      h.api.addMessage(TgMessages.text(CHAT, "three"));
      h.store.append(INSTANCE, Frame.of(CHAT_SESSION, "agent-1", Payload.AssistantDone.of("while you were away", List.of())));
      int callsBefore = h.api.calls("getUpdates").size();

      h.start();
      h.api.awaitText(CHAT, "You said: three");
      h.api.awaitText(CHAT, "while you were away");
      Thread.sleep(500);
      assertEquals(second + 1, h.api.offsets().get(callsBefore), "the first poll after the restart confirms what was handled");
      assertEquals(List.of("one", "two", "three"),
          h.forwarded().stream().map(f -> ((Payload.UserMessage) f.payloadView()).text()).toList());
      for (String text : List.of("You said: one", "You said: two", "You said: three", "while you were away")) {
        assertEquals(1, h.api.delivered().stream().filter(textIs(text)).count(), text);
      }
    }
  }

  @Test
  void restart_inTheMiddleOfAnAnswer_resumesAtTheFirstUnsentMessage() throws Exception {
    try (BridgeHarness h = new BridgeHarness(dir)) {
      h.start();
      h.api.failNext("sendMessage", 1000, 503, "Service Unavailable", 0);
      String text = "Two charts. " + "Long explanation. ".repeat(80);
      h.store.append(INSTANCE, Frame.of(CHAT_SESSION, "m", Payload.AssistantDone.of(text,
          List.of(TestImages.pngImage(40, 30), TestImages.pngImage(30, 40)))));
      h.api.awaitDelivered(c -> c.method().equals("sendPhoto"), 2, BridgeHarness.WAIT);
      h.api.await(calls -> calls.stream().anyMatch(c -> c.method().equals("sendMessage")), BridgeHarness.WAIT,
          "the text being tried");
      h.stopBridge();
      h.api.heal("sendMessage");

      h.start();
      h.api.awaitText(CHAT, "Two charts.");
      Thread.sleep(500);
      assertEquals(2, h.api.delivered().stream().filter(c -> c.method().equals("sendPhoto")).count(), "photos not sent again");
      assertEquals(1, h.api.delivered().stream().filter(c -> c.method().equals("sendMessage")).count());
    }
  }

  @Test
  void manyChatsAtOnce_eachGetsItsOwnAnswers_inOrder_exactlyOnce() throws Exception {
    int chats = 12;
    int perChat = 4;
    java.util.Set<Long> ids = new java.util.HashSet<>();
    for (int c = 0; c < chats; c++) {
      ids.add(1000L + c);
    }
    try (BridgeHarness h = new BridgeHarness(dir).withAgent()) {
      h.api.failNext("sendMessage", 5, 429, "Too Many Requests: retry after 1", 1);
      h.start(b -> b.allowedChats(ids));
      for (int i = 0; i < perChat; i++) {
        for (int c = 0; c < chats; c++) {
          h.api.addMessage(TgMessages.text(1000L + c, "m" + c + "-" + i));
        }
      }
      h.api.awaitDelivered(c -> c.method().equals("sendMessage"), chats * perChat, java.time.Duration.ofSeconds(90));
      Thread.sleep(300);
      for (int c = 0; c < chats; c++) {
        long chat = 1000L + c;
        List<String> got = h.api.delivered().stream().filter(x -> x.chatId() == chat).map(RecordingBotApi.Call::text).toList();
        List<String> want = new java.util.ArrayList<>();
        for (int i = 0; i < perChat; i++) {
          want.add("You said: m" + c + "-" + i);
        }
        assertEquals(want, got, "chat " + chat);
      }
    }
  }

  @Test
  void hostileUpdates_areSkipped_andLaterMessagesStillWork() throws Exception {
    try (BridgeHarness h = new BridgeHarness(dir).withAgent()) {
      String notImage = h.api.addFile("hello, not a picture".getBytes(StandardCharsets.US_ASCII));
      String broken = h.api.addFile(TestImages.jpeg(10, 10));
      h.api.failGetFile(broken, 400, "Bad Request: wrong file_id or the file is temporarily unavailable");
      h.start();
      ObjectNode poll = JSON.createObjectNode();
      poll.putObject("poll").put("id", "1").put("question", "?");
      h.api.addUpdate(poll);
      ObjectNode edited = JSON.createObjectNode();
      edited.set("edited_message", TgMessages.text(CHAT, "edited"));
      h.api.addUpdate(edited);
      ObjectNode future = JSON.createObjectNode();
      future.putObject("brand_new_update_type").put("x", 1);
      h.api.addUpdate(future);
      ObjectNode wrongTypes = JSON.createObjectNode();
      wrongTypes.putObject("message").put("message_id", "seven").put("chat", "not an object");
      h.api.addUpdate(wrongTypes);
      ObjectNode sticker = TgMessages.base(CHAT);
      sticker.putObject("sticker").put("file_id", "s1").put("width", 512).put("height", 512);
      h.api.addMessage(sticker);
      h.api.addMessage(TgMessages.document(CHAT, null, notImage, "cat.png", "image/png", 20L));
      h.api.addMessage(TgMessages.photo(CHAT, "broken", broken, 600));
      h.api.addMessage(TgMessages.text(CHAT, "still here"));

      h.api.awaitText(CHAT, "You said: still here");
      h.api.awaitText(CHAT, "is not a valid image/png image");
      h.api.awaitText(CHAT, "could not be fetched from Telegram");
      assertEquals(List.of("still here"),
          h.forwarded().stream().map(f -> ((Payload.UserMessage) f.payloadView()).text()).toList());
      h.api.await(c -> h.api.allConfirmed(), BridgeHarness.WAIT, "every update confirmed");
    }
  }
}
