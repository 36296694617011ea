package dev.tether.server.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tether.api.ErrorCode;
import dev.tether.api.SessionKey;
import dev.tether.api.TetherException;
import dev.tether.client.AttachmentClient;
import dev.tether.client.HostAddress;
import dev.tether.client.TetherClient;
import dev.tether.server.RateLimit;
import dev.tether.server.TetherServer;
import dev.tether.server.testing.Fixtures;
import dev.tether.store.MemoryTetherStore;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Ingress rate limits on a real server on 127.0.0.1: a flood into one instance is answered 429
 * {@code RATE_LIMITED} with {@code Retry-After} past the burst and stores nothing it refused; a
 * request after the named wait is admitted; an instance token has its own bucket (the host and
 * other tokens are not held to it); blob and attachment uploads count, reads do not; 0 turns a
 * limit off.
 */
class RateLimitHttpTest {
  private static final String HOST_TOKEN = "h".repeat(40);

  @TempDir Path dir;
  private TetherServer server;
  private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
      .connectTimeout(Duration.ofSeconds(10)).build();

  private TetherServer start(RateLimit perInstance, RateLimit perToken) throws Exception {
    server = TetherServer.builder().listen(new HostAddress.Tcp("127.0.0.1", 0)).token(HOST_TOKEN)
        .store(MemoryTetherStore.create()).workspaces(dir.resolve("ws")).attachmentsDirectory(dir.resolve("att"))
        .instance("vm1").instance("vm2").rateLimitPerInstance(perInstance).rateLimitPerToken(perToken).start();
    return server;
  }

  @AfterEach
  void stop() {
    if (server != null) {
      server.close();
    }
  }

  private URI uri(String path) {
    HostAddress.Tcp a = (HostAddress.Tcp) server.boundAddress();
    return URI.create("http://127.0.0.1:" + a.port() + path);
  }

  private CompletableFuture<HttpResponse<String>> post(String path, String token, String type, byte[] body) {
    return http.sendAsync(HttpRequest.newBuilder(uri(path)).header("Authorization", "Bearer " + token)
        .header("Content-Type", type).timeout(Duration.ofSeconds(30)).POST(HttpRequest.BodyPublishers.ofByteArray(body))
        .build(), HttpResponse.BodyHandlers.ofString());
  }

  private HttpResponse<String> send(String instance, String token, String text) throws Exception {
    return post("/v1/instances/" + instance + "/tether", token, "application/json", frame(text)).get(30, TimeUnit.SECONDS);
  }

  private HttpResponse<String> get(String path, String token) throws Exception {
    return http.send(HttpRequest.newBuilder(uri(path)).header("Authorization", "Bearer " + token)
        .timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
  }

  private static byte[] frame(String text) {
    return Fixtures.utf8("{\"v\":1,\"type\":\"user.message\",\"session\":{\"channel\":\"host\",\"id\":\"s\"},"
        + "\"payload\":{\"text\":\"" + text + "\"}}");
  }

  private static JsonNode json(HttpResponse<String> r) throws Exception {
    return Json.MAPPER.readTree(r.body());
  }

  private String mint(String instance) throws Exception {
    HttpResponse<String> r = post("/v1/tokens", HOST_TOKEN, "application/json",
        Fixtures.utf8("{\"instance\":\"" + instance + "\"}")).get(30, TimeUnit.SECONDS);
    assertEquals(201, r.statusCode(), r.body());
    return json(r).get("token").asText();
  }

  private static void assertRateLimited(HttpResponse<String> r) throws Exception {
    assertEquals(429, r.statusCode(), r.body());
    assertEquals("RATE_LIMITED", json(r).path("error").path("code").asText(), r.body());
    long retryAfter = Long.parseLong(r.headers().firstValue("Retry-After").orElseThrow());
    assertTrue(retryAfter >= 1 && retryAfter <= 60, "Retry-After in whole seconds: " + retryAfter);
  }

  @Test
  void aFloodIntoOneInstance_is429PastTheBurst_withRetryAfter_storesOnlyWhatItAdmitted_andAdmitsAfterTheWait() throws Exception {
    start(new RateLimit(1, 5), RateLimit.OFF);
    assertTrue(server.describeLimits().contains("ingress rate per instance 1/s (burst 5), per token off"),
        server.describeLimits());
    long began = System.nanoTime();
    List<CompletableFuture<HttpResponse<String>>> flood = new ArrayList<>();
    for (int i = 0; i < 40; i++) {
      flood.add(post("/v1/instances/vm1/tether", HOST_TOKEN, "application/json", frame("m" + i)));
    }
    int accepted = 0;
    HttpResponse<String> refused = null;
    for (CompletableFuture<HttpResponse<String>> f : flood) {
      HttpResponse<String> r = f.get(30, TimeUnit.SECONDS);
      if (r.statusCode() == 202) {
        accepted++;
      } else {
        assertRateLimited(r);
        refused = r;
      }
    }
    long seconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - began);
    assertTrue(accepted >= 5 && accepted <= 5 + seconds + 1, accepted + " admitted in " + seconds + " s at 1/s, burst 5");
    assertTrue(json(refused).path("error").path("message").asText().contains("vm1"), refused.body());
    JsonNode page = json(get("/v1/instances/vm1/tether/poll?after_seq=0&wait_ms=0&limit=200", HOST_TOKEN));
    assertEquals(accepted, page.path("frames").size(), "a refused frame is never stored");

    assertEquals(202, send("vm2", HOST_TOKEN, "other instance").statusCode(), "each instance has its own bucket");
    assertEquals(200, get("/v1/instances/vm1/tether/poll?after_seq=0&wait_ms=0", HOST_TOKEN).statusCode(),
        "reads are not ingress");
    HttpResponse<String> again = send("vm1", HOST_TOKEN, "too soon");
    assertRateLimited(again);
    Thread.sleep(TimeUnit.SECONDS.toMillis(Long.parseLong(again.headers().firstValue("Retry-After").orElseThrow())));
    assertEquals(202, send("vm1", HOST_TOKEN, "after the wait").statusCode(), "admitted after the Retry-After");
  }

  @Test
  void anInstanceToken_hasItsOwnBucket_theHostAndOtherTokensAreNotHeldToIt() throws Exception {
    start(RateLimit.OFF, new RateLimit(0.1, 3));
    String a = mint("vm1");
    String b = mint("vm1");
    for (int i = 0; i < 3; i++) {
      assertEquals(202, send("vm1", a, "a" + i).statusCode());
    }
    assertRateLimited(send("vm1", a, "a3"));
    assertEquals(202, send("vm1", b, "b0").statusCode(), "another token of the same instance");
    for (int i = 0; i < 20; i++) {
      assertEquals(202, send("vm1", HOST_TOKEN, "host" + i).statusCode(), "the host token is held to the instance's rate only");
    }
    HttpResponse<String> r = send("vm1", a, "a4");
    assertRateLimited(r);
    assertTrue(Long.parseLong(r.headers().firstValue("Retry-After").orElseThrow()) >= 9, "0.1/s: about 10 s: " + r.headers());
  }

  @Test
  void blobAndAttachmentUploadsCount_againstTheSameBucket() throws Exception {
    start(new RateLimit(0.1, 2), RateLimit.OFF);
    byte[] png = Fixtures.picture("png", 4, 4);
    assertEquals(200, post("/v1/instances/vm1/blob", HOST_TOKEN, "image/png", png).get(30, TimeUnit.SECONDS).statusCode());
    HttpResponse<String> attached = post("/v1/instances/vm1/attachments?session_id=s&name=a.txt", HOST_TOKEN, "text/plain",
        Fixtures.utf8("hello")).get(30, TimeUnit.SECONDS);
    assertTrue(attached.statusCode() / 100 == 2, attached.body());
    assertRateLimited(post("/v1/instances/vm1/blob", HOST_TOKEN, "image/png", png).get(30, TimeUnit.SECONDS));
    assertRateLimited(post("/v1/instances/vm1/attachments?session_id=s&name=b.txt", HOST_TOKEN, "text/plain",
        Fixtures.utf8("hello")).get(30, TimeUnit.SECONDS));
    // A large refused body is discarded, and the connection stays usable for the answer.
    assertRateLimited(post("/v1/instances/vm1/tether", HOST_TOKEN, "application/json", new byte[2 << 20]).get(30, TimeUnit.SECONDS));
    assertEquals(200, get("/v1/instances/vm1/attachments?session_id=s", HOST_TOKEN).statusCode(), "a read is not ingress");
  }

  @Test
  void bothLimitsOff_admitAFlood() throws Exception {
    start(RateLimit.OFF, RateLimit.OFF);
    String token = mint("vm1");
    for (int i = 0; i < 40; i++) {
      assertEquals(202, send("vm1", i % 2 == 0 ? token : HOST_TOKEN, "m" + i).statusCode());
    }
  }

  @Test
  void aMountedHandlersClient_isHeldToTheInstancesRate_inTheRoutesBuckets_theDaemonsOwnClientIsNot() throws Exception {
    AtomicReference<TetherClient> mounted = new AtomicReference<>();
    server = TetherServer.builder().listen(new HostAddress.Tcp("127.0.0.1", 0)).token(HOST_TOKEN)
        .store(MemoryTetherStore.create()).workspaces(dir.resolve("ws")).attachmentsDirectory(dir.resolve("att"))
        .instance("vm1").instance("vm2").rateLimitPerInstance(new RateLimit(0.05, 3)).rateLimitPerToken(RateLimit.OFF)
        .mount("/tools", client -> {
          mounted.set(client);
          return new Handler.Abstract() {
            @Override
            public boolean handle(Request request, Response response, Callback callback) {
              return false;
            }
          };
        }).start();
    TetherClient tools = mounted.get();
    for (int i = 0; i < 3; i++) {
      tools.send("vm1", Fixtures.userMessage("s", "m" + i)).get(30, TimeUnit.SECONDS);
    }
    ExecutionException e = assertThrows(ExecutionException.class,
        () -> tools.send("vm1", Fixtures.userMessage("s", "past the burst")).get(30, TimeUnit.SECONDS));
    TetherException refused = assertInstanceOf(TetherException.class, e.getCause());
    assertEquals(ErrorCode.RATE_LIMITED, refused.code());
    assertTrue(refused.getMessage().contains("vm1") && refused.getMessage().contains("retry after"), refused.getMessage());
    ExecutionException upload = assertThrows(ExecutionException.class, () -> ((AttachmentClient) tools)
        .putAttachment("vm1", SessionKey.host("s"), "a.txt", "text/plain", Fixtures.utf8("hi")).get(30, TimeUnit.SECONDS));
    assertEquals(ErrorCode.RATE_LIMITED, ((TetherException) upload.getCause()).code(), "an upload is ingress too");
    assertRateLimited(send("vm1", HOST_TOKEN, "over HTTP"));  // the same bucket as the routes'

    tools.send("vm2", Fixtures.userMessage("s", "other instance")).get(30, TimeUnit.SECONDS);
    TetherClient own = server.localClient();
    for (int i = 0; i < 10; i++) {
      own.send("vm1", Fixtures.userMessage("s", "agent " + i)).get(30, TimeUnit.SECONDS);
    }
    JsonNode page = json(get("/v1/instances/vm1/tether/poll?after_seq=0&wait_ms=0&limit=200", HOST_TOKEN));
    assertEquals(13, page.path("frames").size(), "three through the mount and ten from the daemon's own client; no refused one");
  }
}
