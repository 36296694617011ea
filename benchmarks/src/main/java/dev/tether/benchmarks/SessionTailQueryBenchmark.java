package dev.tether.benchmarks;

import dev.tether.api.SessionKey;
import dev.tether.store.FrameQuery;
import dev.tether.store.MemoryTetherStore;
import java.util.List;
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
 * The poll a host agent makes: one session's tail (the frames after its cursor, here the last 10
 * frames of that session) on a full 1000-frame ring where 10 sessions are interleaved.
 * {@code impl=reference} scans the ring from the oldest frame, as the reference design does.
 *
 * <p>Targets: tether at most 1 us/op and at least 5x faster than the reference.
 *
 * <pre>
 * java -jar benchmarks/target/benchmarks.jar SessionTailQueryBenchmark -f 1 -wi 3 -i 5 -w 1s -r 1s
 * </pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class SessionTailQueryBenchmark {
  @Param({"tether", "reference"})
  public String impl;

  private MemoryTetherStore tether;
  private ReferenceTetherStore reference;
  private FrameQuery query;

  @Setup
  public void setUp() {
    tether = MemoryTetherStore.create();
    reference = new ReferenceTetherStore();
    for (int i = 0; i < 1500; i++) {
      var f = StoreBenchSupport.frame(SessionKey.host("s" + (i % 10)), 200);
      tether.append("vm", f);
      reference.append("vm", f);
    }
    query = FrameQuery.session(SessionKey.host("s3"), 1400);
  }

  @TearDown
  public void tearDown() {
    tether.close();
  }

  @Benchmark
  public List<?> sessionTail() {
    return impl.equals("tether") ? tether.query("vm", query).frames() : reference.query("vm", query);
  }
}
