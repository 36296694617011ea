package dev.tether.benchmarks;

import dev.tether.api.Frame;
import dev.tether.api.SessionKey;
import dev.tether.micrometer.InstanceTags;
import dev.tether.micrometer.TetherMeters;
import dev.tether.store.FrameQuery;
import dev.tether.store.MemoryTetherStore;
import dev.tether.store.StoreListener;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What meters cost on the hot paths (issue 25): the same {@link MemoryTetherStore} with
 * {@code meters=unbound} ({@link StoreListener#NONE}, what a store without {@code listener(...)}
 * runs) and {@code meters=bound} (the {@code tether-micrometer} listener on a Prometheus registry,
 * what {@code serve --metrics} runs), in one run so the results read as a ratio.
 *
 * <ul>
 *   <li>{@code append}: a full 1000-frame ring of 200-byte payloads, so every append also evicts
 *       one frame. Bound or not, the store counts it in its own {@code FrameCounts} (plain stores
 *       under the lock it holds); bound, the registry's function counters read them at scrape, so
 *       the append itself calls no meter (before issue 25's follow-up: two listener calls and four
 *       counter increments, 1.77x).
 *   <li>{@code wake}: the benchmark thread blocks in a wait for its session's next frame and a
 *       helper appends it once the wait is registered (as {@link WakeLatencyBenchmark}); bound, the
 *       wake latency is also recorded in a timer.
 * </ul>
 *
 * <p>{@code meters=registryOnly} is unbound with a registry and a bound store in the same JVM, a
 * control for effects of having Micrometer loaded (JIT, heap) rather than of binding.
 *
 * <p>Target: bound at most 1.05x unbound for both.
 *
 * <pre>
 * java -jar benchmarks/target/benchmarks.jar MetersOverheadBenchmark -f 2 -wi 3 -i 8 -w 1s -r 1s
 * </pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class MetersOverheadBenchmark {
  @Param({"unbound", "bound", "registryOnly"})
  public String meters;

  private static final SessionKey SESSION = SessionKey.host("wake");
  private MemoryTetherStore store;
  private PrometheusMeterRegistry registry;
  private Frame frame;
  private Frame wakeFrame;

  @Setup
  public void setUp() {
    StoreListener listener = StoreListener.NONE;
    if (!meters.equals("unbound")) {
      registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
      StoreListener bound = TetherMeters.of(registry).instanceTags(InstanceTags.only(Set.of("vm"))).storeListener("memory");
      if (meters.equals("bound")) {
        listener = bound;
      } else {
        // registryOnly: the registry and a bound store exist in the JVM (Micrometer loaded, its
        // meters registered) but the measured store is unbound. Tells what merely having
        // Micrometer in the process does to the JIT and heap apart from what binding costs.
        MemoryTetherStore other = MemoryTetherStore.builder().listener(bound).build();
        other.append("vm", StoreBenchSupport.frame(SessionKey.host("s"), 200));
        other.close();
      }
    }
    store = MemoryTetherStore.builder().listener(listener).build();
    frame = StoreBenchSupport.frame(SessionKey.host("s0"), 200);
    wakeFrame = StoreBenchSupport.frame(SESSION, 200);
    for (int i = 0; i < 1000; i++) {
      store.append("vm", StoreBenchSupport.frame(SessionKey.host("s" + (i % 10)), 200));
    }
  }

  @TearDown
  public void tearDown() {
    store.close();
  }

  /** The helper that appends the frame a {@link #wake} waits for; only the wake benchmark starts it. */
  @State(Scope.Benchmark)
  public static class Waker {
    final AtomicLong requested = new AtomicLong();
    volatile boolean running;
    Thread helper;

    @Setup
    public void start(MetersOverheadBenchmark b) {
      running = true;
      helper = new Thread(() -> {
        long served = 0;
        while (running) {
          if (requested.get() > served) {
            while (running && b.store.pendingWaits("vm") == 0) {
              Thread.onSpinWait();
            }
            b.store.append("vm", b.wakeFrame);
            served++;
          } else {
            Thread.onSpinWait();
          }
        }
      }, "wake-helper");
      helper.setDaemon(true);
      helper.start();
    }

    @TearDown
    public void stop() throws InterruptedException {
      running = false;
      helper.join();
    }
  }

  @Benchmark
  public long append() {
    return store.append("vm", frame);
  }

  @Benchmark
  @BenchmarkMode(Mode.SampleTime)
  @OutputTimeUnit(TimeUnit.MICROSECONDS)
  public int wake(Waker waker) throws InterruptedException {
    long cursor = store.lastSeq("vm");
    waker.requested.incrementAndGet();
    var r = store.awaitFrames("vm", FrameQuery.session(SESSION, cursor), Duration.ofSeconds(10));
    return r.frames().size();
  }
}
