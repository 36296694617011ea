package dev.tether.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * An MCP Streamable HTTP session spoken by hand with the JDK's HTTP client, for what the SDK
 * clients hide: {@code initialize}, then the session's SSE stream ({@code GET} with
 * {@code Mcp-Session-Id}) read on a thread of its own, so a test can see when the server ends it.
 */
final class McpRawSession {
  private static final Duration TIMEOUT = Duration.ofSeconds(30);

  private final URI url;
  private final String token;
  private final String sessionId;

  private McpRawSession(URI url, String token, String sessionId) {
    this.url = url;
    this.token = token;
    this.sessionId = sessionId;
  }

  /** Opens a session at {@code url} with {@code token} ({@code initialize} and {@code notifications/initialized}). */
  static McpRawSession open(String url, String token) throws Exception {
    HttpResponse<String> init = client().send(post(URI.create(url), token, null, McpHttpServeTest.INITIALIZE),
        HttpResponse.BodyHandlers.ofString());
    assertEquals(200, init.statusCode(), init.body());
    String id = init.headers().firstValue("Mcp-Session-Id").orElseThrow(() -> new AssertionError("no Mcp-Session-Id: " + init.headers()));
    McpRawSession session = new McpRawSession(URI.create(url), token, id);
    HttpResponse<String> ack = session.post("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
    assertEquals(202, ack.statusCode(), ack.body());
    return session;
  }

  /**
   * Opens the session's SSE stream and waits for its 200; the returned future completes when the
   * server ends the stream (end of body or a reset), never otherwise.
   */
  CompletableFuture<Void> stream() throws Exception {
    HttpResponse<InputStream> r = client().sendAsync(HttpRequest.newBuilder(url).header("Authorization", "Bearer " + token)
        .header("Accept", "text/event-stream").header("Mcp-Session-Id", sessionId).GET().build(),
        HttpResponse.BodyHandlers.ofInputStream()).get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
    assertEquals(200, r.statusCode(), "the SSE stream opens");
    CompletableFuture<Void> ended = new CompletableFuture<>();
    Thread reader = new Thread(() -> {
      try (InputStream in = r.body()) {
        in.transferTo(OutputStream.nullOutputStream());
      } catch (IOException e) {
        // a reset ends the stream as well
      }
      ended.complete(null);
    }, "mcp-sse-reader");
    reader.setDaemon(true);
    reader.start();
    return ended;
  }

  /** POSTs a JSON-RPC message in this session with its token. */
  HttpResponse<String> post(String json) throws Exception {
    return client().send(post(url, token, sessionId, json), HttpResponse.BodyHandlers.ofString());
  }

  private static HttpRequest post(URI url, String token, String sessionId, String json) {
    HttpRequest.Builder b = HttpRequest.newBuilder(url).timeout(TIMEOUT).header("Authorization", "Bearer " + token)
        .header("Accept", "application/json, text/event-stream").header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString(json));
    if (sessionId != null) {
      b.header("Mcp-Session-Id", sessionId);
    }
    return b.build();
  }

  /** A fresh client per call (see {@code McpHttpServeTest}: serve closes connections idle past its header timeout). */
  private static HttpClient client() {
    return HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
  }
}
