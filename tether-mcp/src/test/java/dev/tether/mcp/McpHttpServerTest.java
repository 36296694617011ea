package dev.tether.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tether.client.HostAddress;
import dev.tether.store.MemoryTetherStore;
import dev.tether.store.StoreTetherClient;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.TextContent;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@link McpHttpServer} on a real loopback port, driven by the MCP Java SDK's Streamable HTTP
 * client and by raw HTTP for what a client must not get past (a wrong token, a cross-origin page,
 * a body that is not JSON-RPC).
 */
class McpHttpServerTest {
  private static final String TOKEN = "t".repeat(40);
  private static final Duration TIMEOUT = Duration.ofSeconds(30);
  private static final ObjectMapper JSON = new ObjectMapper();
  private static MemoryTetherStore store;
  private static ScriptedResponder responder;
  private static McpHttpServer http;
  private static final HttpClient RAW = HttpClient.newHttpClient();

  @BeforeAll
  static void start() throws Exception {
    store = MemoryTetherStore.create();
    responder = new ScriptedResponder(store, TestServerMain.INSTANCE);
    TetherMcpServer tools = TetherMcpServer.builder(
        StoreTetherClient.builder(store).knownInstances(Set.of(TestServerMain.INSTANCE)::contains).build()).build();
    http = McpHttpServer.start(tools, new HostAddress.Tcp("127.0.0.1", 0), TOKEN, List.of("http://allowed.example"), false);
  }

  @AfterAll
  static void stop() {
    http.close();
    responder.close();
    store.close();
  }

  static McpSyncClient client(URI url, String token) {
    HttpClientStreamableHttpTransport transport = HttpClientStreamableHttpTransport
        .builder(url.resolve("/").toString()).endpoint(url.getPath())
        .jsonMapper(TetherMcpServer.jsonMapper())
        .requestBuilder(HttpRequest.newBuilder().header("Authorization", "Bearer " + token))
        .build();
    McpSyncClient client = McpClient.sync(transport).requestTimeout(TIMEOUT).build();
    client.initialize();
    return client;
  }

  @Test
  void javaSdkClient_listsToolsThenSendsAndLongPollsTheAnswer() throws Exception {
    try (McpSyncClient client = client(http.url(), TOKEN)) {
      List<String> names = client.listTools().tools().stream().map(Tool::name).toList();
      assertTrue(names.containsAll(List.of("tether_send", "tether_read")), names.toString());
      CallToolResult sent = client.callTool(CallToolRequest.builder("tether_send")
          .arguments(Map.of("instance", TestServerMain.INSTANCE, "session_id", "http", "text", "hello")).build());
      assertFalse(sent.isError(), text(sent));
      JsonNode receipt = JSON.readTree(text(sent));
      CallToolResult read = client.callTool(CallToolRequest.builder("tether_read").arguments(Map.of(
          "instance", TestServerMain.INSTANCE, "session_id", "http", "after_seq", receipt.get("ingress_seq").asLong(),
          "wait_ms", 10_000, "types", List.of("assistant.done"))).build());
      assertFalse(read.isError(), text(read));
      JsonNode frames = JSON.readTree(text(read)).get("frames");
      assertTrue(frames.size() >= 1, text(read));
      assertEquals(ScriptedResponder.FIRST_PREFIX + "hello", frames.get(0).get("payload").get("text").asText());
    }
  }

  @Test
  void wrongToken_isRefused401BeforeAnyMcp() throws Exception {
    HttpResponse<String> r = RAW.send(initialize().header("Authorization", "Bearer " + "x".repeat(40)).build(),
        HttpResponse.BodyHandlers.ofString());
    assertEquals(401, r.statusCode(), r.body());
    assertEquals("Bearer", r.headers().firstValue("WWW-Authenticate").orElse(""));
    assertTrue(r.body().contains("UNAUTHORIZED"), r.body());
    HttpResponse<String> none = RAW.send(initialize().build(), HttpResponse.BodyHandlers.ofString());
    assertEquals(401, none.statusCode());
    assertThrows(RuntimeException.class, () -> client(http.url(), "y".repeat(40)).close());
  }

  @Test
  void crossOriginBrowserRequest_isRefused403_listedOriginPasses() throws Exception {
    HttpResponse<String> evil = RAW.send(initialize().header("Authorization", "Bearer " + TOKEN)
        .header("Origin", "http://evil.example").build(), HttpResponse.BodyHandlers.ofString());
    assertEquals(403, evil.statusCode(), evil.body());
    assertTrue(evil.body().contains("PERMISSION_DENIED") && evil.body().contains("evil.example"), evil.body());
    HttpResponse<String> ok = RAW.send(initialize().header("Authorization", "Bearer " + TOKEN)
        .header("Origin", "http://allowed.example").build(), HttpResponse.BodyHandlers.ofString());
    assertEquals(200, ok.statusCode(), ok.body());
    assertTrue(ok.headers().firstValue("Mcp-Session-Id").isPresent());
  }

  @Test
  void foreignOrigin_isRefused403_onEveryMethod_andTheOpaqueNullOriginToo() throws Exception {
    // DNS rebinding reaches any method: the SSE GET and the session DELETE are checked as POST is.
    for (String origin : List.of("http://evil.example", "null", "http://allowed.example.evil.example", "https://allowed.example")) {
      for (String method : List.of("GET", "DELETE", "POST")) {
        HttpRequest.Builder b = method.equals("POST") ? initialize()
            : post().method(method, HttpRequest.BodyPublishers.noBody()).header("Mcp-Session-Id", "any");
        HttpRequest request = b.header("Authorization", "Bearer " + TOKEN).header("Origin", origin).build();
        // A client per request: the server may close a connection after refusing on it.
        HttpResponse<String> r = HttpClient.newHttpClient().send(request, HttpResponse.BodyHandlers.ofString());
        assertEquals(403, r.statusCode(), method + " from " + origin + ": " + r.body());
        assertTrue(r.body().contains("PERMISSION_DENIED"), r.body());
      }
    }
    HttpResponse<String> upper = HttpClient.newHttpClient().send(initialize().header("Authorization", "Bearer " + TOKEN)
        .header("Origin", "HTTP://Allowed.Example").build(), HttpResponse.BodyHandlers.ofString());
    assertEquals(200, upper.statusCode(), "origins compare case-insensitively: " + upper.body());
  }

  @Test
  void bodyThatIsNotJsonRpc_isAnswered4xxAndTheServerKeepsServing() throws Exception {
    for (String body : List.of("", "not json", "{\"jsonrpc\":\"2.0\"", "[" + "[".repeat(5000), "{\"jsonrpc\":\"2.0\",\"id\":1}")) {
      HttpResponse<String> r = RAW.send(post().header("Authorization", "Bearer " + TOKEN)
          .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
      assertTrue(r.statusCode() >= 400 && r.statusCode() < 500, r.statusCode() + " for '" + body.substring(0, Math.min(20, body.length())) + "': " + r.body());
    }
    try (McpSyncClient client = client(http.url(), TOKEN)) {
      assertFalse(client.listTools().tools().isEmpty());
    }
  }

  @Test
  void otherPaths_areNotFound() throws Exception {
    HttpResponse<String> r = RAW.send(HttpRequest.newBuilder(http.url().resolve("/other"))
        .header("Authorization", "Bearer " + TOKEN).GET().build(), HttpResponse.BodyHandlers.ofString());
    assertEquals(404, r.statusCode());
  }

  private static HttpRequest.Builder post() {
    return HttpRequest.newBuilder(http.url()).timeout(TIMEOUT)
        .header("Content-Type", "application/json").header("Accept", "application/json, text/event-stream");
  }

  private static HttpRequest.Builder initialize() {
    return post().POST(HttpRequest.BodyPublishers.ofString("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":"
        + "{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"raw\",\"version\":\"1\"}}}"));
  }

  static String text(CallToolResult result) {
    return ((TextContent) result.content().get(0)).text();
  }
}
