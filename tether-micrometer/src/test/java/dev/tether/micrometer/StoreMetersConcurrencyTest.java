package dev.tether.micrometer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tether.api.Frame;
import dev.tether.api.RawJson;
import dev.tether.api.SessionKey;
import dev.tether.store.FrameCounts;
import dev.tether.store.FrameQuery;
import dev.tether.store.MemoryTetherStore;
import dev.tether.store.Retention;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * Real threads on a real memory store: appenders, a reader that hits gaps, a remover that deletes
 * the instances again and again (each removal releases a state's counts into its tag's totals) and
 * a scraper reading the function counters all along. Every count the scraper reads is at least the
 * one it read before, and at the end the counters hold exactly what the threads did. Bounded loops,
 * no clock.
 */
class StoreMetersConcurrencyTest {
  private static final int APPENDERS = 3;
  private static final int APPENDS_EACH = 3_000;
  private static final List<String> INSTANCES = List.of("vm1", "vm2", "vm3");
  private static final String[] TYPES = {"user.message", "assistant.done", "x.custom"};

  @Test
  void appendsQueriesRemovalsAndScrapes_concurrently_countersAreMonotonicAndExact() throws Exception {
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    TetherMeters meters = TetherMeters.of(registry).instanceTags(InstanceTags.only(Set.of("vm1")));
    StoreMeters listener = meters.storeListener("memory");
    ConcurrentLinkedQueue<Throwable> errors = new ConcurrentLinkedQueue<>();
    AtomicLong gapsSeen = new AtomicLong();
    AtomicBoolean appending = new AtomicBoolean(true);
    long[][] appendedByType = new long[APPENDERS][TYPES.length];
    long[][] bytesByType = new long[APPENDERS][TYPES.length];
    try (MemoryTetherStore store = MemoryTetherStore.builder().listener(listener)
        .retention(Retention.builder().maxFrames(4).build()).build()) {
      CountDownLatch start = new CountDownLatch(1);
      List<Thread> threads = new ArrayList<>();
      List<Thread> appenders = new ArrayList<>();
      for (int a = 0; a < APPENDERS; a++) {
        int id = a;
        Thread t = thread("appender-" + a, errors, start, () -> {
          for (int i = 0; i < APPENDS_EACH; i++) {
            int type = (i + id) % TYPES.length;
            Frame f = Frame.builder(TYPES[type]).session(SessionKey.host("s" + (i % 2)))
                .payload(RawJson.of("{\"n\":" + i + "}")).build();
            store.append(INSTANCES.get(i % INSTANCES.size()), f);
            appendedByType[id][type]++;
            bytesByType[id][type] += f.payload().size();
          }
        });
        appenders.add(t);
        threads.add(t);
      }
      threads.add(thread("reader", errors, start, () -> {
        while (appending.get()) {
          for (String instance : INSTANCES) {
            if (store.query(instance, FrameQuery.builder().afterSeq(0).build()).gap()) {
              gapsSeen.incrementAndGet();
            }
          }
        }
      }));
      threads.add(thread("remover", errors, start, () -> {
        while (appending.get()) {
          for (String instance : INSTANCES) {
            store.remove(instance);
          }
        }
      }));
      threads.add(thread("scraper", errors, start, () -> {
        java.util.Map<io.micrometer.core.instrument.Meter.Id, Double> last = new java.util.HashMap<>();
        while (appending.get()) {
          for (io.micrometer.core.instrument.Meter m : registry.getMeters()) {
            if (!(m instanceof io.micrometer.core.instrument.FunctionCounter c)) {
              continue;
            }
            double now = c.count();
            Double before = last.put(c.getId(), now);
            if (before != null && now < before) {
              throw new AssertionError(c.getId() + " went from " + before + " down to " + now);
            }
          }
        }
      }));
      for (Thread t : threads) {
        t.start();
      }
      start.countDown();
      for (Thread t : appenders) {
        t.join();
      }
      appending.set(false);
      for (Thread t : threads) {
        t.join();
      }
      assertTrue(errors.isEmpty(), () -> "failures: " + errors);

      for (int type = 0; type < TYPES.length; type++) {
        long frames = 0;
        long bytes = 0;
        for (int a = 0; a < APPENDERS; a++) {
          frames += appendedByType[a][type];
          bytes += bytesByType[a][type];
        }
        String tag = type == 2 ? "other" : TYPES[type];
        assertEquals((double) frames, sumOverInstances(registry, "tether.frames.appended", tag), TYPES[type]);
        assertEquals((double) bytes, sumOverInstances(registry, "tether.frames.appended.bytes", tag), TYPES[type]);
      }
      assertEquals((double) gapsSeen.get(), scrape(registry)[4], "every gap:true answer counted once");
    }
    // Closed: every state released, totals unchanged and exact.
    assertEquals(0, listener.liveStates("vm1") + listener.liveStates(InstanceTags.OTHER));
    assertEquals((double) APPENDERS * APPENDS_EACH, scrape(registry)[0]);
    assertEquals((double) gapsSeen.get(), scrape(registry)[4]);
  }

  /** Appended frames (all types), appended bytes, evicted frames, evicted bytes, gaps: summed over tags. */
  private static double[] scrape(SimpleMeterRegistry registry) {
    double[] out = new double[5];
    out[0] = registry.find("tether.frames.appended").functionCounters().stream().mapToDouble(c -> c.count()).sum();
    out[1] = registry.find("tether.frames.appended.bytes").functionCounters().stream().mapToDouble(c -> c.count()).sum();
    out[2] = registry.find("tether.frames.evicted").functionCounters().stream().mapToDouble(c -> c.count()).sum();
    out[3] = registry.find("tether.frames.evicted.bytes").functionCounters().stream().mapToDouble(c -> c.count()).sum();
    out[4] = registry.find("tether.gaps.served").functionCounters().stream().mapToDouble(c -> c.count()).sum();
    return out;
  }

  private static double sumOverInstances(SimpleMeterRegistry registry, String name, String type) {
    assertTrue(FrameCounts.TYPES.contains(type));
    return registry.find(name).tag("type", type).functionCounters().stream().mapToDouble(c -> c.count()).sum();
  }

  private static Thread thread(String name, ConcurrentLinkedQueue<Throwable> errors, CountDownLatch start, Runnable body) {
    return new Thread(() -> {
      try {
        start.await();
        body.run();
      } catch (Throwable e) {
        errors.add(e);
      }
    }, name);
  }
}
