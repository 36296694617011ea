package dev.tether.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tether.client.HostAddress;
import dev.tether.server.testing.RawHttp;
import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 31's download finding against a real {@code serve -Xmx256m}: a 20 MiB attachment, then 24
 * readers that GET it on connections with a 4 KiB receive buffer and never read. Before the egress
 * budget covered downloads, each GET read the whole file into one array and the daemon died of
 * OutOfMemoryError (18 were enough); now each stalled reader holds one window of the egress budget,
 * the daemon keeps serving (health, a whole download byte for byte), the stalled readers are cut
 * after the request idle timeout, and the budget in use returns to 0 (the egress gauge of
 * {@code --metrics}).
 */
class EgressDownloadsServeTest {
  private static final int STALLED = 24;
  private static final int SIZE = 20 << 20;
  private static final int IDLE_SECONDS = 35;

  @TempDir Path dir;

  @Test
  void twentyFourStalledAttachmentReaders_daemonStaysUp_readersAreCut_andTheBudgetReturnsToZero() throws Exception {
    Path socket = dir.resolve("t.sock");
    HostAddress.Unix address = new HostAddress.Unix(socket);
    byte[] file = new byte[SIZE];
    new Random(31).nextBytes(file);
    try (ChildJvm serve = ChildJvm.startWith(dir, "serve", Map.of(), List.of("-Xmx256m"),
        "serve", "--socket", socket.toString(), "--instance", "vm1", "--workspaces", dir.resolve("ws").toString(),
        "--request-idle-timeout", String.valueOf(IDLE_SECONDS), "--metrics", "127.0.0.1:0");
        RawHttp http = new RawHttp(address)) {
      int metrics = Integer.parseInt(serve.awaitStderr("metrics: http://127\\.0\\.0\\.1:(\\d+)/metrics", 60_000).group(1));
      serve.awaitStderr("listening on", 60_000);
      RawHttp.Reply put = http.send("POST", "/v1/instances/vm1/attachments?session_id=s&name=big.bin", "application/octet-stream", file);
      assertEquals(201, put.status(), put.body());

      String get = "GET /v1/instances/vm1/attachments/big.bin?session_id=s HTTP/1.1\r\nHost: x\r\n\r\n";
      List<SocketChannel> stalled = new ArrayList<>();
      try {
        for (int i = 0; i < STALLED; i++) {
          SocketChannel reader = SocketChannel.open(StandardProtocolFamily.UNIX);
          reader.setOption(java.net.StandardSocketOptions.SO_RCVBUF, 4096);
          reader.connect(UnixDomainSocketAddress.of(socket));
          reader.write(ByteBuffer.wrap(get.getBytes(StandardCharsets.US_ASCII)));
          stalled.add(reader);
          Thread.sleep(50);
        }
        Thread.sleep(2000); // every stalled answer goes as far as it can
        assertEquals(200, http.get("/v1/health").status(), "the daemon answers while " + STALLED + " readers stall");
        RawHttp.Reply whole = http.getLarge("/v1/instances/vm1/attachments/big.bin?session_id=s", SIZE + 1024);
        assertEquals(200, whole.status(), whole.body());
        assertArrayEquals(file, whole.bytes(), "a reader that reads gets the exact bytes");
        String log = serve.stderrText();
        assertFalse(log.contains("OutOfMemoryError") || log.contains("out of memory"), log);
        double held = Scrape.of(metrics).require("tether_egress_bytes_used", Map.of());
        assertTrue(held > 0 && held <= STALLED * 256.0 * 1024, "each stalled reader holds at most one window: " + held);

        // Cut after the request idle timeout: the budget they held goes back to 0.
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(IDLE_SECONDS + 40);
        double used = held;
        while (used > 0 && System.nanoTime() < deadline) {
          Thread.sleep(500);
          used = Scrape.of(metrics).require("tether_egress_bytes_used", Map.of());
        }
        assertEquals(0.0, used, "the stalled readers gave their windows back");
        for (SocketChannel reader : stalled) {
          long got = drainUntilClosed(reader, 20_000);
          assertTrue(got >= 0 && got < SIZE, "a stalled reader was cut before the end of the file: " + got + " bytes");
        }
      } finally {
        for (SocketChannel reader : stalled) {
          reader.close();
        }
      }
      String log = serve.stderrText();
      assertFalse(log.contains("OutOfMemoryError") || log.contains("out of memory"), log);
      assertEquals(200, http.get("/v1/health").status(), "alive after the readers were cut");
    }
  }

  /** Reads what is left on {@code ch} until the server's close; its byte count, or -1 when still open after {@code timeoutMs}. */
  private static long drainUntilClosed(SocketChannel ch, long timeoutMs) throws Exception {
    CompletableFuture<Long> f = CompletableFuture.supplyAsync(() -> {
      ByteBuffer b = ByteBuffer.allocate(64 * 1024);
      long total = 0;
      try {
        int n;
        while ((n = ch.read(b)) >= 0) {
          total += n;
          b.clear();
        }
      } catch (IOException e) {
        // reset by the server: closed too
      }
      return total;
    });
    try {
      return f.get(timeoutMs, TimeUnit.MILLISECONDS);
    } catch (java.util.concurrent.TimeoutException e) {
      ch.close();
      return -1;
    }
  }
}
