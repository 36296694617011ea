package dev.tether.micrometer;

import dev.tether.store.StoreListener;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * A {@link StoreListener} that records into a {@link MeterRegistry}. Meters (tags {@code store},
 * {@code instance} bounded by {@link InstanceTags}, {@code type} one of the wire's frame types or
 * {@code other}):
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
 * Meters are created once per instance tag value and kept, so an event costs a map lookup and a
 * counter increment. Thread-safe. Get one from {@link TetherMeters#storeListener(String)}.
 */
public final class StoreMeters implements StoreListener {
  private final MeterRegistry registry;
  private final InstanceTags instances;
  private final String store;
  private static final int MAX_NAMES = 10_000;
  private final ConcurrentHashMap<String, PerInstance> byInstance = new ConcurrentHashMap<>();
  private final ConcurrentHashMap<String, PerInstance> byTag = new ConcurrentHashMap<>();
  private final Timer commit;

  StoreMeters(MeterRegistry registry, InstanceTags instances, String store) {
    this.registry = Objects.requireNonNull(registry, "registry");
    this.instances = Objects.requireNonNull(instances, "instances");
    this.store = Objects.requireNonNull(store, "store");
    this.commit = Timer.builder("tether.store.commit").description("A journal commit or a JetStream publish until its ack")
        .tag("store", store).serviceLevelObjectives(Buckets.LATENCY).register(registry);
  }

  /**
   * The meters of one instance tag value: what {@link #forInstance} hands a store, so its events
   * cost no lookup. The instance argument of its methods is ignored (it is the one it was made for).
   */
  private final class PerInstance implements StoreListener {
    final Counter[] appended = new Counter[FrameTypeTags.OTHER_INDEX + 1];
    final Counter[] appendedBytes = new Counter[FrameTypeTags.OTHER_INDEX + 1];
    final Counter evicted;
    final Counter evictedBytes;
    final Counter gaps;
    final Timer wake;

    PerInstance(String tag) {
      for (int i = 0; i <= FrameTypeTags.OTHER_INDEX; i++) {
        String type = FrameTypeTags.name(i);
        appended[i] = Counter.builder("tether.frames.appended").description("Frames stored")
            .tags("store", store, "instance", tag, "type", type).register(registry);
        appendedBytes[i] = Counter.builder("tether.frames.appended.bytes").description("Payload bytes stored").baseUnit("bytes")
            .tags("store", store, "instance", tag, "type", type).register(registry);
      }
      evicted = Counter.builder("tether.frames.evicted").description("Frames evicted by a cap or the store budget")
          .tags("store", store, "instance", tag).register(registry);
      evictedBytes = Counter.builder("tether.frames.evicted.bytes").description("Payload bytes evicted").baseUnit("bytes")
          .tags("store", store, "instance", tag).register(registry);
      gaps = Counter.builder("tether.gaps.served").description("Answers that reported evicted frames (gap: true)")
          .tags("store", store, "instance", tag).register(registry);
      wake = Timer.builder("tether.wake.latency").description("From a stored frame to the completion of the wait it woke")
          .tags("store", store, "instance", tag).serviceLevelObjectives(Buckets.LATENCY).register(registry);
    }

    @Override
    public void appended(String instance, String type, long payloadBytes) {
      int t = FrameTypeTags.index(type);
      appended[t].increment();
      appendedBytes[t].increment(payloadBytes);
    }

    @Override
    public void evicted(String instance, int frames, long payloadBytes) {
      evicted.increment(frames);
      evictedBytes.increment(payloadBytes);
    }

    @Override
    public void gapServed(String instance) {
      gaps.increment();
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

  @Override
  public StoreListener forInstance(String instance) {
    return of(instance);
  }

  private PerInstance of(String instance) {
    PerInstance p = byInstance.get(instance);
    if (p != null) {
      return p;
    }
    String tag = instances.of(instance);
    p = byTag.computeIfAbsent(tag, PerInstance::new);
    // Remembers the decision per name, for at most MAX_NAMES names (removed instances and hostile
    // names included); past it a name is looked up in the InstanceTags each time.
    if (byInstance.size() < MAX_NAMES) {
      byInstance.putIfAbsent(instance, p);
    }
    return p;
  }

  @Override
  public void appended(String instance, String type, long payloadBytes) {
    of(instance).appended(instance, type, payloadBytes);
  }

  @Override
  public void evicted(String instance, int frames, long payloadBytes) {
    of(instance).evicted(instance, frames, payloadBytes);
  }

  @Override
  public void gapServed(String instance) {
    of(instance).gapServed(instance);
  }

  @Override
  public void woke(String instance, long nanos) {
    of(instance).woke(instance, nanos);
  }

  @Override
  public void committed(String storeName, int frames, long nanos) {
    commit.record(nanos, TimeUnit.NANOSECONDS);
  }

  /** Latency buckets shared by the timers: 1 ms to 30 s. */
  static final class Buckets {
    static final Duration[] LATENCY = {Duration.ofMillis(1), Duration.ofMillis(5), Duration.ofMillis(10),
        Duration.ofMillis(50), Duration.ofMillis(100), Duration.ofMillis(500), Duration.ofSeconds(1),
        Duration.ofSeconds(5), Duration.ofSeconds(30)};

    private Buckets() {}
  }
}
