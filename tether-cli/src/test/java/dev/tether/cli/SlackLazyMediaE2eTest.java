package dev.tether.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.tether.server.testing.Fixtures;
import dev.tether.slack.testing.FakeSlack;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Slack lazy media end to end with real processes: {@code tether serve --with-agent}, {@code tether
 * slack} on Socket Mode against the Slack stand-in ({@link FakeSlack}) and {@code tether mcp} driven
 * by the MCP SDK's client: channel photos are placeholders with no download, one {@code fetch_media}
 * is one download of the same bytes, a 429 slows the bridge and loses no answer, and a restarted
 * bridge still serves the refs it announced.
 */
class SlackLazyMediaE2eTest {
  private static final long START_MS = 60_000;
  private static final String CHANNEL = "C0LAZYCHAN";
  private static final Duration WAIT = Duration.ofSeconds(60);

  @TempDir Path dir;

  @Test
  void channelPhotos_arePlaceholders_oneFetchOneDownload_429LosesNothing_refsSurviveARestart() throws Exception {
    Path socket = dir.resolve("tether.sock");
    Path state = dir.resolve("slack-state");
    byte[] photo = Base64.getDecoder().decode(Fixtures.jpeg(320, 200).data());
    try (FakeSlack slack = new FakeSlack();
        ChildJvm serve = ChildJvm.start(dir, "serve", Map.of(), "serve", "--socket", socket.toString(), "--with-agent")) {
      serve.awaitStderr("ready on", START_MS);
      ChildJvm bridge = startBridge(slack, socket, state, "slack-1");
      try (McpSdkChild mcp = McpSdkChild.start(dir, "--host", "unix:" + socket)) {
        for (int i = 1; i <= 3; i++) {
          String id = "F0E2E" + i;
          slack.socketMode().sendEvent(FakeSlack.withFile(FakeSlack.message("EvP" + i, CHANNEL, "176400000" + i + ".000100",
              "holiday " + i), id, "holiday-" + i + ".jpg", photo.length, "image/jpeg", slack.addFile(id, photo)));
        }
        List<String> refs = McpMedia.awaitRefs(mcp, "sl_", 3, WAIT);
        assertEquals(List.of(), slack.downloads(), "nothing of the channel was downloaded");

        CallToolResult fetched = mcp.call("fetch_media", Map.of("mediaRef", refs.get(1)));
        assertFalse(fetched.isError(), fetched.toString());
        assertEquals("image/jpeg", McpSdkChild.imageType(fetched));
        assertArrayEquals(photo, McpSdkChild.image(fetched), "byte-identical to the photo");
        assertEquals(1, slack.downloads().size(), "one fetch, one download");

        // Two 429s on chat.postMessage: the answer waits for Retry-After and still arrives.
        slack.rateLimit("chat.postMessage", 2);
        slack.socketMode().sendEvent(FakeSlack.message("EvRate", CHANNEL, "1764000009.000100", "are you there"));
        slack.await("chat.postMessage", c -> "1764000009.000100".equals(c.fields().get("thread_ts")), WAIT);
        assertEquals(2, slack.calls("429 chat.postMessage").size(), "both 429s were seen and retried");

        // A restarted bridge on the same state dir still serves the refs it announced.
        assertEquals(143, bridge.terminate(), bridge.stderrText());
        bridge = startBridge(slack, socket, state, "slack-2");
        CallToolResult again = mcp.call("fetch_media", Map.of("mediaRef", refs.get(2)));
        assertFalse(again.isError(), again.toString() + "\n" + bridge.stderrText());
        assertArrayEquals(photo, McpSdkChild.image(again));
        assertEquals(2, slack.downloads().size());
        assertFalse(bridge.stderrText().contains(FakeSlack.BOT_TOKEN), "the bot token is never logged");
      } finally {
        bridge.close();
      }
    }
  }

  private ChildJvm startBridge(FakeSlack slack, Path socket, Path state, String name) throws Exception {
    ChildJvm bridge = ChildJvm.start(dir, name, Map.of(), "slack", "--bot-token-file", secret("bot", FakeSlack.BOT_TOKEN).toString(),
        "--app-token-file", secret("app", FakeSlack.APP_TOKEN).toString(), "--api-url", slack.apiUrl().toString(),
        "--host", "unix:" + socket, "--allowed-channels", CHANNEL, "--state-dir", state.toString());
    bridge.awaitStderr("tether slack: media: DMs eager, channels lazy", START_MS);
    slack.socketMode().awaitConnected(WAIT);
    return bridge;
  }

  private Path secret(String name, String value) throws Exception {
    Path file = dir.resolve(name);
    Files.writeString(file, value + "\n");
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
    return file;
  }
}
