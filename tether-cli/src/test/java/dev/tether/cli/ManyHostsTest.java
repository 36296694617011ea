package dev.tether.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tether.api.Frame;
import dev.tether.api.Image;
import dev.tether.api.Payload;
import dev.tether.client.FramePage;
import dev.tether.client.HostAddress;
import dev.tether.client.http.HttpTetherClient;
import dev.tether.server.testing.Fixtures;
import dev.tether.server.testing.RawHttp;
import dev.tether.store.jetstream.testing.NatsServer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Base64;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 21, as a user runs it: two {@code serve --nats} processes on one NATS server, without
 * {@code --auto-create}, share one registry, watermarks and blobs, and the ring caps bound the
 * stream ({@code --ring-max-frames 5}).
 */
class ManyHostsTest {
  @TempDir static Path dir;
  static NatsServer nats;
  static ChildJvm serveA;
  static ChildJvm serveB;
  static RawHttp a;
  static RawHttp b;

  @BeforeAll
  static void start() throws Exception {
    NatsServer.binary();
    nats = NatsServer.single(dir.resolve("nats"));
    serveA = serve("a");
    serveB = serve("b");
    a = new RawHttp(new HostAddress.Unix(dir.resolve("a.sock")));
    b = new RawHttp(new HostAddress.Unix(dir.resolve("b.sock")));
  }

  static ChildJvm serve(String name) throws Exception {
    ChildJvm serve = ChildJvm.start(dir, "serve-" + name, Map.of(), "serve", "--socket", dir.resolve(name + ".sock").toString(),
        "--nats", nats.url(), "--ring-max-frames", "5", "--workspaces", dir.resolve("ws-" + name).toString());
    serve.awaitStderr("listening on", 60_000);
    return serve;
  }

  @AfterAll
  static void stop() {
    for (AutoCloseable c : new AutoCloseable[] {a, b, serveA, serveB, nats}) {
      try {
        if (c != null) {
          c.close();
        }
      } catch (Exception ignored) {
        // best effort
      }
    }
  }

  @Test
  void putOnOneHost_isKnownOnTheOther_deleteOnTheOther_isGoneOnTheFirst() throws Exception {
    assertEquals(404, b.get("/v1/instances/vm1").status(), "not registered anywhere yet");
    assertEquals(201, a.send("PUT", "/v1/instances/vm1", null, new byte[0]).status());
    assertEquals(200, awaitStatus(b, "/v1/instances/vm1", 200), "registered on A, known on B");
    RawHttp.Reply sent = a.post("/v1/instances/vm1/tether", Fixtures.wire(Fixtures.userMessage("s", "hello from A")));
    assertEquals(202, sent.status(), sent.body());
    JsonNode page = b.get("/v1/instances/vm1/tether/poll").json();
    assertEquals(1, page.get("frames").size(), page.toString());
    assertEquals(200, a.post("/v1/instances/vm1/tether/watermark?channel=gw", "{\"seq\":1}".getBytes(StandardCharsets.UTF_8)).status());
    assertEquals(1, b.get("/v1/instances/vm1/tether/watermark?channel=gw").json().get("seq").asLong(), "a watermark moves with the gateway");
    assertEquals(200, b.method("DELETE", "/v1/instances/vm1").status());
    assertEquals(404, awaitStatus(a, "/v1/instances/vm1", 404), "deleted on B, gone on A");
    assertEquals(404, a.post("/v1/instances/vm1/tether", Fixtures.wire(Fixtures.userMessage("s", "x"))).status());
  }

  @Test
  void imageSentInlineOnA_isReadByteIdenticalOnB_andABlobUploadedOnA_isAcceptedOnB() throws Exception {
    assertEquals(201, a.send("PUT", "/v1/instances/vm2", null, new byte[0]).status());
    awaitStatus(b, "/v1/instances/vm2", 200);
    Image png = Fixtures.png(300, 300);
    assertEquals(202, a.post("/v1/instances/vm2/tether", Fixtures.wire(Fixtures.userMessage("s", "look", png))).status());
    try (HttpTetherClient onB = Clients.of(new HostAddress.Unix(dir.resolve("b.sock")), null)) {
      FramePage page = Clients.poll(onB, "vm2", "host", "s", 0, 0, 0, null, null).get(60, TimeUnit.SECONDS);
      Frame f = page.frames().get(0);
      Image back = ((Payload.UserMessage) f.payloadView()).images().get(0);
      assertArrayEquals(Base64.getDecoder().decode(png.data()), Base64.getDecoder().decode(back.data()), "the same bytes on B");

      byte[] upload = Fixtures.picture("png", 7, 5);
      RawHttp.Reply stored = a.send("POST", "/v1/instances/vm2/blob", "image/png", upload);
      assertEquals(200, stored.status(), stored.body());
      String key = stored.json().get("blob").asText();
      RawHttp.Reply fetched = b.get("/v1/instances/vm2/blob/" + key);
      assertEquals(200, fetched.status(), fetched.body());
      assertArrayEquals(upload, fetched.bytes(), "a blob uploaded on A is served by B");
      String ref = "{\"v\":1,\"type\":\"user.message\",\"session\":{\"channel\":\"host\",\"id\":\"r\"},\"payload\":{\"text\":\"this one\","
          + "\"images\":[{\"media_type\":\"image/png\",\"blob\":\"" + key + "\",\"size\":" + upload.length + "}]}}";
      RawHttp.Reply accepted = b.post("/v1/instances/vm2/tether", ref.getBytes(StandardCharsets.UTF_8));
      assertEquals(202, accepted.status(), "B accepts a ref to a blob A stored: " + accepted.body());
    }
  }

  /**
   * An answer's image that the store offloaded to the Object Store (over 64 KiB) on host A is an
   * image block again when {@code tether mcp}, pointed at host B, reads it with the official MCP
   * SDK's client: the MCP tools read such images on any host.
   */
  @Test
  void answerImageOffloadedOnA_isAnImageBlockThroughTetherMcpOnB() throws Exception {
    assertEquals(201, a.send("PUT", "/v1/instances/vm4", null, new byte[0]).status());
    awaitStatus(b, "/v1/instances/vm4", 200);
    byte[] png = new byte[300_000];
    new java.util.Random(4).nextBytes(png);
    System.arraycopy(new byte[] {(byte) 0x89, 'P', 'N', 'G', 0x0D, 0x0A, 0x1A, 0x0A}, 0, png, 0, 8);
    String done = "{\"v\":1,\"type\":\"assistant.done\",\"session\":{\"channel\":\"host\",\"id\":\"m\"},\"msg_id\":\"ask-1\","
        + "\"payload\":{\"text\":\"here\",\"images\":[{\"media_type\":\"image/png\",\"data\":\""
        + Base64.getEncoder().encodeToString(png) + "\"}]}}";
    RawHttp.Reply posted = a.post("/v1/instances/vm4/tether", done.getBytes(StandardCharsets.UTF_8));
    assertEquals(202, posted.status(), posted.body());
    assertTrue(b.get("/v1/instances/vm4/tether/poll?after_seq=0&images=refs").json().at("/frames/0/payload/images/0").has("blob"),
        "stored on NATS as a blob ref (offloaded), the case under test");
    assertTrue(b.get("/v1/instances/vm4/tether/poll?after_seq=0").json().at("/frames/0/payload/images/0").has("data"),
        "sent inline, polled inline on B without a flag");
    try (McpSdkChild mcp = McpSdkChild.start(dir, "--host", "unix:" + dir.resolve("b.sock"))) {
      var read = mcp.call("tether_read", Map.of("instance", "vm4", "session_id", "m", "after_seq", 0));
      assertArrayEquals(png, McpSdkChild.image(read), "the bytes posted on A, read through tether mcp on B");
    }
  }

  /**
   * A reference client writes a blob into the instance's workspace on host A and sends a frame
   * naming it: A accepts the ref and copies the bytes into the Object Store, so host B serves the
   * blob and puts it inline, although B has no such workspace.
   */
  @Test
  void blobAReferenceClientWroteIntoAsWorkspace_isServedByB() throws Exception {
    java.nio.file.Path ws = dir.resolve("ws-a").resolve("vm5");
    java.nio.file.Files.createDirectories(ws.resolve(".aegis/blobs"));
    RawHttp.Reply put = a.send("PUT", "/v1/instances/vm5", "application/json",
        ("{\"workspace\":\"" + ws + "\"}").getBytes(StandardCharsets.UTF_8));
    assertEquals(201, put.status(), put.body());
    awaitStatus(b, "/v1/instances/vm5", 200);
    byte[] png = Fixtures.picture("png", 11, 6);
    String key = java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-256").digest(png)) + ".png";
    java.nio.file.Files.write(ws.resolve(".aegis/blobs").resolve(key), png); // as the reference agent does
    String ref = "{\"v\":1,\"type\":\"assistant.done\",\"session\":{\"channel\":\"host\",\"id\":\"w\"},\"payload\":{\"text\":\"drawn\","
        + "\"images\":[{\"media_type\":\"image/png\",\"blob\":\"" + key + "\",\"size\":" + png.length + "}]}}";
    RawHttp.Reply accepted = a.post("/v1/instances/vm5/tether", ref.getBytes(StandardCharsets.UTF_8));
    assertEquals(202, accepted.status(), accepted.body());
    RawHttp.Reply blob = b.get("/v1/instances/vm5/blob/" + key);
    assertEquals(200, blob.status(), blob.body());
    assertArrayEquals(png, blob.bytes(), "B serves the bytes A copied from its workspace");
    JsonNode inline = b.get("/v1/instances/vm5/tether/poll?after_seq=0&images=inline").json();
    assertArrayEquals(png, Base64.getDecoder().decode(inline.at("/frames/0/payload/images/0/data").asText()));
  }

  @Test
  void ringMaxFrames_boundsTheSharedStream() throws Exception {
    assertEquals(201, a.send("PUT", "/v1/instances/vm3", null, new byte[0]).status());
    awaitStatus(b, "/v1/instances/vm3", 200);
    for (int i = 0; i < 8; i++) {
      assertEquals(202, (i % 2 == 0 ? a : b).post("/v1/instances/vm3/tether", Fixtures.wire(Fixtures.userMessage("s", "n" + i))).status());
    }
    JsonNode page = b.get("/v1/instances/vm3/tether/poll?after_seq=0").json();
    assertEquals(5, page.get("frames").size(), page.toString());
    assertTrue(page.path("gap").asBoolean(), page.toString());
    assertEquals(4, page.get("oldest_seq").asLong(), page.toString());
  }

  private static int awaitStatus(RawHttp http, String path, int want) throws Exception {
    int status = -1;
    for (int i = 0; i < 100 && status != want; i++) {
      status = http.get(path).status();
      if (status != want) {
        Thread.sleep(20);
      }
    }
    return status;
  }
}
