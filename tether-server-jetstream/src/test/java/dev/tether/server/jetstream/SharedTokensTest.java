package dev.tether.server.jetstream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tether.client.HostAddress;
import dev.tether.server.TetherServer;
import dev.tether.server.testing.StreamWatcher;
import dev.tether.store.jetstream.testing.NatsServer;
import io.nats.client.Connection;
import io.nats.client.KeyValue;
import io.nats.client.Nats;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.HexFormat;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 32: instance tokens live in the shared registry. Two embedded servers on one real
 * nats-server: a token minted on A opens its instance on B; revoked on B, it is refused on A within
 * about a second and its open stream on A ends; a restarted host keeps the tokens; an instance
 * deleted and re-created on B refuses the old token on A. The bucket holds hashes, never secrets,
 * and a malformed entry in it is ignored.
 */
class SharedTokensTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String HOST_TOKEN = "host-token-0123456789abcdef0123456789abcdef";

  @TempDir Path dir;
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

  @Test
  void aTokenMintedOnA_opensB_revokedOnB_endsOnA_survivesRestarts_andDiesWithItsInstance() throws Exception {
    NatsServer.binary();
    try (NatsServer nats = NatsServer.single(dir.resolve("nats"))) {
      TetherServer a = start(nats, "a");
      try (TetherServer b = start(nats, "b")) {
        String onA = base(a);
        String onB = base(b);
        JsonNode minted = mint(onA, "vm1");
        String token = minted.get("token").asText();
        assertEquals(200, send(onB, "GET", "/v1/instances/vm1/tether/poll", null, token).statusCode(), "minted on A, valid on B");
        assertEquals(1, JSON.readTree(send(onB, "GET", "/v1/tokens", null, HOST_TOKEN).body()).size());
        assertOnlyHashesStored(nats, token);

        StreamWatcher stream = StreamWatcher.open(onA, "vm1", token);
        post(onB, "vm1", "before");
        assertTrue(stream.nextFrame(10_000).contains("before"), "the stream on A is open and delivers");
        long revoked = System.nanoTime();
        assertEquals(200, send(onB, "DELETE", "/v1/tokens/" + minted.get("id").asText(), null, HOST_TOKEN).statusCode());
        String rest = stream.drain(5_000);
        assertTrue(rest.endsWith(StreamWatcher.EOF), "the stream on A ended: " + rest);
        assertTrue(elapsedMs(revoked) < 1_500, "within about a second: " + elapsedMs(revoked) + " ms");
        assertEquals(401, send(onA, "GET", "/v1/instances/vm1/tether/poll", null, token).statusCode(), "refused on A");

        for (String hostile : new String[] {"%3E", "tok-*", "a.b", "x".repeat(300), "tok-nosuch"}) {
          assertEquals(404, send(onB, "DELETE", "/v1/tokens/" + hostile, null, HOST_TOKEN).statusCode(), hostile);
        }
        assertEquals(401, send(onB, "GET", "/v1/instances/vm1/tether/poll", null, "tti_" + "A".repeat(43)).statusCode());

        String kept = mint(onB, "vm1").get("token").asText();
        a.close();
        a = start(nats, "a");
        onA = base(a);
        assertEquals(200, send(onA, "GET", "/v1/instances/vm1/tether/poll", null, kept).statusCode(), "kept across a restart");

        StreamWatcher second = StreamWatcher.open(onA, "vm1", kept);
        post(onB, "vm1", "again");
        assertTrue(second.nextFrame(10_000).contains("again"));
        long deleted = System.nanoTime();
        assertEquals(200, send(onB, "DELETE", "/v1/instances/vm1", null, HOST_TOKEN).statusCode());
        assertTrue(second.drain(5_000).endsWith(StreamWatcher.EOF), "the stream on A ended with its instance");
        assertTrue(elapsedMs(deleted) < 1_500, "within about a second: " + elapsedMs(deleted) + " ms");
        assertEquals(201, send(onB, "PUT", "/v1/instances/vm1", "", HOST_TOKEN).statusCode());
        post(onB, "vm1", "the new tenant");
        assertEquals(401, send(onA, "GET", "/v1/instances/vm1/tether/poll?after_seq=0", null, kept).statusCode(),
            "the re-created id does not take the old token on A");
        assertEquals(401, send(onB, "GET", "/v1/instances/vm1/tether/poll?after_seq=0", null, kept).statusCode());
        assertEquals(0, JSON.readTree(send(onA, "GET", "/v1/tokens", null, HOST_TOKEN).body()).size());
      } finally {
        a.close();
      }
    }
  }

  /** What the bucket holds: the hash of the secret, never the secret; a malformed entry is ignored by every host. */
  private static void assertOnlyHashesStored(NatsServer nats, String token) throws Exception {
    try (Connection nc = Nats.connect(nats.url())) {
      KeyValue kv = nc.keyValue("TETHER_TOKENS");
      String sha = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.UTF_8)));
      boolean found = false;
      for (String key : kv.keys()) {
        String value = new String(kv.get(key).getValue(), StandardCharsets.UTF_8);
        assertFalse(value.contains(token.substring(4)), "no secret in the bucket: " + value);
        found |= value.contains(sha);
      }
      assertTrue(found, "the hash is stored");
      kv.put("tok-junk", "{not json".getBytes(StandardCharsets.UTF_8));
      kv.put("tok-junk2", "{\"sha256\":\"x\",\"instance\":\"vm1\"}".getBytes(StandardCharsets.UTF_8));
    }
  }

  private TetherServer start(NatsServer nats, String name) throws Exception {
    return TetherServer.builder().listen(new HostAddress.Tcp("127.0.0.1", 0)).token(HOST_TOKEN).workspaces(dir.resolve("ws-" + name))
        .instance("vm1").shared(JetStreamShared.on(nats.url())).start();
  }

  private static String base(TetherServer s) {
    HostAddress.Tcp t = (HostAddress.Tcp) s.boundAddress();
    return "http://" + t.host() + ":" + t.port();
  }

  private JsonNode mint(String base, String instance) throws Exception {
    HttpResponse<String> r = send(base, "POST", "/v1/tokens", "{\"instance\":\"" + instance + "\"}", HOST_TOKEN);
    assertEquals(201, r.statusCode(), r.body());
    return JSON.readTree(r.body());
  }

  private void post(String base, String instance, String text) throws Exception {
    String frame = "{\"v\":1,\"type\":\"user.message\",\"session\":{\"channel\":\"host\",\"id\":\"s\"},\"payload\":{\"text\":\""
        + text + "\"}}";
    HttpResponse<String> r = send(base, "POST", "/v1/instances/" + instance + "/tether", frame, HOST_TOKEN);
    assertEquals(202, r.statusCode(), r.body());
  }

  private HttpResponse<String> send(String base, String method, String path, String body, String token) throws Exception {
    HttpRequest req = HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(30))
        .header("Authorization", "Bearer " + token).header("Content-Type", "application/json")
        .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body)).build();
    return http.send(req, HttpResponse.BodyHandlers.ofString());
  }

  private static long elapsedMs(long since) {
    return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - since);
  }
}
