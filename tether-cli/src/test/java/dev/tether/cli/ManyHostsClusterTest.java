package dev.tether.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tether.client.HostAddress;
import dev.tether.server.testing.Fixtures;
import dev.tether.server.testing.RawHttp;
import dev.tether.server.testing.StreamReader;
import dev.tether.store.jetstream.testing.NatsServer;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 21 as a user runs it on a real cluster: three {@code nats-server} nodes on loopback and
 * two {@code tether serve --nats} child processes (A and B) without {@code --auto-create}, each
 * given one node's URL (the cluster tells it the others). Everything is checked over HTTP, the way
 * the reference clients meet it: the registry, 4 x 5 MiB images, blobs, watermarks, ring caps,
 * the failover of each node with both hosts reading, both hosts restarted, and attachments (issue
 * 32: stored on one host, used on the other over HTTP and through {@code tether mcp}).
 *
 * <p>A read may answer 503 while a host catches up after its node died (the documented read
 * guarantee); the reads here retry on 503 as an HTTP client should, and must never see fewer
 * frames than were acknowledged.
 */
@Tag("cluster")
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ManyHostsClusterTest {
  static final int RING_MAX_FRAMES = 20;
  static final int IMAGE_BYTES = 5 * 1024 * 1024;
  static final byte[] PNG_SIGNATURE = {(byte) 0x89, 'P', 'N', 'G', 0x0D, 0x0A, 0x1A, 0x0A};
  /** Each host's disk budget per instance: attachments (one total in JetStream) and workspace blobs. */
  static final int DISK_BUDGET = 4 << 20;
  /** The largest attachment (the server's default, 20 MiB). */
  static final int MAX_ATTACHMENT = 20 << 20;

  @TempDir static Path dir;
  static List<NatsServer> nodes;
  static Host a;
  static Host b;
  static int retried503;
  static int starts;

  /** One {@code serve} process and an HTTP client on its socket. */
  record Host(String name, ChildJvm process, RawHttp http, HostAddress.Unix address) implements AutoCloseable {
    static Host start(String name, NatsServer node) throws Exception {
      HostAddress.Unix address = new HostAddress.Unix(dir.resolve(name + ".sock"));
      ChildJvm serve = ChildJvm.startWith(dir, "serve-" + name + "-" + (++starts), Map.of(), List.of("-Xmx512m"), "serve",
          "--socket", address.path().toString(), "--nats", node.url(), "--nats-replicas", "3",
          "--ring-max-frames", Integer.toString(RING_MAX_FRAMES), "--workspaces", dir.resolve("ws-" + name).toString(),
          "--instance-disk-bytes", Integer.toString(DISK_BUDGET));
      serve.awaitStderr("listening on", 90_000);
      return new Host(name, serve, new RawHttp(address), address);
    }

    @Override
    public void close() throws Exception {
      http.close();
      process.close();
    }
  }

  @BeforeAll
  static void start() throws Exception {
    NatsServer.binary();
    nodes = NatsServer.cluster(dir, 3);
    a = Host.start("a", nodes.get(0));
    b = Host.start("b", nodes.get(1));
  }

  @AfterAll
  static void stop() {
    for (AutoCloseable c : new AutoCloseable[] {a, b}) {
      closeQuietly(c);
    }
    if (nodes != null) {
      nodes.forEach(ManyHostsClusterTest::closeQuietly);
    }
    System.out.println("ManyHostsClusterTest: reads and posts answered 503 (then retried) " + retried503 + " times");
  }

  @Test
  @Order(1)
  void registry_putOnA_isKnownOnB_deleteOnB_isGoneOnA_withinASecond() throws Exception {
    assertEquals(404, b.http.get("/v1/instances/reg").status(), "registered nowhere yet");
    assertEquals(404, a.http.post("/v1/instances/reg/tether", wire("too early")).status(), "no --auto-create");
    assertEquals(201, a.http.send("PUT", "/v1/instances/reg", null, new byte[0]).status());
    assertEquals(200, awaitStatus(b, "/v1/instances/reg", 200, 1_000), "registered on A, known on B within a second");
    assertEquals(200, a.http.send("PUT", "/v1/instances/reg", null, new byte[0]).status(), "a second PUT finds it");
    assertEquals(202, b.http.post("/v1/instances/reg/tether", wire("hello from B")).status());
    assertEquals(1, pollAll(a, "reg").size());
    assertEquals(200, b.http.method("DELETE", "/v1/instances/reg").status());
    assertEquals(404, awaitStatus(a, "/v1/instances/reg", 404, 1_000), "deleted on B, gone on A within a second");
    assertEquals(404, a.http.post("/v1/instances/reg/tether", wire("after delete")).status());
  }

  @Test
  @Order(2)
  void fourImagesOf5MiB_postedInlineOnA_areReadByteIdenticalOnB_byPollStreamAndBlob() throws Exception {
    register("img");
    List<byte[]> images = new ArrayList<>();
    StringBuilder json = new StringBuilder("{\"v\":1,\"type\":\"user.message\",\"session\":{\"channel\":\"host\",\"id\":\"s\"},"
        + "\"payload\":{\"text\":\"four\",\"images\":[");
    for (int i = 0; i < 4; i++) {
      byte[] png = png(IMAGE_BYTES, i);
      images.add(png);
      json.append(i == 0 ? "" : ",").append("{\"media_type\":\"image/png\",\"data\":\"")
          .append(Base64.getEncoder().encodeToString(png)).append("\"}");
    }
    byte[] body = json.append("]}}").toString().getBytes(StandardCharsets.UTF_8);
    RawHttp.Reply sent = a.http.postReadingEarlyAnswer("/v1/instances/img/tether", body);
    assertEquals(202, sent.status(), sent.body());
    long seq = sent.json().get("ingress_seq").asLong();

    // poll on B without a flag: as sent, inline (issue 32: a reference client that never heard of
    // ?images= gets the bytes); as stored on request (refs to what the store offloaded, served by
    // GET .../blob); inline on request.
    JsonNode asSent = pollAll(b, "img", null).get(0);
    assertEquals(seq, asSent.get("seq").asLong());
    assertImages(images, asSent.at("/payload/images"), "poll on B, no flag");
    assertStoredImages(images, pollAll(b, "img", "refs").get(0).at("/payload/images"), "poll?images=refs on B");
    assertImages(images, pollAll(b, "img", "inline").get(0).at("/payload/images"), "poll?images=inline on B");

    // stream on B, every view: without a flag and inline carry the bytes; refs carries what GET .../blob serves.
    try (StreamReader sentView = new StreamReader(b.address, "/v1/instances/img/tether/stream?after_seq=0")) {
      assertImages(images, sentView.nextFrame().at("/payload/images"), "stream on B, no flag");
    }
    try (StreamReader inline = new StreamReader(b.address, "/v1/instances/img/tether/stream?after_seq=0&images=inline")) {
      assertImages(images, inline.nextFrame().at("/payload/images"), "stream?images=inline on B");
    }
    try (StreamReader stored = new StreamReader(b.address, "/v1/instances/img/tether/stream?after_seq=0&images=refs")) {
      assertStoredImages(images, stored.nextFrame().at("/payload/images"), "stream?images=refs on B");
    }
  }

  @Test
  @Order(3)
  void blobUploadedOnA_isServedByB_andAFrameReferencingItIsAcceptedOnB() throws Exception {
    register("blob");
    byte[] upload = Fixtures.picture("png", 9, 7);
    RawHttp.Reply stored = a.http.send("POST", "/v1/instances/blob/blob", "image/png", upload);
    assertEquals(200, stored.status(), stored.body());
    String key = stored.json().get("blob").asText();
    assertArrayEquals(upload, blobOn(b, "blob", key), "a blob uploaded on A is served by B");
    String ref = "{\"v\":1,\"type\":\"user.message\",\"session\":{\"channel\":\"host\",\"id\":\"r\"},\"payload\":{\"text\":\"this\","
        + "\"images\":[{\"media_type\":\"image/png\",\"blob\":\"" + key + "\",\"size\":" + upload.length + "}]}}";
    RawHttp.Reply accepted = b.http.post("/v1/instances/blob/tether", ref.getBytes(StandardCharsets.UTF_8));
    assertEquals(202, accepted.status(), "B accepts a ref to a blob A stored: " + accepted.body());
    try (StreamReader inline = new StreamReader(a.address, "/v1/instances/blob/tether/stream?after_seq=0&images=inline")) {
      assertArrayEquals(upload, Base64.getDecoder().decode(inline.nextFrame().at("/payload/images/0/data").asText()),
          "A resolves the ref B accepted");
    }
    String missing = ref.replace(key, "c".repeat(64) + ".png");
    assertEquals(404, b.http.post("/v1/instances/blob/tether", missing.getBytes(StandardCharsets.UTF_8)).status(),
        "a ref to a blob no host stored is refused");
  }

  @Test
  @Order(4)
  void watermarkSetOnA_isReadOnB() throws Exception {
    register("wm");
    assertEquals(0, b.http.get("/v1/instances/wm/tether/watermark?channel=gw").json().get("seq").asLong());
    assertEquals(200, a.http.post("/v1/instances/wm/tether/watermark?channel=gw", "{\"seq\":42}".getBytes(StandardCharsets.UTF_8)).status());
    assertEquals(42, b.http.get("/v1/instances/wm/tether/watermark?channel=gw").json().get("seq").asLong(), "a gateway moved to B resumes");
    assertEquals(0, b.http.get("/v1/instances/wm/tether/watermark?channel=other").json().get("seq").asLong());
  }

  @Test
  @Order(5)
  void ringMaxFrames_boundsTheSharedStream_postsFromBothHosts() throws Exception {
    register("ring");
    long first = -1;
    for (int i = 0; i < RING_MAX_FRAMES + 50; i++) {
      long seq = postUntilAccepted(i % 2 == 0 ? a : b, "ring", "n" + i);
      first = first < 0 ? seq : first;
    }
    for (Host h : List.of(a, b)) {
      JsonNode page = h.http.get("/v1/instances/ring/tether/poll?after_seq=0&limit=200").json();
      assertEquals(RING_MAX_FRAMES, page.get("frames").size(), h.name + ": " + page);
      assertTrue(page.path("gap").asBoolean(), page.toString());
      assertEquals(first + 50, page.get("oldest_seq").asLong(), page.toString());
    }
  }

  @Test
  @Order(6)
  void nodeOfHostAKilled_fullReadsOnAAndBReturnEveryAcknowledgedFrame_forEachNode() throws Exception {
    for (int round = 0; round < nodes.size(); round++) {
      NatsServer home = nodes.get(round);
      restartHosts(home, nodes.get((round + 1) % nodes.size()));
      String vm = "failover-" + round;
      register(vm);
      List<Long> acknowledged = new ArrayList<>();
      for (int i = 0; i < 7; i++) {
        acknowledged.add(postUntilAccepted(a, vm, "f-" + i));
      }
      assertEquals(7, pollAll(a, vm).size());
      assertEquals(7, pollAll(b, vm).size());
      home.kill();
      acknowledged.add(postUntilAccepted(a, vm, "f-7"));
      for (int i = 8; i < 18; i++) {
        acknowledged.add(postUntilAccepted(i % 2 == 0 ? a : b, vm, "f-" + i));
      }
      for (Host h : List.of(a, b)) {
        List<JsonNode> read = pollAll(h, vm);
        List<String> texts = read.stream().map(f -> f.at("/payload/text").asText()).toList();
        assertEquals(18, read.size(), "round " + round + " (killed " + home.name() + "), host " + h.name + " read " + texts);
        for (int i = 0; i < 18; i++) {
          assertEquals("f-" + i, texts.get(i), "frame " + i + " in append order on " + h.name);
          assertEquals(acknowledged.get(i), read.get(i).get("seq").asLong(), "the acknowledged seq on " + h.name);
        }
      }
      home.start();
    }
  }

  @Test
  @Order(7)
  void bothHostsRestarted_seqsContinue_neverReused() throws Exception {
    restartHosts(nodes.get(2), nodes.get(0));
    register("restart");
    long before = 0;
    for (int i = 0; i < 3; i++) {
      before = postUntilAccepted(i % 2 == 0 ? a : b, "restart", "before-" + i);
    }
    restartHosts(nodes.get(1), nodes.get(2));
    assertEquals(200, b.http.get("/v1/instances/restart").status(), "the registry outlives both hosts");
    long after = postUntilAccepted(b, "restart", "after");
    assertTrue(after > before, "seq " + after + " after a restart, " + before + " before it");
    List<JsonNode> all = pollAll(a, "restart");
    assertEquals(4, all.size());
    assertEquals(List.of("before-0", "before-1", "before-2", "after"), all.stream().map(f -> f.at("/payload/text").asText()).toList());
    assertFalse(a.process.stderrText().contains("Exception in thread"), a.process.stderrText());
  }

  /**
   * Issue 32: attachments live in JetStream. Stored on A, they are listed, read and viewed on B,
   * over HTTP and through {@code tether mcp} (a stdio child against B); deleted on B they are gone
   * on A; DELETE of the instance on B removes them, and the id re-created on A starts with none.
   */
  @Test
  @Order(8)
  void attachmentStoredOnA_isListedReadAndViewedOnB_overHttpAndTetherMcp_deletedOnB_goneOnA() throws Exception {
    register("att");
    byte[] notes = "line one\nline two\n".getBytes(StandardCharsets.UTF_8);
    byte[] shot = Fixtures.picture("png", 40, 30);
    assertEquals(201, attach(a, "att", "s", "notes.txt", "text/plain", notes).status());
    assertEquals(201, attach(a, "att", "s", "shot.png", "image/png", shot).status());
    JsonNode listed = untilNot503(() -> b.http.get("/v1/instances/att/attachments?session_id=s")).json().get("attachments");
    assertEquals(2, listed.size(), listed.toString());
    assertEquals("image/png", listed.get(1).get("mime_type").asText());
    assertArrayEquals(shot, untilNot503(() -> b.http.get("/v1/instances/att/attachments/shot.png?session_id=s")).bytes());

    try (McpSdkChild mcp = McpSdkChild.start(dir, "--host", "unix:" + b.address.path(), "--instance", "att")) {
      Map<String, Object> s = Map.of("session_id", "s");
      assertEquals("- notes.txt (" + notes.length + " bytes, text/plain)\n- shot.png (" + shot.length + " bytes, image/png)",
          McpSdkChild.text(mcp.call("list_attachments", s)));
      assertEquals("line one\nline two\n", McpSdkChild.text(mcp.call("read_attachment", Map.of("session_id", "s", "filename", "notes.txt"))));
      assertArrayEquals(shot, McpSdkChild.image(mcp.call("view_attachment", Map.of("session_id", "s", "filename", "shot.png"))));
    }

    assertEquals(200, untilNot503(() -> b.http.method("DELETE", "/v1/instances/att/attachments/notes.txt?session_id=s")).status());
    RawHttp.Reply gone = untilNot503(() -> a.http.get("/v1/instances/att/attachments/notes.txt?session_id=s"));
    assertEquals(404, gone.status());
    assertEquals("UNKNOWN_ATTACHMENT", gone.errorCode());

    assertEquals(200, b.http.method("DELETE", "/v1/instances/att").status());
    assertEquals(404, awaitStatus(a, "/v1/instances/att", 404, 1_000));
    register("att");
    assertEquals(0, untilNot503(() -> b.http.get("/v1/instances/att/attachments?session_id=s")).json().get("attachments").size(),
        "a re-created id starts with no attachments");
  }

  /** The size limit, the budget and hostile names answer as on one host, whichever host is asked. */
  @Test
  @Order(9)
  void attachmentLimits_sizeBudgetAndNames_answerAsOnOneHost() throws Exception {
    register("attlimits");
    RawHttp.Reply tooLarge = attach(b, "attlimits", "s", "big.bin", null, new byte[MAX_ATTACHMENT + 1]);
    assertEquals(413, tooLarge.status());
    assertEquals("UPLOAD_TOO_LARGE", tooLarge.errorCode());
    byte[] three = new byte[3 << 20];
    assertEquals(201, attach(a, "attlimits", "s", "one.bin", null, three).status());
    RawHttp.Reply over = attach(b, "attlimits", "t", "two.bin", null, three);
    assertEquals(507, over.status(), "A's 3 MiB count on B: " + over.body());
    assertEquals("INSUFFICIENT_STORAGE", over.errorCode());
    assertEquals(200, untilNot503(() -> b.http.method("DELETE", "/v1/instances/attlimits/attachments/one.bin?session_id=s")).status());
    assertEquals(201, attach(b, "attlimits", "t", "two.bin", null, three).status(), "deleted on B, room on B");

    assertEquals("passwd", attach(a, "attlimits", "s", "../../etc/passwd", "text/plain", new byte[] {'x'}).json().get("name").asText());
    assertEquals("a_b.txt", attach(b, "attlimits", "s", "a\u0000b.txt", "text/plain", new byte[] {'x'}).json().get("name").asText());
    assertEquals("INVALID_ARGUMENT", attach(b, "attlimits", "s", "n".repeat(1025), "text/plain", new byte[] {'x'}).errorCode());
    RawHttp.Reply traversal = b.http.get("/v1/instances/attlimits/attachments/..%2F..%2Fatt%2Fshot.png?session_id=s");
    assertTrue(traversal.status() == 404 || traversal.status() == 400, traversal.status() + " " + traversal.body());
  }

  // --- helpers

  /** Uploads an attachment, retrying while the host answers 503. */
  static RawHttp.Reply attach(Host h, String vm, String session, String name, String type, byte[] bytes) throws Exception {
    String path = "/v1/instances/" + vm + "/attachments?session_id=" + session + "&name="
        + URLEncoder.encode(name, StandardCharsets.UTF_8);
    return untilNot503(() -> h.http.send("POST", path, type, bytes));
  }

  /** {@code call}'s answer once it is not 503 (a host catching up after a node died), within 60 s. */
  static RawHttp.Reply untilNot503(Callable<RawHttp.Reply> call) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (true) {
      RawHttp.Reply r = call.call();
      if (r.status() != 503) {
        return r;
      }
      retried503++;
      assertTrue(System.nanoTime() < deadline, "still 503 after 60 s: " + r.body());
      Thread.sleep(200);
    }
  }

  static void restartHosts(NatsServer nodeOfA, NatsServer nodeOfB) throws Exception {
    a.close();
    b.close();
    a = Host.start("a", nodeOfA);
    b = Host.start("b", nodeOfB);
  }

  static void register(String id) throws Exception {
    RawHttp.Reply put = a.http.send("PUT", "/v1/instances/" + id, null, new byte[0]);
    assertEquals(201, put.status(), put.body());
    assertEquals(200, awaitStatus(b, "/v1/instances/" + id, 200, 1_000), "PUT on A known on B within a second");
  }

  static byte[] wire(String text) {
    return Fixtures.wire(Fixtures.userMessage("s", text));
  }

  /** POSTs a text frame, retrying while the host answers 503 (its node died); the acknowledged seq. */
  static long postUntilAccepted(Host h, String vm, String text) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (true) {
      RawHttp.Reply r = h.http.post("/v1/instances/" + vm + "/tether", wire(text));
      if (r.status() == 202) {
        return r.json().get("ingress_seq").asLong();
      }
      assertEquals(503, r.status(), h.name + " answered " + r.body());
      retried503++;
      assertTrue(System.nanoTime() < deadline, h.name + " still 503 after 60 s: " + r.body());
      Thread.sleep(200);
    }
  }

  /** Every stored frame from seq 0, retrying while the host answers 503. */
  static List<JsonNode> pollAll(Host h, String vm) throws Exception {
    return pollAll(h, vm, "stored");
  }

  static List<JsonNode> pollAll(Host h, String vm, String images) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (true) {
      RawHttp.Reply r = h.http.getLarge("/v1/instances/" + vm + "/tether/poll?after_seq=0&limit=200"
          + (images == null ? "" : "&images=" + images), 64 << 20);
      if (r.status() == 200) {
        List<JsonNode> frames = new ArrayList<>();
        r.json().get("frames").forEach(frames::add);
        return frames;
      }
      assertEquals(503, r.status(), h.name + " answered " + r.body());
      retried503++;
      assertTrue(System.nanoTime() < deadline, h.name + " still 503 after 60 s: " + r.body());
      Thread.sleep(200);
    }
  }

  static byte[] blobOn(Host h, String vm, String key) throws Exception {
    RawHttp.Reply r = h.http.getLarge("/v1/instances/" + vm + "/blob/" + key, 16 << 20);
    assertEquals(200, r.status(), h.name + ": " + r.body());
    return r.bytes();
  }

  static void assertImages(List<byte[]> want, JsonNode images, String where) {
    assertEquals(want.size(), images.size(), where);
    for (int i = 0; i < want.size(); i++) {
      assertTrue(images.get(i).has("data"), where + ": image " + i + " inline, was " + images.get(i));
      assertArrayEquals(want.get(i), Base64.getDecoder().decode(images.get(i).get("data").asText()), where + ": image " + i);
    }
  }

  /** Each image inline and equal, or a ref whose blob both hosts serve byte-identical. */
  static void assertStoredImages(List<byte[]> want, JsonNode images, String where) throws Exception {
    assertEquals(want.size(), images.size(), where);
    for (int i = 0; i < want.size(); i++) {
      JsonNode image = images.get(i);
      if (image.has("data")) {
        assertArrayEquals(want.get(i), Base64.getDecoder().decode(image.get("data").asText()), where + ": image " + i);
      } else {
        for (Host h : List.of(a, b)) {
          assertArrayEquals(want.get(i), blobOn(h, "img", image.get("blob").asText()), where + ": blob of image " + i + " on " + h.name);
        }
      }
    }
  }

  static int awaitStatus(Host h, String path, int want, long withinMs) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(withinMs);
    int status;
    do {
      status = h.http.get(path).status();
    } while (status != want && System.nanoTime() < deadline && sleep(20));
    return status;
  }

  static boolean sleep(long ms) throws InterruptedException {
    Thread.sleep(ms);
    return true;
  }

  /** {@code size} random bytes that start with the PNG signature (what the validator checks). */
  static byte[] png(int size, long seed) {
    byte[] bytes = new byte[size];
    new Random(seed).nextBytes(bytes);
    System.arraycopy(PNG_SIGNATURE, 0, bytes, 0, PNG_SIGNATURE.length);
    return bytes;
  }

  static void closeQuietly(AutoCloseable c) {
    try {
      if (c != null) {
        c.close();
      }
    } catch (Exception ignored) {
      // best effort
    }
  }
}
