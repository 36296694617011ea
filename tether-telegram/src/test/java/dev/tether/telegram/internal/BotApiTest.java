package dev.tether.telegram.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tether.telegram.BotToken;
import dev.tether.telegram.TelegramChat;
import dev.tether.telegram.testing.RecordingBotApi;
import java.io.IOException;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The Bot API client against the local Bot API server: wire format, errors, retries. */
class BotApiTest {
  private static BotApi client(RecordingBotApi api) {
    return new BotApi(api.url(), BotToken.of(RecordingBotApi.TOKEN), HttpClient.newHttpClient(), Duration.ofSeconds(20));
  }

  private static Retrier retrier() {
    return new Retrier(Duration.ofMillis(10), Duration.ofMillis(50), new BridgeLog(BotToken.of(RecordingBotApi.TOKEN)), new Stopper());
  }

  @Test
  void errorObject_becomesBotApiException_withCodeDescriptionAndRetryAfter() throws Exception {
    try (RecordingBotApi api = new RecordingBotApi()) {
      api.failNext("sendMessage", 1, 429, "Too Many Requests: retry after 7", 7);
      BotApiException e = assertThrows(BotApiException.class, () -> client(api).sendMessage(TelegramChat.of(1), "x"));
      assertEquals(429, e.errorCode());
      assertEquals("Too Many Requests: retry after 7", e.description());
      assertEquals(7, e.retryAfter().orElseThrow());
      assertTrue(e.isTransient());
    }
  }

  @Test
  void proxyErrorPageWithoutJson_isTransient_andRetried() throws Exception {
    try (RecordingBotApi api = new RecordingBotApi()) {
      api.failNextWithRawBody("sendMessage", 502, "<html><body>502 Bad Gateway</body></html>");
      BotApiException e = assertThrows(BotApiException.class, () -> client(api).sendMessage(TelegramChat.of(1), "x"));
      assertEquals(502, e.errorCode());
      assertEquals("HTTP 502", e.description());

      api.failNextWithRawBody("sendMessage", 502, "<html>again</html>");
      BotTypes.Sent sent = retrier().call("sendMessage", () -> client(api).sendMessage(TelegramChat.of(1), "hello"));
      assertTrue(sent.messageId() > 0);
      assertEquals(3, api.calls("sendMessage").size(), "one failure above, one failure retried, one success");
    }
  }

  @Test
  void permanentErrors_areNotRetried() throws Exception {
    try (RecordingBotApi api = new RecordingBotApi()) {
      api.failNext("sendMessage", 1, 403, "Forbidden: bot was blocked by the user", 0);
      BotApiException e = assertThrows(BotApiException.class,
          () -> retrier().call("sendMessage", () -> client(api).sendMessage(TelegramChat.of(1), "x")));
      assertEquals(403, e.errorCode());
      assertEquals(1, api.calls("sendMessage").size());
    }
  }

  @Test
  void download_stopsAtTheCap_withoutTrustingAnyDeclaredSize() throws Exception {
    try (RecordingBotApi api = new RecordingBotApi()) {
      String id = api.addFile(new byte[5000], false);
      BotTypes.File file = client(api).getFile(id);
      assertEquals(null, file.fileSize());
      assertEquals(Optional.empty(), client(api).download(file.filePath(), 4999));
      assertEquals(5000, client(api).download(file.filePath(), 5000).orElseThrow().length);
    }
  }

  @Test
  void hostileFilePaths_neverLeaveTheFileTree() {
    for (String bad : List.of("", "../secret", "a/../../b", "a//b", "/abs", "a/./b")) {
      assertThrows(IOException.class, () -> BotApi.pathOf(bad), bad);
    }
    assertThrows(IOException.class, () -> BotApi.pathOf(null));
  }

  @Test
  void filePathSegments_arePercentEncoded() throws Exception {
    assertEquals("photos/file%20one%3F.jpg", BotApi.pathOf("photos/file one?.jpg"));
  }

  @Test
  void topicAndChat_areSentAsTheApiNamesThem() throws Exception {
    try (RecordingBotApi api = new RecordingBotApi()) {
      client(api).sendChatAction(TelegramChat.topic(-100123L, 9), "typing");
      RecordingBotApi.Call call = api.calls("sendChatAction").get(0);
      assertEquals("-100123", call.fields().get("chat_id"));
      assertEquals("9", call.fields().get("message_thread_id"));
      assertEquals("typing", call.fields().get("action"));
    }
  }
}
