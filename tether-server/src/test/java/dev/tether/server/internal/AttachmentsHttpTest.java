package dev.tether.server.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tether.client.HostAddress;
import dev.tether.api.blobs.BlobStore;
import dev.tether.server.TetherServer;
import dev.tether.server.testing.Fixtures;
import dev.tether.sessions.FileBlobStore;
import dev.tether.store.MemoryTetherStore;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The attachment routes on a real server over loopback TCP with the host token: uploads keep the
 * client's MIME type verbatim, names are sanitised and duplicates suffixed, files are owner-only in
 * a host-only directory outside every workspace, and hostile input (traversal, oversized bodies, a
 * symbolic link planted where the guest used to reach, another instance's token, missing
 * parameters) gets the API's JSON errors.
 */
class AttachmentsHttpTest {
  private static final String TOKEN = "t".repeat(40);

  @TempDir Path dir;
  private TetherServer server;
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

  private TetherServer start(Function<String, BlobStore> shared) throws Exception {
    TetherServer.Builder b = TetherServer.builder().listen(new HostAddress.Tcp("127.0.0.1", 0)).token(TOKEN)
        .store(MemoryTetherStore.create()).workspaces(dir.resolve("ws")).attachmentsDirectory(dir.resolve("attachments"))
        .instance("vm1").instance("vm2");
    if (shared != null) {
      b.sharedBlobs(shared);
    }
    server = b.start();
    return server;
  }

  @AfterEach
  void stop() {
    if (server != null) {
      server.close();
    }
  }

  private String base() {
    HostAddress.Tcp tcp = (HostAddress.Tcp) server.boundAddress();
    return "http://127.0.0.1:" + tcp.port();
  }

  private HttpResponse<byte[]> upload(String instance, String query, String contentType, byte[] body, String token) throws Exception {
    HttpRequest.Builder r = HttpRequest.newBuilder(URI.create(base() + "/v1/instances/" + instance + "/attachments?" + query))
        .header("Authorization", "Bearer " + token).POST(HttpRequest.BodyPublishers.ofByteArray(body));
    if (contentType != null) {
      r.header("Content-Type", contentType);
    }
    return http.send(r.build(), HttpResponse.BodyHandlers.ofByteArray());
  }

  private HttpResponse<byte[]> upload(String query, String contentType, byte[] body) throws Exception {
    return upload("vm1", query, contentType, body, TOKEN);
  }

  private HttpResponse<byte[]> get(String pathAndQuery, String token) throws Exception {
    return http.send(HttpRequest.newBuilder(URI.create(base() + pathAndQuery)).header("Authorization", "Bearer " + token).build(),
        HttpResponse.BodyHandlers.ofByteArray());
  }

  private static JsonNode json(HttpResponse<byte[]> r) throws Exception {
    return Json.MAPPER.readTree(r.body());
  }

  private static String error(HttpResponse<byte[]> r) throws Exception {
    return json(r).path("error").path("code").asText();
  }

  private static String q(String s) {
    return URLEncoder.encode(s, StandardCharsets.UTF_8);
  }

  /** {@code attachments/{instance}/{generation}/{name}}: the one generation of the instance's registration. */
  private Path sessionDir(String instance, String name) throws Exception {
    try (Stream<Path> generations = Files.list(dir.resolve("attachments").resolve(instance))) {
      return generations.reduce((a, b) -> {
        throw new AssertionError("two generations: " + a + ", " + b);
      }).orElseThrow().resolve(name);
    }
  }

  @Test
  void upload_keepsTheDeclaredType_listsIt_andServesTheSameBytes() throws Exception {
    start(null);
    byte[] code = "print('hello')\n".getBytes(StandardCharsets.UTF_8);
    HttpResponse<byte[]> put = upload("session_id=s1&name=hello.py", "text/x-python", code);
    assertEquals(201, put.statusCode(), new String(put.body(), StandardCharsets.UTF_8));
    assertEquals("hello.py", json(put).path("name").asText());
    assertEquals("text/x-python", json(put).path("mime_type").asText());
    assertEquals(code.length, json(put).path("size").asInt());
    // A declared type is never corrected: PNG bytes declared as text stay text.
    byte[] png = Fixtures.picture("png", 4, 4);
    assertEquals(201, upload("session_id=s1&name=shot.png", "text/plain; charset=utf-8", png).statusCode());

    JsonNode list = json(get("/v1/instances/vm1/attachments?session_id=s1", TOKEN)).path("attachments");
    assertEquals(2, list.size());
    assertEquals("hello.py", list.get(0).path("name").asText());
    assertEquals("text/plain; charset=utf-8", list.get(1).path("mime_type").asText());

    HttpResponse<byte[]> bytes = get("/v1/instances/vm1/attachments/hello.py?session_id=s1", TOKEN);
    assertEquals(200, bytes.statusCode());
    assertArrayEquals(code, bytes.body());
    assertEquals("application/octet-stream", bytes.headers().firstValue("Content-Type").orElseThrow());
    assertEquals("text/x-python", bytes.headers().firstValue("X-Tether-Mime-Type").orElseThrow());
    assertEquals("nosniff", bytes.headers().firstValue("X-Content-Type-Options").orElseThrow());

    // Without a Content-Type the type is application/octet-stream, not a guess from ".txt".
    assertEquals("application/octet-stream", json(upload("session_id=s1&name=x.txt", null, code)).path("mime_type").asText());
  }

  @Test
  void sessions_areSeparate_byChannelAndId() throws Exception {
    start(null);
    assertEquals(201, upload("session_id=a&name=one.txt", "text/plain", new byte[] {'1'}).statusCode());
    assertEquals(201, upload("session_id=a&channel=telegram&name=two.txt", "text/plain", new byte[] {'2'}).statusCode());
    assertEquals(1, json(get("/v1/instances/vm1/attachments?session_id=a", TOKEN)).path("attachments").size());
    JsonNode tg = json(get("/v1/instances/vm1/attachments?session_id=a&channel=telegram", TOKEN)).path("attachments");
    assertEquals("two.txt", tg.get(0).path("name").asText());
    assertEquals("UNKNOWN_ATTACHMENT", error(get("/v1/instances/vm1/attachments/one.txt?session_id=a&channel=telegram", TOKEN)));
    assertEquals(0, json(get("/v1/instances/vm1/attachments?session_id=never", TOKEN)).path("attachments").size());
    assertTrue(Files.isDirectory(sessionDir("vm1", "host~a")));
    assertTrue(Files.isDirectory(sessionDir("vm1", "telegram~a")));
  }

  @Test
  void duplicateNames_getSuffixes_neverOverwrite() throws Exception {
    start(null);
    for (String body : new String[] {"first", "second", "third"}) {
      assertEquals(201, upload("session_id=s&name=notes.txt", "text/plain", body.getBytes(StandardCharsets.UTF_8)).statusCode());
    }
    assertEquals(201, upload("session_id=s&name=NOTES.TXT", "text/plain", new byte[] {'4'}).statusCode());
    JsonNode list = json(get("/v1/instances/vm1/attachments?session_id=s", TOKEN)).path("attachments");
    assertEquals("notes.txt", list.get(0).path("name").asText());
    assertEquals("notes-1.txt", list.get(1).path("name").asText());
    assertEquals("notes-2.txt", list.get(2).path("name").asText());
    assertEquals("NOTES-3.TXT", list.get(3).path("name").asText());
    assertEquals("first", new String(get("/v1/instances/vm1/attachments/notes.txt?session_id=s", TOKEN).body(), StandardCharsets.UTF_8));
  }

  @Test
  void traversalInNames_staysInsideTheSessionDirectory() throws Exception {
    start(null);
    String[] hostile = {"../../../etc/passwd", "/etc/shadow", "..\\..\\boot.ini", "%2e%2e%2fsecret", "..", ".hidden", "a\u0000b.txt", "CON.txt"};
    for (String name : hostile) {
      HttpResponse<byte[]> r = upload("session_id=s&name=" + q(name), "text/plain", "x".getBytes(StandardCharsets.UTF_8));
      assertEquals(201, r.statusCode(), name + ": " + new String(r.body(), StandardCharsets.UTF_8));
      String stored = json(r).path("name").asText();
      assertFalse(stored.contains("/") || stored.contains("\\") || stored.startsWith(".") || stored.contains("\u0000"), stored);
    }
    Path session = sessionDir("vm1", "host~s");
    try (Stream<Path> all = Files.walk(dir)) {
      all.filter(Files::isRegularFile).forEach(p -> assertTrue(p.startsWith(session), "written outside the session: " + p));
    }
    assertFalse(Files.exists(dir.resolve("ws").resolve("etc")));
    // Reading by a path is refused: only listed names are found.
    for (String path : new String[] {"/v1/instances/vm1/attachments/..%2F..%2Fvm2%2Fx?session_id=s",
        "/v1/instances/vm1/attachments/.manifest.json?session_id=s"}) {
      HttpResponse<byte[]> r = get(path, TOKEN);
      assertTrue(r.statusCode() == 404 || r.statusCode() == 400, path + " -> " + r.statusCode());
      assertFalse(json(r).path("error").path("code").asText().isEmpty());
    }
  }

  @Test
  void filesAndDirectories_areOwnerOnly() throws Exception {
    start(null);
    assertEquals(201, upload("session_id=s&name=secret.txt", "text/plain", "s".getBytes(StandardCharsets.UTF_8)).statusCode());
    Path session = sessionDir("vm1", "host~s");
    assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(session)));
    assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(session.resolve("secret.txt"))));
    assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(session.resolve(".manifest.json"))));
  }

  @Test
  void oversizedBody_is413UploadTooLarge_andNothingIsStored() throws Exception {
    start(null);
    byte[] big = new byte[(int) AttachmentStore.DEFAULT_MAX_BYTES + 1];
    HttpResponse<byte[]> r = upload("session_id=s&name=big.bin", "application/octet-stream", big);
    assertEquals(413, r.statusCode());
    assertEquals("UPLOAD_TOO_LARGE", error(r));
    assertEquals(0, json(get("/v1/instances/vm1/attachments?session_id=s", TOKEN)).path("attachments").size());
    byte[] exact = new byte[(int) AttachmentStore.DEFAULT_MAX_BYTES];
    assertEquals(201, upload("session_id=s&name=exact.bin", "application/octet-stream", exact).statusCode());
  }

  @Test
  void badRequests_getCodedJsonErrors() throws Exception {
    start(null);
    assertEquals("INVALID_ARGUMENT", error(upload("name=a.txt", "text/plain", new byte[1])));
    assertEquals("INVALID_ARGUMENT", error(upload("session_id=s", "text/plain", new byte[1])));
    assertEquals("INVALID_ARGUMENT", error(upload("session_id=&name=a.txt", "text/plain", new byte[1])));
    assertEquals("INVALID_ARGUMENT", error(upload("session_id=" + "s".repeat(1025) + "&name=a.txt", "text/plain", new byte[1])));
    assertEquals("INVALID_UPLOAD", error(upload("session_id=s&name=a.txt", "not a mime type", new byte[1])));
    assertEquals("INSTANCE_NOT_FOUND", error(upload("nope", "session_id=s&name=a.txt", "text/plain", new byte[1], TOKEN)));
    assertEquals("UNKNOWN_ATTACHMENT", error(get("/v1/instances/vm1/attachments/missing.txt?session_id=s", TOKEN)));
    HttpResponse<byte[]> delete = http.send(HttpRequest.newBuilder(URI.create(base() + "/v1/instances/vm1/attachments?session_id=s"))
        .header("Authorization", "Bearer " + TOKEN).DELETE().build(), HttpResponse.BodyHandlers.ofByteArray());
    assertEquals(405, delete.statusCode());
    assertEquals("METHOD_NOT_ALLOWED", error(delete));
    assertEquals(401, upload("vm1", "session_id=s&name=a.txt", "text/plain", new byte[1], "wrong".repeat(8)).statusCode());
  }

  @Test
  void anotherInstancesToken_isRefused_itsOwnIsNot() throws Exception {
    start(null);
    HttpResponse<byte[]> minted = http.send(HttpRequest.newBuilder(URI.create(base() + "/v1/tokens"))
        .header("Authorization", "Bearer " + TOKEN).header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString("{\"instance\":\"vm2\"}")).build(), HttpResponse.BodyHandlers.ofByteArray());
    String vm2 = json(minted).path("token").asText();
    assertEquals(201, upload("session_id=s&name=mine.txt", "text/plain", new byte[] {'1'}).statusCode());
    HttpResponse<byte[]> r = upload("vm1", "session_id=s&name=theirs.txt", "text/plain", new byte[] {'2'}, vm2);
    assertEquals(403, r.statusCode());
    assertEquals("PERMISSION_DENIED", error(r));
    assertEquals(403, get("/v1/instances/vm1/attachments?session_id=s", vm2).statusCode());
    assertEquals(403, get("/v1/instances/vm1/attachments/mine.txt?session_id=s", vm2).statusCode());
    assertEquals(201, upload("vm2", "session_id=s&name=own.txt", "text/plain", new byte[] {'3'}, vm2).statusCode());
    assertEquals(1, json(get("/v1/instances/vm2/attachments?session_id=s", vm2)).path("attachments").size());
  }

  @Test
  void symbolicLinkPlantedByTheGuest_inItsWorkspace_isNeverUsed() throws Exception {
    start(null);
    Path outside = Files.createDirectories(dir.resolve("outside"));
    Path aegis = Files.createDirectories(dir.resolve("ws").resolve("vm1").resolve(".aegis"));
    Files.createSymbolicLink(aegis.resolve("attachments"), outside);
    HttpResponse<byte[]> r = upload("session_id=s&name=a.txt", "text/plain", new byte[] {'x'});
    assertEquals(201, r.statusCode(), "attachments no longer live in the workspace");
    try (Stream<Path> files = Files.list(outside)) {
      assertEquals(0, files.count());
    }
    assertTrue(Files.isRegularFile(sessionDir("vm1", "host~s").resolve("a.txt")));
  }

  @Test
  void symbolicLinkOrFifoAsAnAttachmentFile_is400NotA500() throws Exception {
    start(null);
    assertEquals(201, upload("session_id=s&name=a.txt", "text/plain", new byte[] {'x'}).statusCode());
    assertEquals(201, upload("session_id=s&name=b.txt", "text/plain", new byte[] {'y'}).statusCode());
    Path session = sessionDir("vm1", "host~s");
    Path secret = Files.writeString(dir.resolve("secret.txt"), "secret");
    Files.delete(session.resolve("a.txt"));
    Files.createSymbolicLink(session.resolve("a.txt"), secret);
    HttpResponse<byte[]> link = get("/v1/instances/vm1/attachments/a.txt?session_id=s", TOKEN);
    assertEquals(400, link.statusCode(), new String(link.body(), StandardCharsets.UTF_8));
    assertEquals("INVALID_ARGUMENT", error(link));
    assertTrue(json(link).path("error").path("message").asText().contains("a.txt is a symbolic link"), new String(link.body(), StandardCharsets.UTF_8));
    Files.delete(session.resolve("b.txt"));
    Process p = new ProcessBuilder("mkfifo", session.resolve("b.txt").toString()).inheritIO().start();
    org.junit.jupiter.api.Assumptions.assumeTrue(p.waitFor() == 0, "mkfifo works here");
    long start = System.nanoTime();
    HttpResponse<byte[]> fifo = get("/v1/instances/vm1/attachments/b.txt?session_id=s", TOKEN);
    assertEquals(400, fifo.statusCode(), new String(fifo.body(), StandardCharsets.UTF_8));
    assertTrue(System.nanoTime() - start < java.util.concurrent.TimeUnit.SECONDS.toNanos(3), "answered without blocking");
  }

  @Test
  void fifoAsTheManifest_40ConcurrentListsAnswer400WithinSeconds_andHealthStaysUp() throws Exception {
    start(null);
    assertEquals(201, upload("session_id=ff&name=a.txt", "text/plain", new byte[] {'x'}).statusCode());
    Path session = sessionDir("vm1", "host~ff");
    Files.delete(session.resolve(".manifest.json"));
    Process p = new ProcessBuilder("mkfifo", session.resolve(".manifest.json").toString()).inheritIO().start();
    org.junit.jupiter.api.Assumptions.assumeTrue(p.waitFor() == 0, "mkfifo works here");
    java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(40);
    try {
      long start = System.nanoTime();
      java.util.List<java.util.concurrent.Future<HttpResponse<byte[]>>> lists = new java.util.ArrayList<>();
      for (int i = 0; i < 40; i++) {
        lists.add(pool.submit(() -> get("/v1/instances/vm1/attachments?session_id=ff", TOKEN)));
      }
      for (var f : lists) {
        HttpResponse<byte[]> r = f.get(10, java.util.concurrent.TimeUnit.SECONDS);
        assertEquals(400, r.statusCode(), new String(r.body(), StandardCharsets.UTF_8));
        assertEquals("INVALID_ARGUMENT", error(r));
      }
      assertTrue(System.nanoTime() - start < java.util.concurrent.TimeUnit.SECONDS.toNanos(10), "no worker stayed blocked");
      assertEquals(200, get("/v1/health", TOKEN).statusCode());
      assertEquals(0, json(get("/v1/instances/vm2/attachments?session_id=ff", TOKEN)).path("attachments").size(),
          "other tenants are answered");
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void deletedAndRecreatedInstance_startsWithNoAttachments_andItsDirectoryIsGone() throws Exception {
    start(null);
    assertEquals(201, upload("session_id=s&name=old.txt", "text/plain", new byte[] {'o'}).statusCode());
    HttpResponse<byte[]> del = http.send(HttpRequest.newBuilder(URI.create(base() + "/v1/instances/vm1"))
        .header("Authorization", "Bearer " + TOKEN).DELETE().build(), HttpResponse.BodyHandlers.ofByteArray());
    assertEquals(200, del.statusCode());
    assertFalse(Files.exists(dir.resolve("attachments").resolve("vm1")), "DELETE removes the instance's attachments");
    HttpResponse<byte[]> put = http.send(HttpRequest.newBuilder(URI.create(base() + "/v1/instances/vm1"))
        .header("Authorization", "Bearer " + TOKEN).PUT(HttpRequest.BodyPublishers.ofString("{}")).build(),
        HttpResponse.BodyHandlers.ofByteArray());
    assertEquals(201, put.statusCode(), new String(put.body(), StandardCharsets.UTF_8));
    assertEquals(0, json(get("/v1/instances/vm1/attachments?session_id=s", TOKEN)).path("attachments").size());
    assertEquals(404, get("/v1/instances/vm1/attachments/old.txt?session_id=s", TOKEN).statusCode());
  }

  @Test
  void withSharedInstances_attachmentsAreRefusedClearly() throws Exception {
    BlobStore shared = FileBlobStore.open(dir.resolve("shared-blobs"));
    start(instance -> shared);
    HttpResponse<byte[]> r = upload("session_id=s&name=a.txt", "text/plain", new byte[] {'x'});
    assertEquals(501, r.statusCode());
    assertEquals("NOT_IMPLEMENTED", error(r));
    assertTrue(json(r).path("error").path("message").asText().contains("--nats"));
    assertEquals(501, get("/v1/instances/vm1/attachments?session_id=s", TOKEN).statusCode());
  }
}
