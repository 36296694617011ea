package dev.tether.server.jetstream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tether.client.HostAddress;
import dev.tether.server.TetherServer;
import dev.tether.server.testing.RawHttp;
import dev.tether.store.jetstream.testing.NatsServer;
import io.nats.client.Connection;
import io.nats.client.Nats;
import io.nats.client.api.ObjectInfo;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 32: two embedded servers given {@code JetStreamShared.on} one nats-server share session
 * attachments behind the single-host routes, limits, names and budget: what A stores, B lists,
 * serves and deletes; the codes are a single host's. The cluster run ({@code ManyHostsClusterTest})
 * does the same with two {@code serve --nats} processes and {@code tether mcp}.
 */
class SharedAttachmentsTest {
  static final long BUDGET = 1 << 20;
  static final int MAX_BYTES = 20 << 20;

  @TempDir static Path dir;
  static NatsServer nats;
  static TetherServer a;
  static TetherServer b;
  static RawHttp onA;
  static RawHttp onB;
  static int instances;

  @BeforeAll
  static void start() throws Exception {
    NatsServer.binary();
    nats = NatsServer.single(dir.resolve("nats"));
    a = server("a");
    b = server("b");
    onA = new RawHttp(a.boundAddress());
    onB = new RawHttp(b.boundAddress());
  }

  static TetherServer server(String name) throws Exception {
    return TetherServer.builder().listen(new HostAddress.Unix(dir.resolve(name + ".sock"))).workspaces(dir.resolve("ws-" + name))
        .attachmentsDirectory(dir.resolve("attachments-" + name)).instanceDiskBytes(BUDGET)
        .shared(JetStreamShared.on(nats.url())).start();
  }

  @AfterAll
  static void stop() {
    for (AutoCloseable c : new AutoCloseable[] {onA, onB, a, b, nats}) {
      try {
        if (c != null) {
          c.close();
        }
      } catch (Exception ignored) {
        // best effort
      }
    }
  }

  /** A fresh instance registered on A. */
  static String instance() throws Exception {
    String id = "att" + (++instances);
    assertEquals(201, onA.send("PUT", "/v1/instances/" + id, null, new byte[0]).status());
    return id;
  }

  static RawHttp.Reply upload(RawHttp host, String id, String query, String type, byte[] body) throws Exception {
    return host.send("POST", "/v1/instances/" + id + "/attachments?" + query, type, body);
  }

  static JsonNode list(RawHttp host, String id, String session) throws Exception {
    RawHttp.Reply r = host.get("/v1/instances/" + id + "/attachments?session_id=" + session);
    assertEquals(200, r.status(), r.body());
    return r.json().get("attachments");
  }

  static String q(String s) {
    return URLEncoder.encode(s, StandardCharsets.UTF_8);
  }

  @Test
  void storedOnA_listedReadAndDeletedOnB_goneOnA() throws Exception {
    String id = instance();
    byte[] code = "print('hello')\n".getBytes(StandardCharsets.UTF_8);
    RawHttp.Reply put = upload(onA, id, "session_id=s&name=hello.py", "text/x-python", code);
    assertEquals(201, put.status(), put.body());
    assertEquals("hello.py", put.json().get("name").asText());

    JsonNode listed = list(onB, id, "s");
    assertEquals(1, listed.size());
    assertEquals("text/x-python", listed.get(0).get("mime_type").asText());
    assertEquals(code.length, listed.get(0).get("size").asInt());
    RawHttp.Reply read = onB.get("/v1/instances/" + id + "/attachments/hello.py?session_id=s");
    assertEquals(200, read.status());
    assertArrayEquals(code, read.bytes());
    assertTrue(read.contentType().startsWith("application/octet-stream"), read.contentType());

    // Names are a single host's: the same name from B gets a suffix, case ignored; other sessions are apart.
    assertEquals("hello-1.py", upload(onB, id, "session_id=s&name=hello.py", "text/plain", code).json().get("name").asText());
    assertEquals("HELLO-2.PY", upload(onA, id, "session_id=s&name=HELLO.PY", "text/plain", code).json().get("name").asText());
    assertEquals(0, list(onB, id, "other").size());
    assertEquals(0, list(onB, id, "s&channel=telegram").size());

    RawHttp.Reply deleted = onB.method("DELETE", "/v1/instances/" + id + "/attachments/hello.py?session_id=s");
    assertEquals(200, deleted.status(), deleted.body());
    RawHttp.Reply gone = onA.get("/v1/instances/" + id + "/attachments/hello.py?session_id=s");
    assertEquals(404, gone.status());
    assertEquals("UNKNOWN_ATTACHMENT", gone.errorCode());
    assertEquals(List.of("hello-1.py", "HELLO-2.PY"), names(list(onA, id, "s")));
    assertEquals("UNKNOWN_ATTACHMENT", onA.method("DELETE", "/v1/instances/" + id + "/attachments/hello.py?session_id=s").errorCode());
  }

  @Test
  void hostileNames_areSanitisedOrRefused_asOnOneHost() throws Exception {
    String id = instance();
    String[] hostile = {"../../../etc/passwd", "/etc/shadow", "..\\..\\boot.ini", "%2e%2e%2fsecret", "..", ".hidden",
        "a\u0000b.txt", "CON.txt", "x".repeat(1000) + ".txt"};
    for (String name : hostile) {
      RawHttp.Reply r = upload(onA, id, "session_id=s&name=" + q(name), "text/plain", new byte[] {'x'});
      assertEquals(201, r.status(), name + ": " + r.body());
      String stored = r.json().get("name").asText();
      assertFalse(stored.contains("/") || stored.contains("\\") || stored.startsWith(".") || stored.contains("\u0000")
          || stored.getBytes(StandardCharsets.UTF_8).length > 210, stored);
      assertEquals(200, onB.get("/v1/instances/" + id + "/attachments/" + q(stored).replace("+", "%20") + "?session_id=s").status(), stored);
    }
    assertEquals("INVALID_ARGUMENT", upload(onB, id, "session_id=s&name=" + "n".repeat(1025), "text/plain", new byte[1]).errorCode());
    assertEquals("INVALID_ARGUMENT", upload(onB, id, "session_id=" + "s".repeat(1025) + "&name=a", "text/plain", new byte[1]).errorCode());
    assertEquals("INVALID_UPLOAD", upload(onB, id, "session_id=s&name=a.txt", "not a mime type", new byte[1]).errorCode());
    for (String path : new String[] {"..%2F..%2Fatt1%2Fx", ".manifest.json", "%00"}) {
      RawHttp.Reply r = onB.get("/v1/instances/" + id + "/attachments/" + path + "?session_id=s");
      assertTrue(r.status() == 404 || r.status() == 400, path + " -> " + r.status() + " " + r.body());
    }
  }

  @Test
  void aLargeAttachment_isStreamedByteIdentical_andOneByteMoreIs413() throws Exception {
    String id = instance();
    byte[] big = new byte[MAX_BYTES + 1];
    new Random(7).nextBytes(big);
    RawHttp.Reply tooLarge = upload(onA, id, "session_id=s&name=big.bin", "application/octet-stream", big);
    assertEquals(413, tooLarge.status());
    assertEquals("UPLOAD_TOO_LARGE", tooLarge.errorCode());
    assertEquals(0, list(onB, id, "s").size(), "nothing stored");
    byte[] pastBudget = Arrays.copyOf(big, 3 * 1024 * 1024 + 17); // within the size limit, past the budget of these servers
    assertEquals("INSUFFICIENT_STORAGE", upload(onA, id, "session_id=s&name=big.bin", "application/octet-stream", pastBudget).errorCode());
    // Many chunks (128 KiB each), read one at a time as B writes them out in windows.
    byte[] large = Arrays.copyOf(big, 1000 * 1024 + 3);
    assertEquals(201, upload(onA, id, "session_id=s&name=large.bin", "application/octet-stream", large).status());
    RawHttp.Reply read = onB.getLarge("/v1/instances/" + id + "/attachments/large.bin?session_id=s", 2 << 20);
    assertEquals(200, read.status());
    assertArrayEquals(large, read.bytes());
  }

  @Test
  void theBudget_isOneTotalForBothHosts_evenForUploadsAtTheSameMoment() throws Exception {
    String id = instance();
    byte[] six = new byte[600 * 1024];
    assertEquals(201, upload(onA, id, "session_id=s&name=one.bin", null, six).status());
    RawHttp.Reply over = upload(onB, id, "session_id=t&name=two.bin", null, six);
    assertEquals(507, over.status(), over.body());
    assertEquals("INSUFFICIENT_STORAGE", over.errorCode());
    assertEquals(200, onB.method("DELETE", "/v1/instances/" + id + "/attachments/one.bin?session_id=s").status());
    assertEquals(201, upload(onB, id, "session_id=t&name=two.bin", null, six).status(), "deleting on B made room on B");
    assertEquals(200, onA.method("DELETE", "/v1/instances/" + id + "/attachments/two.bin?session_id=t").status());

    // Both hosts at once, each within the budget alone, not together: one 201, one 507, every round.
    ExecutorService pool = Executors.newFixedThreadPool(2);
    try {
      for (int round = 0; round < 3; round++) {
        String name = "race" + round + ".bin";
        List<Future<RawHttp.Reply>> both = new ArrayList<>();
        for (RawHttp host : List.of(onA, onB)) {
          Callable<RawHttp.Reply> call = () -> upload(host, id, "session_id=r&name=" + name, null, six);
          both.add(pool.submit(call));
        }
        List<Integer> codes = new ArrayList<>();
        for (Future<RawHttp.Reply> f : both) {
          codes.add(f.get(60, TimeUnit.SECONDS).status());
        }
        codes.sort(null);
        assertEquals(List.of(201, 507), codes, "round " + round);
        assertEquals(200, onA.method("DELETE", "/v1/instances/" + id + "/attachments/" + name + "?session_id=r").status());
      }
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void deletingTheInstanceOnB_removesItsAttachments_aRecreatedIdStartsWithNone() throws Exception {
    String id = instance();
    byte[] most = new byte[900 * 1024];
    assertEquals(201, upload(onA, id, "session_id=s&name=keep.bin", null, most).status());
    assertEquals(200, onB.method("DELETE", "/v1/instances/" + id).status());
    try (Connection nc = Nats.connect(nats.url())) {
      String prefix = AttachmentKeys.instance(id);
      assertEquals(List.of(), nc.keyValue("TETHER_ATTACHMENTS").keys().stream().filter(k -> k.contains("." + prefix + ".")).toList(),
          "no manifest or count of the deleted instance is left");
      assertEquals(List.of(), nc.objectStore("TETHER_ATTACHMENTS").getList().stream().filter(o -> !o.isDeleted())
          .map(ObjectInfo::getObjectName).filter(n -> n.startsWith(prefix + "/")).toList(), "nor any of its bytes");
    }
    assertEquals(201, onB.send("PUT", "/v1/instances/" + id, null, new byte[0]).status());
    assertEquals(0, list(onA, id, "s").size(), "the re-created id has no attachments");
    assertEquals("UNKNOWN_ATTACHMENT", onA.get("/v1/instances/" + id + "/attachments/keep.bin?session_id=s").errorCode());
    assertEquals(201, upload(onA, id, "session_id=s&name=keep.bin", null, most).status(), "and none of the old bytes counted");
  }

  static List<String> names(JsonNode list) {
    List<String> names = new ArrayList<>();
    list.forEach(n -> names.add(n.get("name").asText()));
    return names;
  }
}
