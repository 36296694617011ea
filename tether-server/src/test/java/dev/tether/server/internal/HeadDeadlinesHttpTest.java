package dev.tether.server.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;

import dev.tether.client.HostAddress;
import dev.tether.server.TetherServer;
import dev.tether.server.testing.RawSocket;
import dev.tether.store.MemoryTetherStore;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link HeadDeadlines} over a real socket: a head that trickles is cut at the header timeout
 * however often bytes come, on a fresh and on a kept-alive connection; a request past its head is
 * not; trickling connections past the cap close the oldest, so a whole request still gets in.
 */
class HeadDeadlinesHttpTest {
  private static final String TOKEN = "t".repeat(40);
  @TempDir Path dir;

  private TetherServer.Builder server() {
    return TetherServer.builder().listen(new HostAddress.Unix(dir.resolve("t.sock"))).store(MemoryTetherStore.create())
        .workspaces(dir.resolve("ws")).autoCreate(true).timeouts(Duration.ofSeconds(1), Duration.ofSeconds(60));
  }

  @Test
  void aTrickledHead_isCutAtTheHeaderTimeout_thoughBytesKeepComing() throws Exception {
    try (TetherServer s = server().start(); RawSocket c = RawSocket.connect(s.boundAddress())) {
      long start = System.nanoTime();
      c.send("GET /v1/health HTTP/1.1\r\n".getBytes(StandardCharsets.US_ASCII));
      assertTrue(trickleUntilClosed(c, 200, 6_000), "still open 6 s after the 1 s header timeout");
      long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
      assertTrue(ms >= 900 && ms < 2_500, "closed at the deadline, after " + ms + " ms");
    }
  }

  @Test
  void aKeptAliveConnection_getsTheSameDeadlineForItsNextHead() throws Exception {
    try (TetherServer s = server().start(); RawSocket c = RawSocket.connect(s.boundAddress())) {
      c.send("GET /v1/health HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
      assertEquals(200, c.readResponse(5_000).status());
      long start = System.nanoTime();
      c.send("GET /v1/health HTTP/1.1\r\n".getBytes(StandardCharsets.US_ASCII));
      assertTrue(trickleUntilClosed(c, 200, 6_000), "the second head may trickle no longer than the first");
      assertTrue(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start) < 2_500);
    }
  }

  @Test
  void aRequestPastItsHead_isNotCut() throws Exception {
    try (TetherServer s = server().start(); RawSocket c = RawSocket.connect(s.boundAddress())) {
      c.send("GET /v1/instances/a/tether/poll?wait_ms=2500 HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
      RawSocket.Response r = c.readResponse(10_000);
      assertEquals(200, r.status(), r.body());
      assertTrue(r.body().contains("\"timed_out\":true"), r.body());
    }
  }

  @Test
  void tricklersPastTheCap_closeTheOldest_soAWholeRequestGetsIn() throws Exception {
    // On TCP, as serve --listen: a Unix socket refuses connect() at once while the connection cap is reached.
    try (TetherServer s = server().listen(new HostAddress.Tcp("127.0.0.1", 0)).token(TOKEN)
        .timeouts(Duration.ofSeconds(30), Duration.ofSeconds(60)).maxConnections(20).start()) {
      HostAddress address = s.boundAddress();
      List<RawSocket> tricklers = new ArrayList<>();
      try {
        for (int i = 0; i < 20; i++) {
          RawSocket t = RawSocket.connect(address);
          t.send("GET /v1/health HTTP/1.1\r\nX-Slow: 1\r\n".getBytes(StandardCharsets.US_ASCII));
          tricklers.add(t);
        }
        for (int i = 0; i < 5; i++) {
          long start = System.nanoTime();
          RawSocket.Response r = RawSocket.exchange(address, "GET /v1/health HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " + TOKEN
              + "\r\nConnection: close\r\n\r\n");
          assertEquals(200, r.status(), r.body());
          assertTrue(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start) < 2_000, "answered at once");
        }
      } finally {
        for (RawSocket t : tricklers) {
          t.close();
        }
      }
    }
  }

  @Test
  void headConnections_areAtMostTheConnections_andHalfByDefault() {
    qt().forAll(integers().between(1, 100_000), integers().between(1, 200_000)).checkAssert((connections, inHead) -> {
      Bounds b = Bounds.defaults().withMaxConnections(connections);
      assertEquals(Math.max(1, connections / 2), b.maxHeadConnections());
      assertTrue(b.maxHeadConnections() <= b.maxConnections());
      if (inHead <= connections) {
        assertEquals(inHead, Bounds.defaults().withMaxConnections(connections, inHead).maxHeadConnections());
      } else {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> Bounds.defaults().withMaxConnections(connections, inHead));
        assertTrue(e.getMessage().contains("maxHeadConnections must be <= maxConnections (" + connections + ") but was " + inHead),
            e.getMessage());
      }
    });
    assertThrows(IllegalArgumentException.class, () -> TetherServer.builder().maxHeadConnections(0));
  }

  /** Sends a header line every {@code everyMs} until the server closes; true when it did within {@code withinMs}. */
  private static boolean trickleUntilClosed(RawSocket c, long everyMs, long withinMs) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(withinMs);
    java.util.concurrent.CompletableFuture<Boolean> closed = java.util.concurrent.CompletableFuture.supplyAsync(() -> {
      try {
        return c.awaitClosed(withinMs);
      } catch (Exception e) {
        return true;
      }
    });
    int n = 0;
    while (System.nanoTime() < deadline && !closed.isDone()) {
      try {
        c.send(("X-Line-" + n++ + ": a\r\n").getBytes(StandardCharsets.US_ASCII));
      } catch (java.io.IOException e) {
        break; // closed by the server
      }
      Thread.sleep(everyMs);
    }
    return closed.get(withinMs + 1_000, TimeUnit.MILLISECONDS);
  }
}
