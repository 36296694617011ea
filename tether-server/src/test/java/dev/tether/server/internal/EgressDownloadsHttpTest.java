package dev.tether.server.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tether.client.HostAddress;
import dev.tether.server.TetherServer;
import dev.tether.server.testing.Fixtures;
import dev.tether.server.testing.RawHttp;
import dev.tether.server.testing.RawSocket;
import dev.tether.store.MemoryTetherStore;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Attachment and blob downloads are answers like polls: written under the egress budget. An
 * attachment streams from its open file in windows ({@link FileAnswer}), so stalled readers hold a
 * window each, not the file; past the budget a new download gets 503 before its head; readers that
 * leave give their windows back. A blob is reserved whole (at most the image limit) before it is
 * read and verified.
 */
class EgressDownloadsHttpTest {
  private static final String SESSION = "?session_id=s";

  @TempDir Path dir;

  private static byte[] random(int size, long seed) {
    byte[] b = new byte[size];
    new Random(seed).nextBytes(b);
    return b;
  }

  private TetherServer start(long egressBytes) throws Exception {
    return TetherServer.builder().listen(new HostAddress.Unix(dir.resolve("t.sock"))).store(MemoryTetherStore.create())
        .workspaces(dir.resolve("ws")).instance("vm1").egressBytes(egressBytes).start();
  }

  @Test
  void attachmentDownload_streamsTheExactBytes_ofManyWindows_andGivesTheBudgetBack() throws Exception {
    try (TetherServer server = start(32L << 20); RawHttp http = new RawHttp(server.boundAddress())) {
      byte[] file = random(3 * FileAnswer.WINDOW_BYTES + 12_345, 7);
      assertEquals(201, http.send("POST", "/v1/instances/vm1/attachments" + SESSION + "&name=a.bin", "application/x-thing", file).status());
      RawHttp.Reply got = http.getLarge("/v1/instances/vm1/attachments/a.bin" + SESSION, 8 << 20);
      assertEquals(200, got.status(), got.body());
      assertArrayEquals(file, got.bytes());
      assertEquals(0, server.stats().egressBytes(), "every window given back");
      // An empty attachment is an empty 200 answer.
      assertEquals(201, http.send("POST", "/v1/instances/vm1/attachments" + SESSION + "&name=empty.txt", "text/plain", new byte[0]).status());
      RawHttp.Reply empty = http.get("/v1/instances/vm1/attachments/empty.txt" + SESSION);
      assertEquals(200, empty.status());
      assertEquals(0, empty.bytes().length);
    }
  }

  @Test
  void stalledReaders_holdOneWindowEach_aNewDownloadPastTheBudgetGets503_andLeavingGivesItBack() throws Exception {
    // Room for two windows: two stalled readers fill it.
    try (TetherServer server = start(2L * FileAnswer.WINDOW_BYTES); RawHttp http = new RawHttp(server.boundAddress())) {
      byte[] file = random(8 << 20, 3);
      assertEquals(201, http.send("POST", "/v1/instances/vm1/attachments" + SESSION + "&name=big.bin", null, file).status());
      List<RawSocket> stalled = new ArrayList<>();
      try {
        for (int i = 0; i < 2; i++) {
          RawSocket reader = RawSocket.connect(server.boundAddress(), 4096);
          reader.send(("GET /v1/instances/vm1/attachments/big.bin" + SESSION + " HTTP/1.1\r\nHost: x\r\n\r\n")
              .getBytes(StandardCharsets.US_ASCII));
          stalled.add(reader);
        }
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (server.stats().egressBytes() < 2L * FileAnswer.WINDOW_BYTES && System.nanoTime() < deadline) {
          Thread.sleep(20);
        }
        assertEquals(2L * FileAnswer.WINDOW_BYTES, server.stats().egressBytes(), "each stalled reader holds one window, not 8 MiB");
        RawHttp.Reply refused = http.get("/v1/instances/vm1/attachments/big.bin" + SESSION);
        assertEquals(503, refused.status(), refused.body());
        assertEquals("UNAVAILABLE", refused.errorCode());
      } finally {
        for (RawSocket s : stalled) {
          s.close();
        }
      }
      long deadline = System.nanoTime() + 10_000_000_000L;
      while (server.stats().egressBytes() > 0 && System.nanoTime() < deadline) {
        Thread.sleep(20);
      }
      assertEquals(0, server.stats().egressBytes(), "the readers that left gave their windows back");
      RawHttp.Reply whole = http.getLarge("/v1/instances/vm1/attachments/big.bin" + SESSION, 16 << 20);
      assertEquals(200, whole.status());
      assertArrayEquals(file, whole.bytes());
    }
  }

  /** A PNG of random pixels: it does not compress, so it is about {@code 3 * side * side} bytes. */
  static byte[] noisyPng(int side, long seed) throws Exception {
    java.awt.image.BufferedImage img = new java.awt.image.BufferedImage(side, side, java.awt.image.BufferedImage.TYPE_INT_RGB);
    Random r = new Random(seed);
    for (int y = 0; y < side; y++) {
      for (int x = 0; x < side; x++) {
        img.setRGB(x, y, r.nextInt(1 << 24));
      }
    }
    java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
    javax.imageio.ImageIO.write(img, "png", out);
    return out.toByteArray();
  }

  @Test
  void blobDownload_isVerifiedAndReservedWhole_aStalledReaderHoldsIt_andANewOnePastTheBudgetGets503() throws Exception {
    byte[] png = noisyPng(300, 5);
    assertTrue(png.length > EgressWrite.SMALL_ANSWER_BYTES, "large enough to be reserved: " + png.length);
    try (TetherServer server = start(png.length + png.length / 2); RawHttp http = new RawHttp(server.boundAddress())) {
      RawHttp.Reply put = http.send("POST", "/v1/instances/vm1/blob", "image/png", png);
      assertEquals(200, put.status(), put.body());
      String key = put.json().path("blob").asText();
      RawHttp.Reply got = http.getLarge("/v1/instances/vm1/blob/" + key, 16 << 20);
      assertEquals(200, got.status(), got.body());
      assertArrayEquals(png, got.bytes());
      assertEquals(0, server.stats().egressBytes(), "given back once written");

      try (RawSocket stalled = RawSocket.connect(server.boundAddress(), 4096)) {
        stalled.send(("GET /v1/instances/vm1/blob/" + key + " HTTP/1.1\r\nHost: x\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (server.stats().egressBytes() == 0 && System.nanoTime() < deadline) {
          Thread.sleep(20);
        }
        assertEquals(png.length, server.stats().egressBytes(), "the stalled reader holds the whole blob, reserved");
        RawHttp.Reply refused = http.get("/v1/instances/vm1/blob/" + key);
        assertEquals(503, refused.status(), refused.body());
        assertEquals("UNAVAILABLE", refused.errorCode());
      }
      long deadline = System.nanoTime() + 10_000_000_000L;
      while (server.stats().egressBytes() > 0 && System.nanoTime() < deadline) {
        Thread.sleep(20);
      }
      assertEquals(0, server.stats().egressBytes(), "the reader that left gave it back");
    }
  }
}
