package dev.tether.micrometer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tether.api.Frame;
import dev.tether.api.RawJson;
import dev.tether.api.SessionKey;
import dev.tether.store.FrameCounts;
import dev.tether.store.FrameQuery;
import dev.tether.store.MemoryTetherStore;
import dev.tether.store.QueryResult;
import dev.tether.store.Retention;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A real memory store bound to a SimpleMeterRegistry: each meter has the value the workload implies.
 * The counters are function counters reading the store's own counts at scrape.
 */
class StoreMetersTest {
  private static Frame frame(String type, String text) {
    return Frame.builder(type).session(SessionKey.host("s")).payload(RawJson.of("{\"text\":\"" + text + "\"}")).build();
  }

  @Test
  void workload_appendsEvictionsGapsAndWakes_areCountedPerBoundedInstanceAndType() throws Exception {
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    TetherMeters meters = TetherMeters.of(registry).instanceTags(InstanceTags.only(Set.of("vm1")));
    try (MemoryTetherStore store = MemoryTetherStore.builder().listener(meters.storeListener("memory"))
        .retention(Retention.builder().maxFrames(2).build()).build()) {
      CompletableFuture<QueryResult> wait = store.waitForFrames("vm1", FrameQuery.builder().build(), Duration.ofSeconds(30));
      store.append("vm1", frame("user.message", "a"));
      store.append("vm1", frame("assistant.done", "b"));
      store.append("vm1", frame("assistant.done", "c"));
      store.append("vm2", frame("x.custom", "d"));
      store.append("vm3", frame("x.custom", "e"));
      assertEquals(1, wait.get(5, TimeUnit.SECONDS).frames().size());
      store.query("vm1", FrameQuery.builder().afterSeq(0).build());
      long size = frame("user.message", "a").payload().size();

      assertEquals(1.0, registry.get("tether.frames.appended").tags("instance", "vm1", "type", "user.message", "store", "memory").functionCounter().count());
      assertEquals(2.0, registry.get("tether.frames.appended").tags("instance", "vm1", "type", "assistant.done").functionCounter().count());
      assertEquals(2.0 * size, registry.get("tether.frames.appended.bytes").tags("instance", "vm1", "type", "assistant.done").functionCounter().count());
      assertEquals(2.0, registry.get("tether.frames.appended").tags("instance", InstanceTags.OTHER, "type", "other").functionCounter().count(),
          "vm2 and vm3 did not opt in; x.custom is not a wire type");
      assertEquals(1.0, registry.get("tether.frames.evicted").tags("instance", "vm1").functionCounter().count());
      assertEquals((double) size, registry.get("tether.frames.evicted.bytes").tags("instance", "vm1").functionCounter().count());
      assertEquals(1.0, registry.get("tether.gaps.served").tags("instance", "vm1").functionCounter().count());
      while (registry.get("tether.wake.latency").tags("instance", "vm1").timer().count() < 1) {
        Thread.onSpinWait(); // told just after the waiter's future completes
      }
      assertEquals(1, registry.get("tether.wake.latency").tags("instance", "vm1").timer().count());
    }
  }

  @Test
  void instanceState_created_hasItsMetersAtZero_beforeItsFirstFrame() {
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    TetherMeters meters = TetherMeters.of(registry).instanceTags(InstanceTags.only(Set.of("vm1")));
    try (MemoryTetherStore store = MemoryTetherStore.builder().listener(meters.storeListener("memory")).build()) {
      assertTrue(registry.find("tether.frames.appended").tags("instance", "vm1").functionCounters().isEmpty());
      store.waitForFrames("vm1", FrameQuery.builder().build(), Duration.ofSeconds(30));
      for (String type : FrameCounts.TYPES) {
        assertEquals(0.0, registry.get("tether.frames.appended").tags("instance", "vm1", "type", type).functionCounter().count());
        assertEquals(0.0, registry.get("tether.frames.appended.bytes").tags("instance", "vm1", "type", type).functionCounter().count());
      }
      assertEquals(0.0, registry.get("tether.frames.evicted").tags("instance", "vm1").functionCounter().count());
      assertEquals(0.0, registry.get("tether.frames.evicted.bytes").tags("instance", "vm1").functionCounter().count());
      assertEquals(0.0, registry.get("tether.gaps.served").tags("instance", "vm1").functionCounter().count());
      assertEquals(0, registry.get("tether.wake.latency").tags("instance", "vm1").timer().count());
    }
  }

  @Test
  void removedAndFreedInstances_keepTheirCounts_countersNeverDecrease() {
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    TetherMeters meters = TetherMeters.of(registry).instanceTags(InstanceTags.only(Set.of("vm1")));
    StoreMeters listener = meters.storeListener("memory");
    try (MemoryTetherStore store = MemoryTetherStore.builder().listener(listener)
        .retention(Retention.builder().maxFrames(1).build()).build()) {
      store.append("vm1", frame("user.message", "a"));
      store.append("vm1", frame("user.message", "b"));
      store.query("vm1", FrameQuery.builder().afterSeq(0).build());
      store.append("vm2", frame("user.message", "c"));
      assertTrue(store.remove("vm1"));
      assertTrue(store.remove("vm2"));
      assertEquals(0, listener.liveStates("vm1"));
      assertEquals(0, listener.liveStates(InstanceTags.OTHER));
      long size = frame("user.message", "a").payload().size();
      assertEquals(2.0, appended(registry, "vm1"), "a removed instance keeps its count");
      assertEquals(2.0 * size, registry.get("tether.frames.appended.bytes").tags("instance", "vm1", "type", "user.message").functionCounter().count());
      assertEquals(1.0, registry.get("tether.frames.evicted").tags("instance", "vm1").functionCounter().count());
      assertEquals((double) size, registry.get("tether.frames.evicted.bytes").tags("instance", "vm1").functionCounter().count());
      assertEquals(1.0, registry.get("tether.gaps.served").tags("instance", "vm1").functionCounter().count());
      assertEquals(1.0, appended(registry, InstanceTags.OTHER));

      store.append("vm1", frame("user.message", "d")); // a new history: new state, new counts
      assertEquals(3.0, appended(registry, "vm1"), "the new history adds to the old total");
      assertEquals(1, listener.liveStates("vm1"));
      CompletableFuture<QueryResult> w = store.waitForFrames("vm3", FrameQuery.builder().build(), Duration.ofSeconds(30));
      w.cancel(false); // vm3 held nothing: freed as idle, released
      assertEquals(0, listener.liveStates(InstanceTags.OTHER));
      assertEquals(1.0, appended(registry, InstanceTags.OTHER));
    }
    assertEquals(3.0, appended(registry, "vm1"), "closing the store keeps the totals");
    assertEquals(0, listener.liveStates("vm1"));
  }

  @Test
  void sameStoreName_sameListener() {
    TetherMeters meters = TetherMeters.of(new SimpleMeterRegistry());
    assertSame(meters.storeListener("memory"), meters.storeListener("memory"));
  }

  private static double appended(SimpleMeterRegistry registry, String instance) {
    return registry.get("tether.frames.appended").tags("instance", instance, "type", "user.message").functionCounter().count();
  }
}
