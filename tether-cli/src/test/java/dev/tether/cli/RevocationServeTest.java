package dev.tether.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tether.server.testing.StreamWatcher;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
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

  @TempDir Path dir;
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
  private String base;
  private String hostToken;

  @Test
  void revokingEndsTheTokensStreamAndAnswersItsWait401() throws Exception {
    try (ChildJvm serve = start()) {
      JsonNode minted = mint("vm1");
      String token = minted.get("token").asText();
      StreamWatcher stream = StreamWatcher.open(base, "vm1", token);
      post("vm1", "before");
      assertTrue(stream.nextFrame(10_000).contains("before"), "the stream is open and delivers");
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
      String rest = stream.drain(5_000);
      assertTrue(rest.endsWith(StreamWatcher.EOF), "the stream ended: " + rest);
      assertTrue(elapsedMs(revoked) < 2_000, "the stream ended within a second or so: " + elapsedMs(revoked) + " ms");
      assertFalse(rest.contains("after the revoke"), "nothing posted after the revoke was delivered: " + rest);
      assertEquals(401, send("GET", "/v1/instances/vm1/tether/poll", null, token).statusCode());
    }
  }

  @Test
  void deletingTheInstanceEndsItsStreamsAndWaits_andARecreatedIdRefusesTheOldToken() throws Exception {
    try (ChildJvm serve = start()) {
      String token = mint("vm1").get("token").asText();
      StreamWatcher stream = StreamWatcher.open(base, "vm1", token);
      post("vm1", "before");
      assertTrue(stream.nextFrame(10_000).contains("before"));
      CompletableFuture<HttpResponse<String>> wait = longPoll("vm1", token);
      Thread.sleep(300);

      long deleted = System.nanoTime();
      HttpResponse<String> r = send("DELETE", "/v1/instances/vm1", null, hostToken);
      assertEquals(200, r.statusCode(), r.body());
      HttpResponse<String> answered = wait.get(5, TimeUnit.SECONDS);
      assertTrue(answered.statusCode() == 404 || answered.statusCode() == 401, answered.statusCode() + " " + answered.body());
      String rest = stream.drain(5_000);
      assertTrue(rest.endsWith(StreamWatcher.EOF), "the stream ended: " + rest);
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

  private static long elapsedMs(long since) {
    return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - since);
  }
}
