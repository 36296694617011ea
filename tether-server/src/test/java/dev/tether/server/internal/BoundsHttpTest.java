package dev.tether.server.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tether.api.Frames;
import dev.tether.api.SessionKey;
import dev.tether.client.HostAddress;
import dev.tether.server.TetherServer;
import dev.tether.server.testing.Fixtures;
import dev.tether.server.testing.RawHttp;
import dev.tether.server.testing.RawSocket;
import dev.tether.store.MemoryTetherStore;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Waits capped in all and per instance, answers within the egress budget, idle connections closed: over a real socket. */
class BoundsHttpTest {
  @TempDir Path dir;

  private TetherServer.Builder server(MemoryTetherStore store) {
    return TetherServer.builder().listen(new HostAddress.Unix(dir.resolve("t.sock"))).store(store)
        .workspaces(dir.resolve("ws")).autoCreate(true);
  }

  @Test
  void waitsPastThePerInstanceOrTotalCap_get503WithRetryAfter_othersAreServed() throws Exception {
    try (TetherServer s = server(MemoryTetherStore.create()).maxWaits(3, 2).start()) {
      HostAddress address = s.boundAddress();
      List<RawSocket> held = new ArrayList<>();
      try {
        for (String path : List.of("/v1/instances/a/tether/poll?wait_ms=20000", "/v1/instances/a/tether/stream")) {
          RawSocket c = RawSocket.connect(address);
          c.send(("GET " + path + " HTTP/1.1\r\nHost: x\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
          held.add(c);
        }
        awaitHeld(address, 2);
        RawSocket.Response third = RawSocket.exchange(address, "GET /v1/instances/a/tether/poll?wait_ms=20000 HTTP/1.1\r\nHost: x\r\n\r\n");
        assertEquals(503, third.status(), third.body());
        assertTrue(third.body().contains("UNAVAILABLE") && third.body().contains("instance 'a'"), third.body());
        assertTrue(third.headers().toLowerCase().contains("retry-after: 1"), third.headers());

        RawSocket other = RawSocket.connect(address);
        other.send("GET /v1/instances/b/tether/poll?wait_ms=20000 HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
        held.add(other);
        awaitHeld(address, 3);
        RawSocket.Response overTotal = RawSocket.exchange(address, "GET /v1/instances/c/tether/stream HTTP/1.1\r\nHost: x\r\n\r\n");
        assertEquals(503, overTotal.status(), overTotal.body());
        assertTrue(overTotal.body().contains("long-polls and streams"), overTotal.body());

        try (RawHttp http = new RawHttp(address)) {
          assertEquals(200, http.get("/v1/instances/c/tether/poll").status(), "a poll that does not wait takes no slot");
          assertEquals(202, http.post("/v1/instances/a/tether", Fixtures.wire(Fixtures.userMessage("s", "hi"))).status());
        }
      } finally {
        for (RawSocket c : held) {
          c.close();
        }
      }
    }
  }

  @Test
  void pollPagesPastTheEgressBudget_get503_whileOneAnswerIsHeld_andSmallAnswersStillFlow() throws Exception {
    MemoryTetherStore store = MemoryTetherStore.create();
    for (int i = 0; i < 4; i++) {
      store.append("big", Frames.assistantDone(SessionKey.host("s"), "m" + i, "x".repeat(1_500_000), List.of()));
    }
    try (TetherServer s = server(store).egressBytes(1 << 20).start()) {
      HostAddress address = s.boundAddress();
      // A reader that never reads holds its answer (6 MB) in the budget...
      try (RawSocket stalled = RawSocket.connect(address)) {
        stalled.send("GET /v1/instances/big/tether/poll?limit=200 HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
        Thread.sleep(500);
        try (RawHttp http = new RawHttp(address)) {
          // ... so another large answer is refused at once, with a code and a retry hint,
          RawHttp.Reply refused = http.get("/v1/instances/big/tether/poll?limit=200");
          assertEquals(503, refused.status(), refused.body().length() > 300 ? refused.body().substring(0, 300) : refused.body());
          assertEquals("UNAVAILABLE", refused.errorCode());
          // while small answers do not wait for it.
          assertEquals(202, http.post("/v1/instances/small/tether", Fixtures.wire(Fixtures.userMessage("s", "hi"))).status());
          assertEquals(1, http.get("/v1/instances/small/tether/poll").json().get("frames").size());
        }
      }
      // Once the stalled reader is gone its reservation is given back.
      RawSocket.Response served = null;
      for (int i = 0; i < 100 && (served == null || served.status() != 200); i++) {
        served = RawSocket.exchange(address, "GET /v1/instances/big/tether/poll?limit=200 HTTP/1.1\r\nHost: x\r\n\r\n");
        Thread.sleep(50);
      }
      assertEquals(200, served.status());
      assertTrue(served.body().length() > 6_000_000 && served.body().contains("\"next_seq\":4"), "all four frames, once the reader left");
    }
  }

  @Test
  void connectionThatNeverSendsAWholeRequest_isClosedAfterTheHeaderTimeout() throws Exception {
    try (TetherServer s = server(MemoryTetherStore.create()).timeouts(Duration.ofSeconds(1), Duration.ofSeconds(40)).start();
        RawSocket partial = RawSocket.connect(s.boundAddress())) {
      partial.send("GET /v1/health HTTP/1.1\r\nHo".getBytes(StandardCharsets.US_ASCII));
      long t0 = System.nanoTime();
      assertTrue(partial.awaitClosed(10_000), "the server closes a connection stuck in its headers");
      long ms = (System.nanoTime() - t0) / 1_000_000;
      assertTrue(ms >= 500 && ms < 9_000, "closed after about the header timeout, not at once and not never: " + ms + " ms");
    }
  }

  @Test
  void badBounds_failFastNamingTheSetting() {
    IllegalArgumentException idle = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
        () -> TetherServer.builder().timeouts(Duration.ofSeconds(5), Duration.ofSeconds(20)));
    assertTrue(idle.getMessage().contains("requestIdleTimeout must be at least 35 s"), idle.getMessage());
    assertTrue(org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
        () -> TetherServer.builder().maxWaits(0, 1)).getMessage().contains("maxWaits"));
  }

  private static void awaitHeld(HostAddress address, int n) throws Exception {
    try (RawHttp http = new RawHttp(address)) {
      int waits = -1;
      for (int i = 0; i < 400 && waits < n; i++) {
        waits = http.get("/v1/health").json().get("waits").asInt();
        Thread.sleep(10);
      }
      assertEquals(n, waits);
    }
  }
}
