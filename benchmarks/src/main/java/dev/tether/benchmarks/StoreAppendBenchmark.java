package dev.tether.benchmarks;

import dev.tether.api.Frame;
import dev.tether.api.SessionKey;
import dev.tether.store.FrameQuery;
import dev.tether.store.MemoryTetherStore;
import java.time.Duration;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;

/**
 * Append in steady state: a full 1000-frame ring of 200-byte payloads, so every append evicts
 * one frame; with {@code idleWaiters=1000}, a thousand waits are pending on other sessions of the
 * same instance. {@code impl=tether} is {@link MemoryTetherStore}; {@code impl=reference} is the
 * baseline {@link ReferenceTetherStore} (one lock, linear scan, wake-all re-query).
 *
 * <p>Targets: tether at most 100 ns/op; with 1000 idle waiters within 2x of none.
 *
 * <pre>
 * java -jar benchmarks/target/benchmarks.jar StoreAppendBenchmark -f 1 -wi 3 -i 5 -w 1s -r 1s
 * </pre>
 */
public class StoreAppendBenchmark extends StoreAgainstReference {
  @Param({"0", "1000"})
  public int idleWaiters;

  private Frame frame;

  @Setup
  public void setUp() {
    frame = StoreBenchSupport.frame(SessionKey.host("s0"), 200);
    for (int i = 0; i < 1000; i++) {
      Frame f = StoreBenchSupport.frame(SessionKey.host("s" + (i % 10)), 200);
      tether.append("vm", f);
      reference.append("vm", f);
    }
    for (int i = 0; i < idleWaiters; i++) {
      FrameQuery q = FrameQuery.session(SessionKey.host("idle-" + i), 0);
      if (impl.equals("tether")) {
        tether.waitForFrames("vm", q, Duration.ofHours(1));
      } else {
        reference.waitAsync("vm", q);
      }
    }
  }

  @Benchmark
  public long append() {
    return impl.equals("tether") ? tether.append("vm", frame) : reference.append("vm", frame);
  }
}
