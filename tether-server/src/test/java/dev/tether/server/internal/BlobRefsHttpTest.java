package dev.tether.server.internal;

import dev.tether.server.testing.StreamReader;
import dev.tether.server.testing.RawSocket;
import dev.tether.server.testing.RawHttp;
import dev.tether.server.testing.Fixtures;
import dev.tether.client.HostAddress;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tether.images.FrameValidator;
import dev.tether.store.MemoryTetherStore;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Blob upload and download, and frames whose images are blob refs, against hostile keys and files. */
class BlobRefsHttpTest {
  @TempDir Path dir;
  private Daemon server;
  private RawHttp http;
  private Path blobs;
  private HostAddress.Unix address;

  @BeforeEach
  void start() throws Exception {
    InstanceRegistry registry = InstanceRegistry.open(dir.resolve("workspaces"), null, false);
    registry.put("default", null);
    blobs = dir.resolve("workspaces/default/.aegis/blobs");
    address = new HostAddress.Unix(dir.resolve("run/tether.sock"));
    server = Daemon.start(address, MemoryTetherStore.create(), FrameValidator.standard(), null, 16,
        Daemon.defaultIngressBytes(), registry);
    http = new RawHttp(address);
  }

  @AfterEach
  void stop() throws Exception {
    http.close();
    server.close();
  }

  private static String frameWithRef(String mediaType, String key, long size) {
    return "{\"v\":1,\"type\":\"user.message\",\"session\":{\"channel\":\"host\",\"id\":\"s\"},\"payload\":{\"text\":\"look\","
        + "\"images\":[{\"media_type\":\"" + mediaType + "\",\"blob\":\"" + key + "\",\"size\":" + size + "}]}}";
  }

  private JsonNode upload(byte[] png) throws Exception {
    RawHttp.Reply r = http.send("POST", "/v1/instances/default/blob", "image/png", png);
    assertEquals(200, r.status(), r.body());
    return r.json();
  }

  @Test
  void upload_storesUnderShaKey_inTheWorkspace_andDownloadReturnsTheBytes() throws Exception {
    byte[] png = Fixtures.picture("png", 6, 4);
    JsonNode n = upload(png);
    String key = BlobFiles.sha256Hex(png) + ".png";
    assertEquals(key, n.get("blob").asText());
    assertEquals("image/png", n.get("media_type").asText());
    assertEquals(png.length, n.get("size").asLong());
    assertArrayEquals(png, Files.readAllBytes(blobs.resolve(key)), "where the reference clients look");
    RawHttp.Reply got = http.get("/v1/instances/default/blob/" + key);
    assertEquals(200, got.status());
    assertArrayEquals(png, got.bytes());
    assertEquals("image/png", got.contentType());
  }

  @Test
  void upload_wrongTypeOrSignature_400_overLimit_413() throws Exception {
    RawHttp.Reply text = http.send("POST", "/v1/instances/default/blob", "text/plain", Fixtures.utf8("hello"));
    assertEquals(400, text.status(), text.body());
    assertEquals("UNSUPPORTED_MEDIA_TYPE", text.errorCode());
    RawHttp.Reply mismatch = http.send("POST", "/v1/instances/default/blob", "image/png", Fixtures.picture("jpg", 4, 4));
    assertEquals(400, mismatch.status(), mismatch.body());
    assertEquals("MEDIA_TYPE_MISMATCH", mismatch.errorCode());
    // A declared length over the limit is answered before the body is read; the client may get
    // a broken pipe writing the rest, so write what the server takes and then read its answer.
    try (RawSocket s = RawSocket.connect(address)) {
      s.send(("POST /v1/instances/default/blob HTTP/1.1\r\nHost: x\r\nContent-Type: image/png\r\nContent-Length: "
          + ((10 << 20) + 1) + "\r\n\r\n").getBytes(java.nio.charset.StandardCharsets.US_ASCII));
      try {
        s.send(new byte[1 << 20]);
      } catch (java.io.IOException closed) {
        // the server stopped reading: fine
      }
      RawSocket.Response tooBig = s.readResponse(30_000);
      assertEquals(413, tooBig.status(), tooBig.body());
      assertTrue(tooBig.body().contains("IMAGE_TOO_LARGE"), tooBig.body());
    }
    // Chunked, no length: refused on the chunk that crosses the limit, while the client still sends.
    try (RawSocket s = RawSocket.connect(address)) {
      s.send(("POST /v1/instances/default/blob HTTP/1.1\r\nHost: x\r\nContent-Type: image/png\r\nTransfer-Encoding: chunked\r\n\r\n")
          .getBytes(java.nio.charset.StandardCharsets.US_ASCII));
      byte[] chunk = new byte[64 * 1024];
      byte[] head = (Integer.toHexString(chunk.length) + "\r\n").getBytes(java.nio.charset.StandardCharsets.US_ASCII);
      try {
        for (long sent = 0; sent <= (10L << 20) + 4096; sent += chunk.length) {
          s.send(head);
          s.send(chunk);
          s.send(new byte[] {'\r', '\n'});
        }
        s.send("0\r\n\r\n".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
      } catch (java.io.IOException closed) {
        // the server stopped reading: fine
      }
      RawSocket.Response chunked = s.readResponse(30_000);
      assertEquals(413, chunked.status(), chunked.body());
    }
    assertEquals(200, http.send("POST", "/v1/instances/default/blob", "image/png", Fixtures.picture("png", 2, 2)).status(),
        "the server keeps serving");
  }

  @Test
  void download_hostileKeys_neverLeaveTheBlobDirectory() throws Exception {
    Files.createDirectories(blobs);
    Files.writeString(dir.resolve("workspaces/default/secret.png"), "secret");
    for (String key : new String[] {"..%2Fsecret.png", "..%2F..%2F..%2Fetc%2Fpasswd", "%2e%2e", "ABC.png",
        "a".repeat(64) + ".exe", "a".repeat(64) + ".png%00.txt", "a".repeat(63) + ".png"}) {
      RawSocket.Response r = RawSocket.exchange(address, "GET /v1/instances/default/blob/" + key + " HTTP/1.1\r\nHost: x\r\n\r\n");
      assertTrue(r.status() == 404 || r.status() == 400, key + " -> " + r.status() + " " + r.body());
      assertTrue(r.body().contains("\"error\"") && !r.body().contains("secret\n"), key + " -> " + r.body());
    }
  }

  @Test
  void ingress_withValidRef_isStoredAsARef_202() throws Exception {
    byte[] png = Fixtures.picture("png", 6, 4);
    String key = upload(png).get("blob").asText();
    RawHttp.Reply r = http.post("/v1/instances/default/tether", Fixtures.utf8(frameWithRef("image/png", key, png.length)));
    assertEquals(202, r.status(), r.body());
    JsonNode frame = http.get("/v1/instances/default/tether/poll").json().get("frames").get(0);
    assertEquals(key, frame.at("/payload/images/0/blob").asText());
    assertTrue(frame.at("/payload/images/0/data").isMissingNode(), "refs stay refs in the ring");
  }

  @Test
  void stream_asStoredByDefault_inlineOnRequest() throws Exception {
    byte[] png = Fixtures.picture("png", 6, 4);
    String key = upload(png).get("blob").asText();
    assertEquals(202, http.post("/v1/instances/default/tether", Fixtures.utf8(frameWithRef("image/png", key, png.length))).status());
    try (var lines = new StreamReader(address, "/v1/instances/default/tether/stream?after_seq=0")) {
      assertEquals(key, lines.nextFrame().at("/payload/images/0/blob").asText(), "the reference gateway reads refs itself");
    }
    try (var lines = new StreamReader(address, "/v1/instances/default/tether/stream?after_seq=0&images=inline")) {
      JsonNode image = lines.nextFrame().at("/payload/images/0");
      assertEquals(java.util.Base64.getEncoder().encodeToString(png), image.get("data").asText());
      assertTrue(image.get("blob") == null);
    }
    assertEquals(400, http.get("/v1/instances/default/tether/stream?images=thumbnails").status());
  }

  @Test
  void poll_asStoredByDefault_inlineOnRequest_likeTheStream() throws Exception {
    byte[] png = Fixtures.picture("png", 6, 4);
    String key = upload(png).get("blob").asText();
    assertEquals(202, http.post("/v1/instances/default/tether", Fixtures.utf8(frameWithRef("image/png", key, png.length))).status());
    JsonNode stored = http.get("/v1/instances/default/tether/poll?after_seq=0&images=stored").json().get("frames").get(0);
    assertEquals(key, stored.at("/payload/images/0/blob").asText());
    JsonNode inline = http.get("/v1/instances/default/tether/poll?after_seq=0&images=inline").json().get("frames").get(0);
    assertEquals(java.util.Base64.getEncoder().encodeToString(png), inline.at("/payload/images/0/data").asText());
    assertTrue(inline.at("/payload/images/0/blob").isMissingNode());
    assertEquals(stored.get("seq"), inline.get("seq"));
    RawHttp.Reply bad = http.get("/v1/instances/default/tether/poll?images=thumbnails");
    assertEquals(400, bad.status());
    assertEquals("INVALID_ARGUMENT", bad.errorCode());
  }

  @Test
  void ingress_hostileRefs_refusedWithStableCodes_andNothingStored() throws Exception {
    byte[] png = Fixtures.picture("png", 6, 4);
    String key = upload(png).get("blob").asText();
    String sha = key.substring(0, 64);
    // Wrong extension for the media type, traversal, upper case: not a blob key.
    assertRefused(frameWithRef("image/jpeg", key, png.length), 400, "INVALID_BLOB_REF");
    assertRefused(frameWithRef("image/png", "../../secret.png", 6), 400, "INVALID_BLOB_REF");
    assertRefused(frameWithRef("image/png", sha.toUpperCase() + ".png", png.length), 400, "INVALID_BLOB_REF");
    // Missing blob.
    assertRefused(frameWithRef("image/png", "b".repeat(64) + ".png", 10), 404, "BLOB_NOT_FOUND");
    // Declared size differs.
    assertRefused(frameWithRef("image/png", key, png.length + 1), 400, "INVALID_BLOB_REF");
    // Both data and blob.
    assertRefused("{\"v\":1,\"type\":\"user.message\",\"session\":{\"channel\":\"host\",\"id\":\"s\"},\"payload\":{\"text\":\"x\","
        + "\"images\":[{\"media_type\":\"image/png\",\"blob\":\"" + key + "\",\"data\":\"iVBORw0KGgo=\"}]}}", 400, "MALFORMED_FRAME");
    // Bytes that do not hash to the key (planted by a guest, say).
    byte[] other = Fixtures.picture("png", 7, 7);
    String wrongName = "d".repeat(64) + ".png";
    Files.write(blobs.resolve(wrongName), other);
    assertRefused(frameWithRef("image/png", wrongName, other.length), 400, "BLOB_CORRUPTED");
    // A symbolic link in the blob directory pointing outside it.
    Path outside = dir.resolve("outside.png");
    Files.write(outside, png);
    String linkName = "c".repeat(64) + ".png";
    Files.createSymbolicLink(blobs.resolve(linkName), outside);
    assertRefused(frameWithRef("image/png", linkName, png.length), 400, "INVALID_BLOB_REF");
    // A JPEG stored under a .png key with the right hash: the signature check catches it.
    byte[] jpeg = Fixtures.picture("jpg", 5, 5);
    String jpegAsPng = BlobFiles.sha256Hex(jpeg) + ".png";
    Files.write(blobs.resolve(jpegAsPng), jpeg);
    assertRefused(frameWithRef("image/png", jpegAsPng, jpeg.length), 400, "MEDIA_TYPE_MISMATCH");
    assertEquals(0, server.store().lastSeq("default"), "no refused frame was stored");
    assertTrue(http.get("/v1/instances/default/blob/" + linkName).status() >= 400, "a link is never served");
  }

  @Test
  void ingress_symlinkedBlobDirectory_refused() throws Exception {
    byte[] png = Fixtures.picture("png", 3, 3);
    Path elsewhere = Files.createDirectories(dir.resolve("elsewhere"));
    String key = BlobFiles.sha256Hex(png) + ".png";
    Files.write(elsewhere.resolve(key), png);
    Files.createDirectories(blobs.getParent());
    Files.createSymbolicLink(blobs, elsewhere);
    assertRefused(frameWithRef("image/png", key, png.length), 400, "INVALID_BLOB_REF");
  }

  @Test
  void upload_throughALinkedAegisDirectory_400_andNothingIsCreatedOutside() throws Exception {
    Path elsewhere = Files.createDirectories(dir.resolve("elsewhere"));
    Files.createDirectories(blobs.getParent().getParent());
    Files.createSymbolicLink(blobs.getParent(), elsewhere);
    RawHttp.Reply r = http.send("POST", "/v1/instances/default/blob", "image/png", Fixtures.picture("png", 3, 3));
    assertEquals(400, r.status(), r.body());
    assertEquals("INVALID_BLOB_REF", r.errorCode(), r.body());
    assertTrue(r.body().contains(".aegis is a symbolic link"), r.body());
    assertEquals(0, elsewhere.toFile().list().length, "nothing was created through the link");
  }

  @Test
  void fifoAtABlobPath_answers4xxWithinSeconds_andTheServerStaysUp() throws Exception {
    byte[] png = Fixtures.picture("png", 3, 3);
    String key = BlobFiles.sha256Hex(png) + ".png";
    Files.createDirectories(blobs);
    Process p = new ProcessBuilder("mkfifo", blobs.resolve(key).toString()).inheritIO().start();
    org.junit.jupiter.api.Assumptions.assumeTrue(p.waitFor() == 0, "mkfifo works here");
    long start = System.nanoTime();
    RawHttp.Reply got = http.get("/v1/instances/default/blob/" + key);
    assertEquals(400, got.status(), got.body());
    assertEquals("INVALID_BLOB_REF", got.errorCode(), got.body());
    assertRefused(frameWithRef("image/png", key, png.length), 400, "INVALID_BLOB_REF");
    assertTrue(System.nanoTime() - start < java.util.concurrent.TimeUnit.SECONDS.toNanos(3), "answered without blocking");
    assertEquals(200, http.get("/v1/health").status());
  }

  private void assertRefused(String frame, int status, String code) throws Exception {
    RawHttp.Reply r = http.post("/v1/instances/default/tether", Fixtures.utf8(frame));
    assertEquals(status, r.status(), frame + " -> " + r.body());
    assertEquals(code, r.errorCode(), r.body());
    assertTrue(r.json().path("error").path("message").asText().length() > 20, r.body());
  }
}
