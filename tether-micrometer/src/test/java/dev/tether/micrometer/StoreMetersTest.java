package dev.tether.micrometer;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.tether.api.Frame;
import dev.tether.api.RawJson;
import dev.tether.api.SessionKey;
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

/** A real memory store bound to a SimpleMeterRegistry: each meter has the value the workload implies. */
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

      assertEquals(1.0, registry.get("tether.frames.appended").tags("instance", "vm1", "type", "user.message", "store", "memory").counter().count());
      assertEquals(2.0, registry.get("tether.frames.appended").tags("instance", "vm1", "type", "assistant.done").counter().count());
      assertEquals(2.0 * size, registry.get("tether.frames.appended.bytes").tags("instance", "vm1", "type", "assistant.done").counter().count());
      assertEquals(2.0, registry.get("tether.frames.appended").tags("instance", InstanceTags.OTHER, "type", "other").counter().count(),
          "vm2 and vm3 did not opt in; x.custom is not a wire type");
      assertEquals(1.0, registry.get("tether.frames.evicted").tags("instance", "vm1").counter().count());
      assertEquals((double) size, registry.get("tether.frames.evicted.bytes").tags("instance", "vm1").counter().count());
      assertEquals(1.0, registry.get("tether.gaps.served").tags("instance", "vm1").counter().count());
      while (registry.get("tether.wake.latency").tags("instance", "vm1").timer().count() < 1) {
        Thread.onSpinWait(); // told just after the waiter's future completes
      }
      assertEquals(1, registry.get("tether.wake.latency").tags("instance", "vm1").timer().count());
    }
  }
}
