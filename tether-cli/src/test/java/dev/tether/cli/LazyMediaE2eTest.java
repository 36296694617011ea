package dev.tether.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tether.api.Limits;
import dev.tether.mcp.TetherMcpServer;
import dev.tether.server.testing.Fixtures;
import dev.tether.telegram.testing.RecordingBotApi;
import dev.tether.telegram.testing.TgMessages;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.client.transport.StdioClientTransport;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.ImageContent;
import io.modelcontextprotocol.spec.McpSchema.TextContent;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Lazy media end to end with real processes: {@code tether serve --with-agent}, {@code tether
 * telegram} against a local Bot API server ({@link RecordingBotApi}) with a lazy group and an
 * eager private chat, and {@code tether mcp} driven by the MCP SDK's own client, as an agent's
 * tool host would run it.
 */
class LazyMediaE2eTest {
  private static final long START_MS = 60_000;
  private static final long CHAT = 4242L;
  private static final long GROUP = -100200300L;
  private static final Duration WAIT = Duration.ofSeconds(60);
  private static final Pattern REF = Pattern.compile("ref:(tg_[A-Za-z0-9_-]+)\\] (holiday \\d+|huge|soon gone)");

  @TempDir Path dir;

  @Test
  void twentyGroupPhotos_oneFetch_oneDownload_errorsCoded_refsSurviveARestart() throws Exception {
    Path socket = dir.resolve("tether.sock");
    Path tokenFile = dir.resolve("bot-token");
    Files.writeString(tokenFile, RecordingBotApi.TOKEN + "\n");
    Files.setPosixFilePermissions(tokenFile, PosixFilePermissions.fromString("rw-------"));
    Path state = dir.resolve("telegram-state");
    try (RecordingBotApi telegram = new RecordingBotApi();
        ChildJvm serve = ChildJvm.start(dir, "serve", Map.of(), "serve", "--socket", socket.toString(), "--with-agent")) {
      serve.awaitStderr("ready on", START_MS);
      byte[] photo = Base64.getDecoder().decode(Fixtures.jpeg(320, 200).data());
      String file = telegram.addFile(photo);
      ChildJvm bridge = startBridge(telegram, tokenFile, socket, state, "bridge-1");
      try (McpSyncClient mcp = mcp(socket)) {
        // The private chat is eager: its photo is downloaded at once and described by the demo agent.
        telegram.addMessage(TgMessages.photo(CHAT, "mine", file, (long) photo.length));
        telegram.awaitText(CHAT, "image 1: JPEG, 320x200 pixels");
        assertEquals(1, telegram.downloads().size(), "the private photo");

        // Twenty photos in the lazy group: placeholders, no downloads.
        for (int i = 1; i <= 20; i++) {
          telegram.addMessage(TgMessages.photo(GROUP, "holiday " + i, file, (long) photo.length));
        }
        Map<String, String> refs = awaitListed(mcp, 20);
        assertEquals(1, telegram.downloads().size(), "nothing of the group was downloaded");
        assertEquals(1, telegram.calls("getFile").size());

        CallToolResult fetched = tool(mcp, "fetch_media", Map.of("mediaRef", refs.get("holiday 7")));
        assertFalse(fetched.isError(), fetched.toString());
        ImageContent image = (ImageContent) fetched.content().get(1);
        assertEquals("image/jpeg", image.mimeType());
        assertArrayEquals(photo, Base64.getDecoder().decode(image.data()), "byte-identical to the photo");
        assertEquals(2, telegram.downloads().size(), "one fetch, one download");
        assertEquals(2, telegram.calls("getFile").size());

        assertError(tool(mcp, "fetch_media", Map.of("mediaRef", "tg_neverAnnounced")), "UNKNOWN_REF");
        assertError(tool(mcp, "fetch_media", Map.of("mediaRef", "tg_neverAnnounced", "session_id", Long.toString(GROUP))),
            "UNKNOWN_REF");
        assertError(tool(mcp, "fetch_media", Map.of("mediaRef", refs.get("holiday 3"), "session_id", Long.toString(CHAT))),
            "PERMISSION_DENIED");
        telegram.addMessage(TgMessages.document(GROUP, "huge", "big-file", "film.mkv", "video/x-matroska", 25_000_000L));
        refs = awaitListed(mcp, 21);
        assertError(tool(mcp, "fetch_media", Map.of("mediaRef", refs.get("huge"))), "DOWNLOAD_TOO_LARGE");
        assertEquals(2, telegram.calls("getFile").size(), "the 25 MB file was not even asked for");

        // A restart keeps the refs; refs made with a 2 s TTL expire.
        assertEquals(143, bridge.terminate());
        bridge = startBridge(telegram, tokenFile, socket, state, "bridge-2", "--media-ttl", "2s");
        CallToolResult again = tool(mcp, "fetch_media", Map.of("mediaRef", refs.get("holiday 3")));
        assertFalse(again.isError(), again.toString());
        assertArrayEquals(photo, Base64.getDecoder().decode(((ImageContent) again.content().get(1)).data()));
        telegram.addMessage(TgMessages.photo(GROUP, "soon gone", file, (long) photo.length));
        refs = awaitListed(mcp, 22);
        String soonGone = refs.get("soon gone");
        Thread.sleep(2500); // the TTL is wall-clock time in a child process
        assertError(tool(mcp, "fetch_media", Map.of("mediaRef", soonGone)), "EXPIRED_REF");

        // The demo agent fetches when a message announces media and asks about it.
        int downloads = telegram.downloads().size();
        telegram.addMessage(TgMessages.photo(GROUP, "What is in this picture?", file, (long) photo.length));
        RecordingBotApi.Call answer = telegram.awaitText(GROUP, "I fetched ref:");
        assertTrue(answer.text().contains("image 1: JPEG, 320x200 pixels"), answer.text());
        assertEquals(downloads + 1, telegram.downloads().size());
      } finally {
        bridge.close();
      }
    }
  }

  private ChildJvm startBridge(RecordingBotApi telegram, Path tokenFile, Path socket, Path state, String name,
      String... extra) throws Exception {
    List<String> args = new ArrayList<>(List.of("telegram", "--token-file", tokenFile.toString(),
        "--api-url", telegram.url().toString(), "--host", "unix:" + socket, "--instance", "default",
        "--allowed-chats", CHAT + "," + GROUP, "--state-dir", state.toString()));
    args.addAll(List.of(extra));
    ChildJvm bridge = ChildJvm.start(dir, name, Map.of(), args.toArray(String[]::new));
    bridge.awaitStderr("tether telegram: media: private chats eager, groups lazy", START_MS);
    return bridge;
  }

  private McpSyncClient mcp(Path socket) {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    ServerParameters params = ServerParameters.builder(java)
        .args("-Xmx256m", "-cp", System.getProperty("java.class.path"), Main.class.getName(), "mcp", "--host", "unix:" + socket)
        .addEnvVar("HOME", dir.toString())
        .build();
    StdioClientTransport transport = new StdioClientTransport(params, TetherMcpServer.jsonMapper(),
        3 * Limits.MAX_FRAME_BYTES + (1 << 20)); // the server's own line limit (an image answer is one long line)
    McpSyncClient client = McpClient.sync(transport).requestTimeout(Duration.ofSeconds(150)).initializationTimeout(Duration.ofSeconds(60)).build();
    client.initialize();
    return client;
  }

  private static CallToolResult tool(McpSyncClient mcp, String name, Map<String, Object> args) {
    return mcp.callTool(CallToolRequest.builder(name).arguments(args).build());
  }

  private static void assertError(CallToolResult result, String code) {
    assertTrue(result.isError(), result.toString());
    String text = ((TextContent) result.content().get(0)).text();
    assertTrue(text.contains("\"code\":\"" + code + "\""), text);
  }

  /** Waits until list_media shows {@code count} items; returns caption -> ref. */
  private static Map<String, String> awaitListed(McpSyncClient mcp, int count) throws InterruptedException {
    long end = System.nanoTime() + WAIT.toNanos();
    Map<String, String> refs = new java.util.HashMap<>();
    while (System.nanoTime() < end) {
      String text = ((TextContent) tool(mcp, "list_media", Map.of()).content().get(0)).text();
      refs.clear();
      Matcher m = REF.matcher(text);
      while (m.find()) {
        refs.put(m.group(2), m.group(1));
      }
      if (text.lines().count() >= count && refs.size() >= count) {
        return refs;
      }
      Thread.sleep(100);
    }
    throw new AssertionError("list_media did not show " + count + " items: " + refs);
  }
}
