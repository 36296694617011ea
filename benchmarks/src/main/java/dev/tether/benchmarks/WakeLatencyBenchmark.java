package dev.tether.benchmarks;

import dev.tether.api.Frame;
import dev.tether.api.SessionKey;
import dev.tether.store.FrameQuery;
import dev.tether.store.MemoryTetherStore;
import java.time.Duration;
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
 * Wake latency: the benchmark thread blocks in a wait for the next frame of its session (the
 * blocking form, as a poll handler would); a helper thread appends that frame as soon as it sees
 * the wait registered. One operation is register + append + wake-up of the blocked thread, an
 * upper bound of the append-to-completion latency. Sample mode reports the median (p0.50).
 * Baseline: {@link ReferenceTetherStore#waitForFrames} ({@code Condition.signalAll}, re-query).
 *
 * <p>Target: tether median at most 50 us.
 *
 * <pre>
 * java -jar benchmarks/target/benchmarks.jar WakeLatencyBenchmark -f 1 -wi 3 -i 5 -w 1s -r 1s
 * </pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class WakeLatencyBenchmark {
  @Param({"tether", "reference"})
  public String impl;

  private static final SessionKey SESSION = SessionKey.host("wake");
  private MemoryTetherStore tether;
  private ReferenceTetherStore reference;
  private Frame frame;
  private final AtomicLong requested = new AtomicLong();
  private volatile boolean running;
  private Thread helper;
  private long cursor;

  @Setup
  public void setUp() {
    tether = MemoryTetherStore.create();
    reference = new ReferenceTetherStore();
    frame = StoreBenchSupport.frame(SESSION, 200);
    for (int i = 0; i < 1000; i++) {
      Frame f = StoreBenchSupport.frame(SessionKey.host("s" + (i % 10)), 200);
      tether.append("vm", f);
      reference.append("vm", f);
    }
    cursor = 1000;
    running = true;
    boolean isTether = impl.equals("tether");
    helper = new Thread(() -> {
      long served = 0;
      while (running) {
        if (requested.get() > served) {
          // Append only once the wait is registered, so the benchmark measures a real wake-up.
          while (running && (isTether ? tether.pendingWaits("vm") : reference.blockedWaiters()) == 0) {
            Thread.onSpinWait();
          }
          if (isTether) {
            tether.append("vm", frame);
          } else {
            reference.append("vm", frame);
          }
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
  public void tearDown() throws InterruptedException {
    running = false;
    helper.join();
    tether.close();
  }

  @Benchmark
  public int wake() throws InterruptedException {
    FrameQuery q = FrameQuery.session(SESSION, cursor);
    requested.incrementAndGet();
    int n;
    if (impl.equals("tether")) {
      var r = tether.awaitFrames("vm", q, Duration.ofSeconds(10));
      n = r.frames().size();
      cursor = r.nextSeq();
    } else {
      var r = reference.waitForFrames("vm", q, 10, TimeUnit.SECONDS);
      n = r.size();
      cursor = r.get(r.size() - 1).seq();
    }
    return n;
  }
}
