package dev.tether.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 31: a revoked token kept its open {@code /tether/stream} (it delivered frames posted after
 * {@code tether token revoke}) and its pending long-poll returned a page. Against a real
 * {@code serve --listen}: revoking ends the stream and answers the wait 401 within about a second,
 * and nothing posted after the revoke reaches the stream; deleting the instance does the same for
 * everything on it, and a re-created id does not take the old token.
 */
class RevocationServeTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String EOF = "\u0000eof";

  @TempDir Path dir;
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
  private String base;
  private String hostToken;

  @Test
  void revokingEndsTheTokensStreamAndAnswersItsWait401() throws Exception {
    try (ChildJvm serve = start()) {
      JsonNode minted = mint("vm1");
      String token = minted.get("token").asText();
      BlockingQueue<String> stream = openStream("vm1", token);
      post("vm1", "before");
      assertTrue(nextFrame(stream, 10_000).contains("before"), "the stream is open and delivers");
      CompletableFuture<HttpResponse<String>> wait = longPoll("vm1", token);
      Thread.sleep(300); // both are waiting in the server now

      long revoked = System.nanoTime();
      HttpResponse<String> r = send("DELETE", "/v1/tokens/" + minted.get("id").asText(), null, hostToken);
      assertEquals(200, r.statusCode(), r.body());
      post("vm1", "after the revoke");

      HttpResponse<String> answered = wait.get(5, TimeUnit.SECONDS);
      assertEquals(401, answered.statusCode(), answered.body());
      assertEquals("UNAUTHORIZED", JSON.readTree(answered.body()).path("error").path("code").asText(), answered.body());
      assertTrue(elapsedMs(revoked) < 1_500, "the wait was answered within a second or so: " + elapsedMs(revoked) + " ms");
      String rest = drain(stream, 5_000);
      assertTrue(rest.endsWith(EOF), "the stream ended: " + rest);
      assertTrue(elapsedMs(revoked) < 2_000, "the stream ended within a second or so: " + elapsedMs(revoked) + " ms");
      assertFalse(rest.contains("after the revoke"), "nothing posted after the revoke was delivered: " + rest);
      assertEquals(401, send("GET", "/v1/instances/vm1/tether/poll", null, token).statusCode());
    }
  }

  @Test
  void deletingTheInstanceEndsItsStreamsAndWaits_andARecreatedIdRefusesTheOldToken() throws Exception {
    try (ChildJvm serve = start()) {
      String token = mint("vm1").get("token").asText();
      BlockingQueue<String> stream = openStream("vm1", token);
      post("vm1", "before");
      assertTrue(nextFrame(stream, 10_000).contains("before"));
      CompletableFuture<HttpResponse<String>> wait = longPoll("vm1", token);
      Thread.sleep(300);

      long deleted = System.nanoTime();
      HttpResponse<String> r = send("DELETE", "/v1/instances/vm1", null, hostToken);
      assertEquals(200, r.statusCode(), r.body());
      HttpResponse<String> answered = wait.get(5, TimeUnit.SECONDS);
      assertTrue(answered.statusCode() == 404 || answered.statusCode() == 401, answered.statusCode() + " " + answered.body());
      String rest = drain(stream, 5_000);
      assertTrue(rest.endsWith(EOF), "the stream ended: " + rest);
      assertTrue(elapsedMs(deleted) < 2_000, "within a second or so: " + elapsedMs(deleted) + " ms");

      assertEquals(201, send("PUT", "/v1/instances/vm1", "", hostToken).statusCode());
      post("vm1", "to the new vm1");
      assertEquals(401, send("GET", "/v1/instances/vm1/tether/poll?after_seq=0", null, token).statusCode(),
          "the old token does not open the re-created instance");
      JsonNode tokens = JSON.readTree(send("GET", "/v1/tokens", null, hostToken).body());
      assertEquals(0, tokens.size(), "the re-created id starts with no tokens: " + tokens);
    }
  }

  private ChildJvm start() throws Exception {
    Path tokenFile = dir.resolve("host-token");
    ChildJvm serve = ChildJvm.start(dir, "serve", Map.of(), "serve", "--listen", "127.0.0.1:0", "--token-file",
        tokenFile.toString(), "--instance", "vm1", "--data-dir", dir.resolve("data").toString());
    base = "http://" + serve.awaitStderr("listening on http://(127\\.0\\.0\\.1:\\d+)", 60_000).group(1);
    hostToken = Files.readString(tokenFile).trim();
    return serve;
  }

  private JsonNode mint(String instance) throws Exception {
    HttpResponse<String> r = send("POST", "/v1/tokens", "{\"instance\":\"" + instance + "\"}", hostToken);
    assertEquals(201, r.statusCode(), r.body());
    return JSON.readTree(r.body());
  }

  private void post(String instance, String text) throws Exception {
    String frame = "{\"v\":1,\"type\":\"user.message\",\"session\":{\"channel\":\"host\",\"id\":\"s\"},\"payload\":{\"text\":\""
        + text + "\"}}";
    HttpResponse<String> r = send("POST", "/v1/instances/" + instance + "/tether", frame, hostToken);
    assertEquals(202, r.statusCode(), r.body());
  }

  private CompletableFuture<HttpResponse<String>> longPoll(String instance, String token) {
    return http.sendAsync(request("GET", "/v1/instances/" + instance + "/tether/poll?channel=*&session_id=*&after_seq=1&wait_ms=30000",
        null, token), HttpResponse.BodyHandlers.ofString());
  }

  private HttpResponse<String> send(String method, String path, String body, String token) throws Exception {
    return http.send(request(method, path, body, token), HttpResponse.BodyHandlers.ofString());
  }

  private HttpRequest request(String method, String path, String body, String token) {
    return HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(60))
        .header("Authorization", "Bearer " + token).header("Content-Type", "application/json")
        .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body)).build();
  }

  /** Opens a stream on a plain socket; its lines (chunk sizes and frames alike) go to the queue, then {@link #EOF}. */
  private BlockingQueue<String> openStream(String instance, String token) throws Exception {
    URI u = URI.create(base);
    Socket socket = new Socket(u.getHost(), u.getPort());
    OutputStream out = socket.getOutputStream();
    out.write(("GET /v1/instances/" + instance + "/tether/stream?channel=*&session_id=* HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer "
        + token + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
    out.flush();
    BufferedReader in = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8));
    String status = in.readLine();
    assertTrue(status != null && status.contains(" 200 "), "stream status: " + status);
    BlockingQueue<String> lines = new LinkedBlockingQueue<>();
    Thread reader = new Thread(() -> {
      try (socket) {
        String line;
        while ((line = in.readLine()) != null) {
          lines.add(line);
          if (line.equals("0")) {
            break; // the last chunk: the stream ended
          }
        }
      } catch (Exception e) {
        // reset: ended too
      }
      lines.add(EOF);
    }, "stream-reader");
    reader.setDaemon(true);
    reader.start();
    return lines;
  }

  private static String nextFrame(BlockingQueue<String> lines, long timeoutMs) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
    while (System.nanoTime() < deadline) {
      String line = lines.poll(100, TimeUnit.MILLISECONDS);
      if (line != null && line.startsWith("{")) {
        return line;
      }
      if (EOF.equals(line)) {
        throw new AssertionError("the stream ended");
      }
    }
    throw new AssertionError("no frame within " + timeoutMs + " ms");
  }

  /** Everything the stream still sends within {@code timeoutMs}, ending with {@link #EOF} when it ended. */
  private static String drain(BlockingQueue<String> lines, long timeoutMs) throws Exception {
    StringBuilder all = new StringBuilder();
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
    while (System.nanoTime() < deadline) {
      String line = lines.poll(50, TimeUnit.MILLISECONDS);
      if (line != null) {
        all.append(line).append('\n');
        if (EOF.equals(line)) {
          return all.toString().strip();
        }
      }
    }
    return all.toString().strip();
  }

  private static long elapsedMs(long since) {
    return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - since);
  }
}
