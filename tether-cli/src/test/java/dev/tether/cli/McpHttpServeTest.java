package dev.tether.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tether.client.HostAddress;
import dev.tether.mcp.TetherMcpServer;
import dev.tether.server.testing.Fixtures;
import dev.tether.server.testing.RawSocket;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.ImageContent;
import io.modelcontextprotocol.spec.McpSchema.ProgressNotification;
import io.modelcontextprotocol.spec.McpSchema.TextContent;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * MCP over Streamable HTTP against real processes: {@code serve --listen --mcp --with-agent} (the
 * endpoint on the daemon's own TCP listener, behind its token rules), {@code serve --socket --mcp}
 * (the same endpoint on the Unix socket) and {@code tether mcp --http} in front of that serve,
 * driven by the MCP Java SDK's Streamable HTTP client; the TypeScript SDK's client runs against
 * both in {@link #typescriptSdkClient_overStreamableHttp_onServeAndOnTheStandaloneServer}. On
 * {@code serve --mcp}: the attachment tools with the token rules, and an instance token's streams
 * and calls in flight ending when it is revoked or its instance deleted ({@link McpRawSession}).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class McpHttpServeTest {
  static final Duration TIMEOUT = Duration.ofSeconds(60);
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir static Path dir;
  // A new client per request: serve closes a connection idle past its 10 s header timeout, and a
  // pooled one reused after that fails with "header parser received no bytes".
  private final Fresh http = new Fresh();

  private static final class Fresh {
    <T> HttpResponse<T> send(HttpRequest request, HttpResponse.BodyHandler<T> body) throws Exception {
      return HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build().send(request, body);
    }
  }
  private ChildJvm serve;
  private ChildJvm standalone;
  private String base;
  private String hostToken;
  private String mcpUrl;
  private String mcpToken;

  @BeforeAll
  void start() throws Exception {
    Path tokenFile = dir.resolve("host-token");
    serve = ChildJvm.start(dir, "serve", Map.of(), "serve", "--listen", "127.0.0.1:0", "--token-file", tokenFile.toString(),
        "--instance", "vm1", "--with-agent", "--mcp");
    base = serve.awaitStderr("listening on (http://127\\.0\\.0\\.1:\\d+)", 60_000).group(1);
    serve.awaitStderr("MCP \\(Streamable HTTP\\) at", 60_000);
    hostToken = Files.readString(tokenFile).trim();
    Path mcpTokenFile = dir.resolve("mcp-token");
    standalone = ChildJvm.start(dir, "mcp-http", Map.of(), "mcp", "--host", base, "--token-file", tokenFile.toString(),
        "--http", "127.0.0.1:0", "--http-token-file", mcpTokenFile.toString());
    mcpUrl = standalone.awaitStderr("serving MCP \\(Streamable HTTP\\) at (http://127\\.0\\.0\\.1:\\d+/mcp)", 60_000).group(1);
    mcpToken = Files.readString(mcpTokenFile).trim();
  }

  @AfterAll
  void stop() {
    if (standalone != null) {
      standalone.close();
    }
    if (serve != null) {
      serve.close();
    }
  }

  /** The MCP Java SDK's Streamable HTTP client of {@code url}, sending {@code token}. */
  static McpSyncClient client(String url, String token) {
    return client(url, token, n -> {});
  }

  static McpSyncClient client(String url, String token, Consumer<ProgressNotification> progress) {
    URI uri = URI.create(url);
    HttpClientStreamableHttpTransport transport = HttpClientStreamableHttpTransport.builder(uri.resolve("/").toString())
        .endpoint(uri.getPath()).jsonMapper(TetherMcpServer.jsonMapper())
        .requestBuilder(HttpRequest.newBuilder().header("Authorization", "Bearer " + token)).build();
    McpSyncClient client = McpClient.sync(transport).requestTimeout(TIMEOUT).progressConsumer(progress).build();
    client.initialize();
    return client;
  }

  @Test
  void serveMcp_hostToken_listsToolsAndGetsTheDemoAgentsAnswer() throws Exception {
    try (McpSyncClient client = client(base + "/mcp", hostToken)) {
      assertSendAndRead(client, "default");
    }
  }

  @Test
  void standaloneMcpHttp_listsToolsAndGetsTheDemoAgentsAnswerThroughTheHost() throws Exception {
    try (McpSyncClient client = client(mcpUrl, mcpToken)) {
      assertSendAndRead(client, "default");
    }
  }

  @Test
  void wrongToken_isRefused_onBothEndpoints() throws Exception {
    for (String url : List.of(base + "/mcp", mcpUrl)) {
      HttpResponse<String> r = http.send(initialize(url, "w".repeat(43)), HttpResponse.BodyHandlers.ofString());
      assertEquals(401, r.statusCode(), url + ": " + r.body());
      assertTrue(r.body().contains("UNAUTHORIZED"), r.body());
      assertThrows(RuntimeException.class, () -> client(url, "w".repeat(43)).close());
    }
    // The host's token is not the standalone server's, nor the other way round.
    assertEquals(401, http.send(initialize(mcpUrl, hostToken), HttpResponse.BodyHandlers.ofString()).statusCode());
    assertEquals(401, http.send(initialize(base + "/mcp", mcpToken), HttpResponse.BodyHandlers.ofString()).statusCode());
  }

  @Test
  void instanceToken_reachesItsOwnInstanceOnly() throws Exception {
    String vmToken = mint("vm1");
    try (McpSyncClient client = client(base + "/mcp", vmToken)) {
      CallToolResult other = client.callTool(CallToolRequest.builder("tether_send")
          .arguments(Map.of("instance", "default", "text", "not yours")).build());
      assertTrue(other.isError(), text(other));
      assertEquals("PERMISSION_DENIED", JSON.readTree(text(other)).get("error").get("code").asText(), text(other));
      CallToolResult otherRead = client.callTool(CallToolRequest.builder("tether_read")
          .arguments(Map.of("instance", "default")).build());
      assertEquals("PERMISSION_DENIED", JSON.readTree(text(otherRead)).get("error").get("code").asText(), text(otherRead));
      CallToolResult own = client.callTool(CallToolRequest.builder("tether_send")
          .arguments(Map.of("instance", "vm1", "session_id", "scoped", "text", "mine")).build());
      assertFalse(own.isError(), text(own));
      CallToolResult implied = client.callTool(CallToolRequest.builder("tether_read")
          .arguments(Map.of("session_id", "scoped")).build());
      assertFalse(implied.isError(), "no instance: the token's own: " + text(implied));
      // tether_read skips the session's own messages; its cursor past ours shows it read vm1.
      assertEquals(JSON.readTree(text(own)).get("ingress_seq").asLong(), JSON.readTree(text(implied)).get("next_seq").asLong(),
          text(implied));
    }
  }

  @Test
  void serveMcp_attachmentTools_asStdioServesThem_instanceTokenHeldToItsOwnInstance() throws Exception {
    byte[] png = Fixtures.picture("png", 20, 10);
    upload("vm1", "notes.txt", "text/plain", "first line\nneedle here\n".getBytes(StandardCharsets.UTF_8));
    upload("vm1", "shot.png", "image/png", png);
    upload("vm1", "evil.txt", "text/plain", ("a".repeat(5_000) + "!").getBytes(StandardCharsets.UTF_8));
    upload("default", "host-only.txt", "text/plain", "not for vm1".getBytes(StandardCharsets.UTF_8));
    try (McpSyncClient host = client(base + "/mcp", hostToken); McpSyncClient vm1 = client(base + "/mcp", mint("vm1"))) {
      List<String> names = host.listTools().tools().stream().map(Tool::name).toList();
      assertTrue(names.containsAll(List.of("list_attachments", "read_attachment", "grep_attachment", "view_attachment")),
          names.toString());
      // No arguments, as the attachment spec shows: the host token's default instance, an instance token's own.
      assertEquals("- host-only.txt (11 bytes, text/plain)", text(call(host, "list_attachments", Map.of())));
      String own = text(call(vm1, "list_attachments", Map.of()));
      assertTrue(own.startsWith("- notes.txt (23 bytes, text/plain)\n- shot.png (") && !own.contains("host-only"), own);
      assertEquals("needle here\n", text(call(vm1, "read_attachment", Map.of("filename", "notes.txt", "offset", 11))));
      assertEquals("notes.txt:2: needle here\n1 matching line in 1 file (of 3 searched); skipped shot.png (binary)",
          text(call(vm1, "grep_attachment", Map.of("pattern", "need+le"))));
      CallToolResult view = call(vm1, "view_attachment", Map.of("filename", "shot.png"));
      assertTrue(view.content().stream().anyMatch(c -> c instanceof ImageContent i && i.mimeType().equals("image/png")
          && Arrays.equals(Base64.getDecoder().decode(i.data()), png)), view.toString());
      // A catastrophic pattern over HTTP: cut off within grep's time budget, the session still serves.
      long start = System.nanoTime();
      String evil = text(call(vm1, "grep_attachment", Map.of("pattern", "(a|aa)*b", "filename", "evil.txt")));
      assertTrue(evil.contains("cut off in evil.txt line 1"), evil);
      assertTrue(System.nanoTime() - start < Duration.ofSeconds(10).toNanos(), "answered within its budget");
      for (String tool : List.of("list_attachments", "read_attachment", "grep_attachment", "view_attachment")) {
        CallToolResult other = call(vm1, tool, Map.of("instance", "default", "filename", "host-only.txt", "pattern", "x"));
        assertTrue(other.isError(), tool + ": " + other);
        assertEquals("PERMISSION_DENIED", JSON.readTree(text(other)).get("error").get("code").asText(), tool);
      }
      CallToolResult listed = call(host, "list_attachments", Map.of("instance", "vm1"));
      assertTrue(text(listed).contains("notes.txt"), "the host token reaches every instance: " + text(listed));
    }
  }

  @Test
  void revokedToken_endsItsOpenMcpStreamWithinASecond_andItsCallInFlight_thenItsCallsAre401() throws Exception {
    JsonNode minted = mintWithId("vm1");
    String token = minted.get("token").asText();
    McpRawSession raw = McpRawSession.open(base + "/mcp", token);
    CompletableFuture<Void> stream = raw.stream();
    try (McpSyncClient sdk = client(base + "/mcp", token)) {
      String session = "revoked-" + System.nanoTime();
      CompletableFuture<CallToolResult> waiting = CompletableFuture.supplyAsync(() -> sdk.callTool(CallToolRequest
          .builder("tether_send_stream").arguments(Map.of("session_id", session, "text", "nobody answers", "wait_ms", 60_000)).build()));
      // Its message stored: the call is now waiting for an answer that never comes.
      HttpResponse<String> sent = http.send(HttpRequest.newBuilder(URI.create(base + "/v1/instances/vm1/tether/poll?session_id="
          + session + "&wait_ms=20000")).header("Authorization", "Bearer " + hostToken).GET().build(), HttpResponse.BodyHandlers.ofString());
      assertTrue(sent.body().contains("nobody answers"), sent.body());
      assertFalse(stream.isDone() || waiting.isDone(), "the stream and the call stay open while the token is valid");
      HttpResponse<String> revoked = http.send(HttpRequest.newBuilder(URI.create(base + "/v1/tokens/" + minted.get("id").asText()))
          .header("Authorization", "Bearer " + hostToken).DELETE().build(), HttpResponse.BodyHandlers.ofString());
      assertEquals(200, revoked.statusCode(), revoked.body());
      stream.get(1, TimeUnit.SECONDS); // ended within a second
      // The long poll in flight (a POST answered as SSE) is cut too: it fails long before its 60 s.
      assertThrows(ExecutionException.class, () -> waiting.get(10, TimeUnit.SECONDS));
      assertThrows(RuntimeException.class, () -> sdk.listTools(), "the SDK client's next call is refused");
    }
    HttpResponse<String> next = raw.post("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}");
    assertEquals(401, next.statusCode(), next.body());
  }

  @Test
  void deletedInstance_endsItsTokensMcpStreams_andTheirNextCallsAre401() throws Exception {
    HttpResponse<String> created = http.send(HttpRequest.newBuilder(URI.create(base + "/v1/instances/doomed"))
        .header("Authorization", "Bearer " + hostToken).PUT(HttpRequest.BodyPublishers.noBody()).build(),
        HttpResponse.BodyHandlers.ofString());
    assertTrue(created.statusCode() / 100 == 2, created.body());
    McpRawSession doomed = McpRawSession.open(base + "/mcp", mint("doomed"));
    McpRawSession other = McpRawSession.open(base + "/mcp", mint("vm1"));
    CompletableFuture<Void> doomedStream = doomed.stream();
    CompletableFuture<Void> otherStream = other.stream();
    McpSyncClient host = client(base + "/mcp", hostToken);
    CompletableFuture<CallToolResult> hostWait = CompletableFuture.supplyAsync(() -> call(host, "tether_read",
        Map.of("instance", "doomed", "wait_ms", 60_000)));
    HttpResponse<String> deleted = http.send(HttpRequest.newBuilder(URI.create(base + "/v1/instances/doomed"))
        .header("Authorization", "Bearer " + hostToken).DELETE().build(), HttpResponse.BodyHandlers.ofString());
    assertEquals(200, deleted.statusCode(), deleted.body());
    doomedStream.get(1, TimeUnit.SECONDS);
    assertEquals(401, doomed.post("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}").statusCode());
    assertFalse(otherStream.isDone(), "another instance's stream runs on");
    assertEquals(200, other.post("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}").statusCode());
    // The host token's session lives on (it spans instances); its call waiting on the deleted instance ends.
    try (host) {
      CallToolResult ended = hostWait.get(10, TimeUnit.SECONDS);
      assertTrue(ended.isError() ? text(ended).contains("INSTANCE_NOT_FOUND") : !text(ended).contains("\"timed_out\":true"),
          text(ended));
      assertFalse(call(host, "tether_read", Map.of("instance", "vm1")).isError(), "the host's session still serves");
    }
  }

  @Test
  void crossOriginBrowserRequest_isRefused403() throws Exception {
    HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(base + "/mcp")).timeout(TIMEOUT)
        .header("Authorization", "Bearer " + hostToken).header("Origin", "http://evil.example")
        .header("Accept", "application/json, text/event-stream").header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString(INITIALIZE)).build(), HttpResponse.BodyHandlers.ofString());
    assertEquals(403, r.statusCode(), r.body());
  }

  @Test
  void serveMcp_aFloodOfSends_isRefusedRateLimitedPastTheInstancesBurst_inTheRoutesBucket() throws Exception {
    Path tokenFile = dir.resolve("limited-token");
    try (ChildJvm limited = ChildJvm.start(dir, "serve-limited", Map.of(), "serve", "--listen", "127.0.0.1:0",
        "--token-file", tokenFile.toString(), "--instance", "vm1", "--mcp", "--rate-limit-instance", "1/m,burst=3")) {
      String url = limited.awaitStderr("listening on (http://127\\.0\\.0\\.1:\\d+)", 60_000).group(1);
      limited.awaitStderr("MCP \\(Streamable HTTP\\) at", 60_000);
      String token = Files.readString(tokenFile).trim();
      McpSyncClient client = client(url + "/mcp", token);
      try {
        List<CallToolResult> results = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
          results.add(call(client, "tether_send", Map.of("instance", "vm1", "session_id", "flood", "text", "m" + i)));
        }
        assertEquals(3, results.stream().filter(r -> !r.isError()).count(), "the burst, then nothing at 1/m");
        CallToolResult refused = results.get(5);
        assertTrue(refused.isError() && text(refused).contains("RATE_LIMITED") && text(refused).contains("retry after"),
            text(refused));
        HttpResponse<String> post = http.send(HttpRequest.newBuilder(URI.create(url + "/v1/instances/vm1/tether"))
            .timeout(TIMEOUT).header("Authorization", "Bearer " + token).header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString("{\"v\":1,\"type\":\"user.message\",\"session\":{\"channel\":"
                + "\"host\",\"id\":\"flood\"},\"payload\":{\"text\":\"over HTTP\"}}")).build(),
            HttpResponse.BodyHandlers.ofString());
        assertEquals(429, post.statusCode(), "the tools took from the routes' own bucket: " + post.body());
      } finally {
        client.closeGracefully();
      }
    }
  }

  @Test
  void serveMcp_onTheUnixSocket_answersInitialize() throws Exception {
    Path socket = dir.resolve("mcp.sock");
    try (ChildJvm onSocket = ChildJvm.start(dir, "serve-socket", Map.of(), "serve", "--socket", socket.toString(), "--mcp")) {
      onSocket.awaitStderr("MCP \\(Streamable HTTP\\) at", 60_000);
      byte[] body = INITIALIZE.getBytes(StandardCharsets.UTF_8);
      RawSocket.Response r = RawSocket.exchange(new HostAddress.Unix(socket), "POST /mcp HTTP/1.1\r\nHost: localhost\r\n"
          + "Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\nConnection: close\r\n"
          + "Content-Length: " + body.length + "\r\n\r\n" + INITIALIZE);
      assertEquals(200, r.status(), r.headers() + r.body());
      assertTrue(r.headers().toLowerCase().contains("mcp-session-id"), r.headers());
      assertTrue(r.body().contains("\"serverInfo\"") && r.body().contains("\"tether\""), r.body());
    }
  }

  @Test
  void sendStream_onServeWithAgent_reportsPresenceAndDeltasInOrderBeforeTheChartResult() throws Exception {
    for (String[] endpoint : List.of(new String[] {base + "/mcp", hostToken}, new String[] {mcpUrl, mcpToken})) {
      List<ProgressNotification> notes = new CopyOnWriteArrayList<>();
      try (McpSyncClient client = client(endpoint[0], endpoint[1], notes::add)) {
        CallToolResult result = client.callTool(CallToolRequest.builder("tether_send_stream").progressToken("p-1")
            .arguments(Map.of("instance", "default", "session_id", "stream-" + System.nanoTime(),
                "text", "draw a bar chart of 3 5 2")).build());
        // The Java SDK's client hands notifications to consumers concurrently, so they may be seen
        // out of order here; the server numbers them (progress), and the TypeScript client's test
        // checks the order in which they arrive.
        List<ProgressNotification> sorted = notes.stream()
            .sorted(Comparator.comparingDouble(ProgressNotification::progress)).toList();
        List<JsonNode> events = new ArrayList<>();
        for (ProgressNotification n : sorted) {
          assertEquals("p-1", n.progressToken());
          events.add(JSON.readTree(n.message()));
        }
        assertFalse(result.isError(), text(result));
        JsonNode body = JSON.readTree(text(result));
        JsonNode done = body.get("frames").get(0);
        assertEquals("assistant.done", done.get("type").asText(), text(result));
        assertEquals(body.get("msg_id").asText(), done.get("msg_id").asText());
        assertTrue(result.content().stream().anyMatch(c -> c instanceof ImageContent i && i.mimeType().equals("image/png")),
            "the chart is an image item");
        assertFalse(events.isEmpty(), "progress notifications arrived before the result");
        assertEquals("status.presence", events.get(0).get("type").asText(), events.toString());
        assertEquals("thinking", events.get(0).get("state").asText(), events.toString());
        StringBuilder deltas = new StringBuilder();
        events.stream().filter(e -> e.get("type").asText().equals("assistant.delta")).forEach(e -> deltas.append(e.get("text").asText()));
        assertEquals(done.get("payload").get("text").asText(), deltas.toString(), "the deltas, joined, are the answer");
        for (int i = 1; i < sorted.size(); i++) {
          assertTrue(sorted.get(i).progress() > sorted.get(i - 1).progress(), "no two notifications share a progress value");
        }
      }
    }
  }

  @Test
  void sendStream_deadline_answersTimedOutWithTheCursor() throws Exception {
    try (McpSyncClient client = client(base + "/mcp", hostToken)) {
      CallToolResult result = client.callTool(CallToolRequest.builder("tether_send_stream")
          .arguments(Map.of("instance", "vm1", "text", "nobody answers vm1", "wait_ms", 300)).build());
      assertFalse(result.isError(), text(result));
      JsonNode body = JSON.readTree(text(result));
      assertTrue(body.get("timed_out").asBoolean(), text(result));
      assertEquals(0, body.get("frames").size());
      assertTrue(body.get("msg_id").asText().startsWith("host-"), text(result));
      assertTrue(body.get("next_seq").asLong() >= 1, text(result));
    }
  }

  @Test
  void typescriptSdkClient_overStreamableHttp_onServeAndOnTheStandaloneServer() throws Exception {
    Path node = Path.of("..", "tether-mcp", "src", "test", "node");
    assumeTrue(Files.isDirectory(node.resolve("node_modules/@modelcontextprotocol/sdk")),
        "the TypeScript MCP SDK is not installed in " + node.toAbsolutePath()
            + "/node_modules; .ci/run installs it (bash tether-mcp/src/test/node/install.sh)");
    String vm1Token = mint("vm1");
    runNode(node, base + "/mcp", hostToken, vm1Token);
    runNode(node, mcpUrl, mcpToken, null);
  }

  private static void runNode(Path dir, String url, String token, String scopedToken) throws Exception {
    ProcessBuilder pb = new ProcessBuilder("node", "e2e-http.mjs").directory(dir.toFile()).redirectErrorStream(true);
    pb.environment().put("TETHER_MCP_URL", url);
    pb.environment().put("TETHER_MCP_TOKEN", token);
    pb.environment().put("TETHER_MCP_INSTANCE", "default");
    if (scopedToken != null) {
      pb.environment().put("TETHER_MCP_SCOPED_TOKEN", scopedToken);
    }
    Process p = pb.start();
    CompletableFuture<String> out = CompletableFuture.supplyAsync(() -> {
      try {
        return new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      } catch (IOException e) {
        return "(unreadable: " + e + ")";
      }
    });
    if (!p.waitFor(120, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      throw new AssertionError("e2e-http.mjs did not finish within 120 s: " + out.getNow("(no output)"));
    }
    String log = out.get(30, TimeUnit.SECONDS);
    assertEquals(0, p.exitValue(), "e2e-http.mjs against " + url + " failed:\n" + log);
    assertTrue(log.contains("tether MCP HTTP e2e: OK"), log);
  }

  private String mint(String instance) throws Exception {
    return mintWithId(instance).get("token").asText();
  }

  /** A new token of {@code instance}: {@code {id, instance, token, created_at}}. */
  private JsonNode mintWithId(String instance) throws Exception {
    HttpResponse<String> minted = http.send(HttpRequest.newBuilder(URI.create(base + "/v1/tokens"))
        .header("Authorization", "Bearer " + hostToken).header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString("{\"instance\":\"" + instance + "\"}")).build(), HttpResponse.BodyHandlers.ofString());
    assertEquals(201, minted.statusCode(), minted.body());
    return JSON.readTree(minted.body());
  }

  private void upload(String instance, String name, String type, byte[] bytes) throws Exception {
    HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(base + "/v1/instances/" + instance
        + "/attachments?session_id=default&name=" + name)).header("Authorization", "Bearer " + hostToken)
        .header("Content-Type", type).POST(HttpRequest.BodyPublishers.ofByteArray(bytes)).build(), HttpResponse.BodyHandlers.ofString());
    assertEquals(201, r.statusCode(), r.body());
  }

  private static CallToolResult call(McpSyncClient client, String tool, Map<String, Object> args) {
    return client.callTool(CallToolRequest.builder(tool).arguments(args).build());
  }

  private static void assertSendAndRead(McpSyncClient client, String instance) throws Exception {
    List<String> names = client.listTools().tools().stream().map(Tool::name).toList();
    assertTrue(names.containsAll(List.of("tether_send", "tether_read")), names.toString());
    String session = "http-" + System.nanoTime();
    CallToolResult sent = client.callTool(CallToolRequest.builder("tether_send")
        .arguments(Map.of("instance", instance, "session_id", session, "text", "hello over http")).build());
    assertFalse(sent.isError(), text(sent));
    JsonNode receipt = JSON.readTree(text(sent));
    Map<String, Object> args = new HashMap<>(Map.of("instance", instance, "session_id", session,
        "after_seq", receipt.get("ingress_seq").asLong(), "wait_ms", 20_000, "types", List.of("assistant.done"),
        "reply_to_msg_id", receipt.get("msg_id").asText()));
    CallToolResult read = client.callTool(CallToolRequest.builder("tether_read").arguments(args).build());
    assertFalse(read.isError(), text(read));
    JsonNode frames = JSON.readTree(text(read)).get("frames");
    assertEquals(1, frames.size(), text(read));
    assertTrue(frames.get(0).get("payload").get("text").asText().contains("You said: hello over http"), text(read));
  }

  static final String INITIALIZE = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":"
      + "{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"raw\",\"version\":\"1\"}}}";

  private static HttpRequest initialize(String url, String token) {
    return HttpRequest.newBuilder(URI.create(url)).timeout(TIMEOUT).header("Authorization", "Bearer " + token)
        .header("Accept", "application/json, text/event-stream").header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString(INITIALIZE)).build();
  }

  static String text(CallToolResult result) {
    return ((TextContent) result.content().get(0)).text();
  }
}
