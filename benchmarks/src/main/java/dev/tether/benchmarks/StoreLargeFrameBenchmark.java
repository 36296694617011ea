package dev.tether.benchmarks;

import dev.tether.api.Frame;
import dev.tether.api.SessionKey;
import dev.tether.store.MemoryTetherStore;
import java.util.concurrent.TimeUnit;
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
 * Append of 5 MiB frames (image-sized payloads) under the default 128 MiB byte budget: the ring
 * holds 25 of them, and each append evicts by bytes. The payload bytes are shared, never copied,
 * so the cost must not grow with the payload size. Baseline: {@link ReferenceTetherStore}.
 *
 * <pre>
 * java -jar benchmarks/target/benchmarks.jar StoreLargeFrameBenchmark -f 1 -wi 3 -i 5 -w 1s -r 1s
 * </pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class StoreLargeFrameBenchmark {
  @Param({"tether", "reference"})
  public String impl;

  private MemoryTetherStore tether;
  private ReferenceTetherStore reference;
  private Frame frame;

  @Setup
  public void setUp() {
    frame = StoreBenchSupport.frame(SessionKey.host("s0"), 5 << 20);
    tether = MemoryTetherStore.create();
    reference = new ReferenceTetherStore();
    for (int i = 0; i < 30; i++) {
      tether.append("vm", frame);
      reference.append("vm", frame);
    }
  }

  @TearDown
  public void tearDown() {
    tether.close();
  }

  @Benchmark
  public long append() {
    return impl.equals("tether") ? tether.append("vm", frame) : reference.append("vm", frame);
  }
}
