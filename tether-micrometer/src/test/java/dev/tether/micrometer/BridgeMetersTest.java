package dev.tether.micrometer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tether.coven.CovenListener;
import dev.tether.server.ServerListener;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The bridge and server binders map their listener calls onto the documented meters. */
class BridgeMetersTest {
  @Test
  void telegram_countsAndReadinessFollowTheLastPoll() {
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    TelegramMeters t = TetherMeters.of(registry).telegramListener();
    assertFalse(t.readiness().ready(), "not ready before getUpdates answered");
    t.answered("getUpdates", true);
    t.updatesReceived(3);
    t.sent("sendMessage");
    t.sent("sendPhoto");
    t.sent("sendMessage");
    t.rateLimited("sendMessage", 7);
    assertTrue(t.readiness().ready());
    t.answered("getUpdates", false);
    assertFalse(t.readiness().ready());
    assertEquals(3.0, registry.get("tether.telegram.updates").counter().count());
    assertEquals(2.0, registry.get("tether.telegram.messages.sent").tag("method", "sendMessage").counter().count());
    assertEquals(1.0, registry.get("tether.telegram.ratelimited").tag("method", "sendMessage").counter().count());
    assertEquals(7.0, registry.get("tether.telegram.ratelimited.seconds").counter().count());
  }

  @Test
  void coven_countsTerminalKindsAndReconnects_andPassesEventsOn() {
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    List<String> seen = new ArrayList<>();
    CovenMeters c = TetherMeters.of(registry).covenListener(new CovenListener() {
      @Override
      public void onRequestEnded(String requestId, String outcome) {
        seen.add(requestId + " " + outcome);
      }
    });
    c.onRegistered(null);
    assertTrue(c.readiness().ready());
    c.onRequest("r1", "t", 0);
    c.onRequestEnded("r1", "done");
    c.onRequest("r2", "t", 0);
    c.onRequestEnded("r2", "error: INTERNAL: boom");
    c.onDisconnected("gateway went away", Duration.ofSeconds(1));
    assertFalse(c.readiness().ready());
    assertEquals(2.0, registry.get("tether.coven.requests").counter().count());
    assertEquals(1.0, registry.get("tether.coven.terminal").tag("kind", "done").counter().count());
    assertEquals(1.0, registry.get("tether.coven.terminal").tag("kind", "error").counter().count());
    assertEquals(1.0, registry.get("tether.coven.reconnects").counter().count());
    assertEquals(List.of("r1 done", "r2 error: INTERNAL: boom"), seen);
  }

  @Test
  void server_requestsByRouteAndRefusedByCode() {
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    ServerListener s = TetherMeters.of(registry).serverListener();
    s.requested("/v1/instances/{id}/tether", "POST", 202, 2_000_000);
    s.requested("/v1/instances/{id}/tether", "POST", 202, 4_000_000);
    s.frameRefused("vm1", dev.tether.api.ErrorCode.MALFORMED_FRAME);
    assertEquals(2, registry.get("tether.http.requests").tags("route", "/v1/instances/{id}/tether", "method", "POST", "status", "202")
        .timer().count());
    assertEquals(1.0, registry.get("tether.frames.refused").tags("instance", InstanceTags.OTHER, "code", "MALFORMED_FRAME")
        .counter().count());
  }
}
