package dev.tether.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tether.slack.testing.FakeSlack;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * End to end with real processes: {@code tether serve --with-agent} and {@code tether slack} as
 * child JVMs on a Unix socket, the bridge on Socket Mode against the Slack stand-in
 * ({@link FakeSlack}) as it would be against slack.com.
 */
class SlackE2eTest {
  private static final long START_MS = 60_000;
  private static final String CHANNEL = "C0E2ECHAN1";

  @TempDir Path dir;

  @Test
  void channelMessage_overSocketMode_isAnsweredInItsThread_byTheDemoAgent_andNoSecretIsLogged() throws Exception {
    Path socket = dir.resolve("tether.sock");
    Path bot = secret("bot-token", FakeSlack.BOT_TOKEN);
    Path app = secret("app-token", FakeSlack.APP_TOKEN);
    try (FakeSlack slack = new FakeSlack();
        ChildJvm serve = ChildJvm.start(dir, "serve", Map.of(), "serve", "--socket", socket.toString(), "--with-agent")) {
      serve.awaitStderr("ready on", START_MS);
      try (ChildJvm bridge = ChildJvm.start(dir, "slack", Map.of(), "slack", "--bot-token-file", bot.toString(),
          "--app-token-file", app.toString(), "--api-url", slack.apiUrl().toString(), "--host", "unix:" + socket,
          "--allowed-channels", CHANNEL, "--state-dir", dir.resolve("slack-state").toString(), "--log-format", "json")) {
        bridge.awaitStderr("tether slack: bridging", START_MS);
        slack.socketMode().awaitConnected(Duration.ofSeconds(60));
        String envelope = slack.socketMode().sendEvent(FakeSlack.message("EvE2E", CHANNEL, "1764000000.000100", "hello agent"));
        assertTrue(slack.socketMode().awaitAck(envelope, Duration.ofSeconds(30)), "acknowledged");
        FakeSlack.Call answer = slack.await("chat.postMessage", c -> CHANNEL.equals(c.fields().get("channel")), Duration.ofSeconds(60));
        assertEquals("1764000000.000100", answer.fields().get("thread_ts"));
        slack.socketMode().sendEvent(FakeSlack.message("EvE2E2", "C0NOTALLOW", "1764000001.000100", "psst"));
        bridge.awaitStderr("C0NOTALLOW", START_MS);

        assertEquals(143, bridge.terminate(), bridge.stderrText());
        assertTrue(bridge.stderrText().contains("tether slack: stopped"), bridge.stderrText());
        assertFalse(bridge.stderrText().contains(FakeSlack.BOT_TOKEN), "the bot token is never logged");
        assertFalse(bridge.stderrText().contains(FakeSlack.APP_TOKEN), "the app token is never logged");
      }
    }
  }

  @Test
  void secretFileReadableByOthers_isRefusedWithTheFix() throws Exception {
    Path bot = dir.resolve("bot-token");
    Files.writeString(bot, FakeSlack.BOT_TOKEN);
    Files.setPosixFilePermissions(bot, PosixFilePermissions.fromString("rw-r--r--"));
    try (ChildJvm bridge = ChildJvm.start(dir, "slack-open-token", Map.of(), "slack", "--bot-token-file", bot.toString(),
        "--app-token-file", bot.toString(), "--allowed-channels", CHANNEL, "--host", "unix:" + dir.resolve("none.sock"))) {
      bridge.awaitStderr("chmod 600", START_MS);
      assertFalse(bridge.stderrText().contains(FakeSlack.BOT_TOKEN));
    }
  }

  private Path secret(String name, String value) throws Exception {
    Path file = dir.resolve(name);
    Files.writeString(file, value + "\n");
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
    return file;
  }
}
