package dev.tether.telegram;

import static dev.tether.telegram.BridgeHarness.CHAT;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tether.telegram.internal.BotApi;
import dev.tether.telegram.internal.BotApiException;
import dev.tether.telegram.testing.RecordingBotApi;
import dev.tether.telegram.testing.TgMessages;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The bot token is in every Bot API URL; it must never reach a log line or an exception message. */
class TokenSecrecyTest {
  private static final Logger BRIDGE_LOG = Logger.getLogger("dev.tether.telegram");
  private final List<String> logged = new CopyOnWriteArrayList<>();
  private final Handler capture = new Handler() {
    @Override
    public void publish(LogRecord r) {
      logged.add(r.getMessage() + (r.getThrown() == null ? "" : " " + r.getThrown()));
    }

    @Override
    public void flush() {}

    @Override
    public void close() {}
  };

  @TempDir Path dir;

  @BeforeEach
  void captureLog() {
    BRIDGE_LOG.addHandler(capture);
    BRIDGE_LOG.setLevel(Level.ALL);
  }

  @AfterEach
  void releaseLog() {
    BRIDGE_LOG.removeHandler(capture);
  }

  private void assertNoToken(String token) {
    assertFalse(logged.isEmpty(), "the scenario logged something");
    for (String line : logged) {
      assertFalse(line.contains(token), "token in log line: " + line.replace(token, "<LEAKED>"));
      assertFalse(line.contains(token.substring(token.indexOf(':') + 1)), "secret in log line");
    }
  }

  @Test
  void failuresThatQuoteTheToken_areLoggedRedacted() throws Exception {
    try (BridgeHarness h = new BridgeHarness(dir).withAgent()) {
      String broken = h.api.addFile(TestImages.jpeg(10, 10));
      h.api.failGetFile(broken, 400, "Bad Request: no file at /file/bot" + RecordingBotApi.TOKEN + "/x");
      h.api.failNext("sendMessage", 1, 429, "Too Many Requests for bot" + RecordingBotApi.TOKEN, 1);
      h.start();
      h.api.addMessage(TgMessages.photo(CHAT, "x", broken, 100));
      RecordingBotApi.Call notice = h.api.awaitText(CHAT, "could not be fetched");
      assertFalse(notice.text().contains(RecordingBotApi.TOKEN), "not even in the chat: " + notice.text());
      assertTrue(notice.text().contains("<token>"), notice.text());
      h.stopBridge();
      assertNoToken(RecordingBotApi.TOKEN);
    }
  }

  @Test
  void wrongToken_andUnreachableServer_errorsNeverShowTheToken() throws Exception {
    String wrong = "987654321:ZZZ-wrongTokenThatMustStaySecret";
    try (RecordingBotApi api = new RecordingBotApi()) {
      BotApi client = new BotApi(api.url(), BotToken.of(wrong), HttpClient.newHttpClient(), Duration.ofSeconds(10));
      BotApiException e = assertThrows(BotApiException.class, () -> client.getUpdates(0, 0));
      assertEquals(401, e.errorCode());
      assertFalse(e.getMessage().contains(wrong), e.getMessage());
    }
    int closedPort;
    try (ServerSocket s = new ServerSocket(0)) {
      closedPort = s.getLocalPort();
    }
    BotApi unreachable = new BotApi(URI.create("http://127.0.0.1:" + closedPort), BotToken.of(wrong),
        HttpClient.newHttpClient(), Duration.ofSeconds(10));
    IOException e = assertThrows(IOException.class, () -> unreachable.download("photos/a.jpg", 100));
    assertFalse(String.valueOf(e).contains(wrong), String.valueOf(e));
    assertEquals(null, e.getCause(), "no cause that could carry the URL");

    try (BridgeHarness h = new BridgeHarness(dir)) {
      TelegramBridge bridge = h.builder().token(BotToken.of(wrong)).build();
      bridge.start();
      long deadline = System.nanoTime() + BridgeHarness.WAIT.toNanos();
      while (logged.stream().noneMatch(l -> l.contains("401 Unauthorized")) && System.nanoTime() < deadline) {
        Thread.sleep(20);
      }
      assertTrue(logged.stream().anyMatch(l -> l.contains("getUpdates failed: 401 Unauthorized")), logged.toString());
      assertFalse(bridge.toString().contains("wrongToken"), bridge.toString());
      bridge.close();
      assertNoToken(wrong);
    }
  }

  @Test
  void tokenFile_mustBePrivate_andItsErrorsNameTheFileNotTheToken() throws Exception {
    Path file = dir.resolve("bot-token");
    Files.writeString(file, RecordingBotApi.TOKEN + "\n");
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));
    IOException open = assertThrows(IOException.class, () -> BotToken.fromFile(file));
    assertTrue(open.getMessage().contains("chmod 600 " + file), open.getMessage());
    assertFalse(open.getMessage().contains(RecordingBotApi.TOKEN));

    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
    BotToken token = BotToken.fromFile(file);
    assertEquals(RecordingBotApi.TOKEN, token.value());
    assertEquals("BotToken[123456789:***]", token.toString());

    Files.writeString(file, "not a token " + "x".repeat(20));
    IOException bad = assertThrows(IOException.class, () -> BotToken.fromFile(file));
    assertFalse(bad.getMessage().contains("x".repeat(20)), bad.getMessage());
    IllegalArgumentException iae = assertThrows(IllegalArgumentException.class, () -> BotToken.of("12:" + "s".repeat(5)));
    assertFalse(iae.getMessage().contains("sssss"));
  }
}
