package dev.tether.micrometer;

import dev.tether.store.FrameCounts;
import dev.tether.store.StoreListener;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * A {@link StoreListener} that maps a store to a {@link MeterRegistry}. Meters (tags {@code store},
 * {@code instance} bounded by {@link InstanceTags}, {@code type} one of
 * {@link FrameCounts#TYPES}):
 *
 * <ul>
 *   <li>{@code tether.frames.appended}, {@code tether.frames.appended.bytes} (instance, type)
 *   <li>{@code tether.frames.evicted}, {@code tether.frames.evicted.bytes} (instance)
 *   <li>{@code tether.gaps.served} (instance): answers with {@code gap: true}
 *   <li>{@code tether.wake.latency} timer (instance): from a stored frame to its waiter's completion
 *   <li>{@code tether.store.commit} timer (store only): a SQLite transaction or a JetStream publish
 *       until its acknowledgement
 * </ul>
 *
 * <p><b>Cost.</b> The five counters are {@link FunctionCounter}s: the store counts in its own
 * {@link FrameCounts} (plain stores under the lock an append already holds) and a counter sums the
 * counts of the instances that share its tag value when the registry is scraped, so an append
 * costs no meter at all. Only the two timers are recorded per event.
 *
 * <p><b>Lifetimes.</b> An instance's meters are registered when the store creates its state (so a
 * scrape shows them at 0 before the first frame), once per tag value; instances released by the
 * store (removed, freed as idle) keep their totals in their tag's counters, which therefore never
 * decrease (see {@link TagCounts}).
 *
 * <p>Thread-safe. Get one from {@link TetherMeters#storeListener(String)}, which hands out one per
 * store name: two of the same name in one registry would register the same counters, and only the
 * first would be read.
 */
public final class StoreMeters implements StoreListener {
  private final MeterRegistry registry;
  private final InstanceTags instances;
  private final String store;
  private final ConcurrentHashMap<String, PerTag> byTag = new ConcurrentHashMap<>();
  private final Timer commit;

  StoreMeters(MeterRegistry registry, InstanceTags instances, String store) {
    this.registry = Objects.requireNonNull(registry, "registry");
    this.instances = Objects.requireNonNull(instances, "instances");
    this.store = Objects.requireNonNull(store, "store");
    this.commit = Timer.builder("tether.store.commit").description("A journal commit or a JetStream publish until its ack")
        .tag("store", store).serviceLevelObjectives(Buckets.LATENCY).register(registry);
  }

  /**
   * The meters of one instance tag value, and the listener {@link #forInstance} hands a store for
   * each instance under it, so a wake costs no lookup. The instance argument of its methods is
   * ignored (it is the tag it was made for).
   */
  private final class PerTag implements StoreListener {
    final TagCounts counts = new TagCounts();
    final Timer wake;

    PerTag(String tag) {
      for (int i = 0; i < FrameCounts.TYPES.size(); i++) {
        int type = i;
        String typeName = FrameCounts.TYPES.get(i);
        FunctionCounter.builder("tether.frames.appended", counts, c -> c.appendedFrames(type)).description("Frames stored")
            .tags("store", store, "instance", tag, "type", typeName).register(registry);
        FunctionCounter.builder("tether.frames.appended.bytes", counts, c -> c.appendedBytes(type))
            .description("Payload bytes stored").baseUnit("bytes")
            .tags("store", store, "instance", tag, "type", typeName).register(registry);
      }
      FunctionCounter.builder("tether.frames.evicted", counts, TagCounts::evictedFrames)
          .description("Frames evicted by a cap or the store budget").tags("store", store, "instance", tag).register(registry);
      FunctionCounter.builder("tether.frames.evicted.bytes", counts, TagCounts::evictedBytes)
          .description("Payload bytes evicted").baseUnit("bytes").tags("store", store, "instance", tag).register(registry);
      FunctionCounter.builder("tether.gaps.served", counts, TagCounts::gapsServed)
          .description("Answers that reported evicted frames (gap: true)").tags("store", store, "instance", tag).register(registry);
      wake = Timer.builder("tether.wake.latency").description("From a stored frame to the completion of the wait it woke")
          .tags("store", store, "instance", tag).serviceLevelObjectives(Buckets.LATENCY).register(registry);
    }

    @Override
    public void released(String instance, FrameCounts released) {
      counts.release(released);
    }

    @Override
    public void woke(String instance, long nanos) {
      wake.record(nanos, TimeUnit.NANOSECONDS);
    }

    @Override
    public void committed(String storeName, int frames, long nanos) {
      StoreMeters.this.committed(storeName, frames, nanos);
    }
  }

  private PerTag of(String instance) {
    // The function counters hold their TagCounts weakly: the map keeps it (and the tag's meters) for good.
    return byTag.computeIfAbsent(instances.of(instance), PerTag::new);
  }

  /** Registers the instance's tag meters if new and starts reading {@code counts} into them. */
  @Override
  public StoreListener forInstance(String instance, FrameCounts counts) {
    PerTag p = of(instance);
    p.counts.add(Objects.requireNonNull(counts, "counts"));
    return p;
  }

  @Override
  public void released(String instance, FrameCounts counts) {
    of(instance).released(instance, counts);
  }

  @Override
  public void woke(String instance, long nanos) {
    of(instance).woke(instance, nanos);
  }

  @Override
  public void committed(String storeName, int frames, long nanos) {
    commit.record(nanos, TimeUnit.NANOSECONDS);
  }

  /** Instance states whose counts are read now under {@code tag} (released ones excluded); for tests. */
  int liveStates(String tag) {
    PerTag p = byTag.get(tag);
    return p == null ? 0 : p.counts.liveStates();
  }

  /** Latency buckets shared by the timers: 1 ms to 30 s. */
  static final class Buckets {
    static final Duration[] LATENCY = {Duration.ofMillis(1), Duration.ofMillis(5), Duration.ofMillis(10),
        Duration.ofMillis(50), Duration.ofMillis(100), Duration.ofMillis(500), Duration.ofSeconds(1),
        Duration.ofSeconds(5), Duration.ofSeconds(30)};

    private Buckets() {}
  }
}
