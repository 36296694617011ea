package dev.tether.server.internal;

import dev.tether.server.testing.RawSocket;
import dev.tether.server.testing.RawHttp;
import dev.tether.server.testing.Fixtures;
import dev.tether.client.HostAddress;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tether.images.FrameValidator;
import dev.tether.store.MemoryTetherStore;
import dev.tether.store.Retention;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The store's budget and instance cap reach HTTP clients as JSON 507 / 503, never a hang. */
class StoreLimitsHttpTest {
  @TempDir Path dir;

  private static byte[] frame(String text) {
    return Fixtures.utf8("{\"v\":1,\"type\":\"user.message\",\"payload\":{\"text\":\"" + text + "\"}}");
  }

  @Test
  void instanceCapReached_newInstance503TooManyInstances_oldOnesStillServed() throws Exception {
    HostAddress.Unix a = new HostAddress.Unix(dir.resolve("t.sock"));
    MemoryTetherStore store = MemoryTetherStore.builder().maxInstances(2).build();
    try (Daemon server = Daemon.start(a, store, null, 8); RawHttp http = new RawHttp(a)) {
      assertEquals(202, http.post("/v1/instances/a/tether", frame("x")).status());
      assertEquals(202, http.post("/v1/instances/b/tether", frame("x")).status());
      RawHttp.Reply third = http.post("/v1/instances/c/tether", frame("x"));
      assertEquals(503, third.status(), third.body());
      assertEquals("TOO_MANY_INSTANCES", third.errorCode());
      RawHttp.Reply poll = http.get("/v1/instances/d/tether/poll?wait_ms=0");
      assertTrue(poll.status() == 503 || poll.status() == 200, poll.body());
      if (poll.status() == 503) {
        assertEquals("TOO_MANY_INSTANCES", poll.errorCode());
      }
      assertEquals(202, http.post("/v1/instances/a/tether", frame("y")).status());
    }
  }

  @Test
  void storeBudgetUsedUp_post507StoreFull() throws Exception {
    HostAddress.Unix a = new HostAddress.Unix(dir.resolve("t.sock"));
    // Each instance keeps its last frame, so two instances of ~3 KiB fill a 5 KiB budget.
    MemoryTetherStore store = MemoryTetherStore.builder().maxTotalBytes(5 * 1024)
        .retention(Retention.builder().maxBytes(5 * 1024).build()).build();
    String text = "a".repeat(3000);
    try (Daemon server = Daemon.start(a, store, FrameValidator.standard(), null, 8);
        RawHttp http = new RawHttp(a)) {
      assertEquals(202, http.post("/v1/instances/a/tether", frame(text)).status());
      RawHttp.Reply full = http.post("/v1/instances/b/tether", frame(text));
      assertEquals(507, full.status(), full.body());
      assertEquals("STORE_FULL", full.errorCode());
      assertEquals(200, http.get("/v1/health").status());
    }
  }

  @Test
  void ingressBudgetUsedUp_large503Unavailable_andTheNextRequestIsServed() throws Exception {
    HostAddress.Unix a = new HostAddress.Unix(dir.resolve("t.sock"));
    // Room for one body of up to 16 KiB at a time: a second one arriving meanwhile is refused.
    try (Daemon server = Daemon.start(a, MemoryTetherStore.create(), FrameValidator.standard(), null, 8,
        BodyReader.reservation(16 * 1024, Integer.MAX_VALUE));
        RawSocket slow = RawSocket.connect(a)) {
      slow.send(Fixtures.utf8("POST /v1/instances/a/tether HTTP/1.1\r\nHost: x\r\nContent-Length: 16000\r\n\r\n{"));
      Thread.sleep(200); // the first body is being read and holds the budget
      String body = new String(frame("x"), java.nio.charset.StandardCharsets.UTF_8);
      RawSocket.Response r = RawSocket.exchange(a, "POST /v1/instances/b/tether HTTP/1.1\r\nHost: x\r\nContent-Length: "
          + body.length() + "\r\n\r\n" + body);
      assertEquals(503, r.status(), r.body());
      assertEquals("UNAVAILABLE", Json.MAPPER.readTree(r.body()).path("error").path("code").asText());
      slow.close();
      RawSocket.Response ok = null;
      for (int i = 0; i < 100; i++) {
        ok = RawSocket.exchange(a, "POST /v1/instances/b/tether HTTP/1.1\r\nHost: x\r\nContent-Length: "
            + body.length() + "\r\n\r\n" + body);
        if (ok.status() == 200) {
          break;
        }
        Thread.sleep(50);
      }
      assertEquals(202, ok.status(), "the budget is released when the cut-short body ends: " + ok.body());
    }
  }
}
