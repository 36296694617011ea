package dev.tether.cli;

import dev.tether.server.testing.Fixtures;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tether.images.ImageHeaders;
import dev.tether.telegram.testing.RecordingBotApi;
import dev.tether.telegram.testing.TgMessages;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.Base64;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * End to end with real processes: {@code tether serve --with-agent} and {@code tether telegram}
 * as child JVMs on a Unix socket, the bridge talking to a local Bot API server
 * ({@link RecordingBotApi}) as it would to api.telegram.org.
 */
class TelegramE2eTest {
  private static final long START_MS = 60_000;
  private static final long CHAT = 4242L;

  @TempDir Path dir;

  @Test
  void photoFromTelegram_isDescribedByTheDemoAgent_andAChartComesBackAsAPhoto() throws Exception {
    Path socket = dir.resolve("tether.sock");
    Path tokenFile = dir.resolve("bot-token");
    Files.writeString(tokenFile, RecordingBotApi.TOKEN + "\n");
    Files.setPosixFilePermissions(tokenFile, PosixFilePermissions.fromString("rw-------"));
    try (RecordingBotApi telegram = new RecordingBotApi();
        ChildJvm serve = ChildJvm.start(dir, "serve", Map.of(), "serve", "--socket", socket.toString(), "--with-agent")) {
      serve.awaitStderr("ready on", START_MS);
      try (ChildJvm bridge = ChildJvm.start(dir, "telegram", Map.of(), "telegram",
          "--token-file", tokenFile.toString(), "--api-url", telegram.url().toString(),
          "--host", "unix:" + socket, "--instance", "default", "--allowed-chats", CHAT + ",-100200300",
          "--state-dir", dir.resolve("telegram-state").toString())) {
        bridge.awaitStderr("tether telegram: bridging", START_MS);

        byte[] photo = Base64.getDecoder().decode(Fixtures.jpeg(320, 200).data());
        String small = telegram.addFile(Base64.getDecoder().decode(Fixtures.jpeg(90, 56).data()));
        String large = telegram.addFile(photo);
        telegram.addMessage(TgMessages.photo(CHAT, "What is in this picture?", small, null, large, photo.length));
        String expected = String.format(Locale.ROOT, "image 1: JPEG, 320x200 pixels, %,d bytes", photo.length);
        RecordingBotApi.Call answer = telegram.awaitText(CHAT, expected);
        assertEquals("sendMessage", answer.method(), answer.toString());
        assertEquals(1, telegram.downloads().size(), "only the largest size was downloaded");

        telegram.addMessage(TgMessages.text(CHAT, "Please draw a chart of 2, 4 and 8"));
        RecordingBotApi.Call chart = telegram.awaitDelivered(c -> c.method().equals("sendPhoto"), 1, Duration.ofSeconds(60))
            .stream().filter(c -> c.method().equals("sendPhoto")).findFirst().orElseThrow();
        assertEquals("image/png", chart.upload().contentType());
        assertEquals(new ImageHeaders.Dimensions(ChartPainter.WIDTH, ChartPainter.HEIGHT),
            ImageHeaders.dimensions(chart.upload().bytes()));
        assertTrue(telegram.calls("sendChatAction").stream().anyMatch(c -> "typing".equals(c.fields().get("action"))),
            "typing was shown");

        assertEquals(143, bridge.terminate(), "SIGTERM stops the bridge through its shutdown hook: " + bridge.stderrText());
        assertTrue(bridge.stderrText().contains("tether telegram: stopped"), bridge.stderrText());
        assertFalse(bridge.stderrText().contains(RecordingBotApi.TOKEN), "the token is never logged");
      }
    }
  }

  @Test
  void tokenFileReadableByOthers_isRefusedWithTheFix() throws Exception {
    Path tokenFile = dir.resolve("bot-token");
    Files.writeString(tokenFile, RecordingBotApi.TOKEN);
    Files.setPosixFilePermissions(tokenFile, PosixFilePermissions.fromString("rw-r--r--"));
    try (ChildJvm bridge = ChildJvm.start(dir, "telegram-open-token", Map.of(), "telegram",
        "--token-file", tokenFile.toString(), "--allowed-chats", "1", "--host", "unix:" + dir.resolve("none.sock"))) {
      bridge.awaitStderr("chmod 600", START_MS);
      assertFalse(bridge.stderrText().contains(RecordingBotApi.TOKEN));
    }
  }
}
