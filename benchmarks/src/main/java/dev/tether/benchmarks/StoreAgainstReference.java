package dev.tether.benchmarks;

import dev.tether.store.MemoryTetherStore;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What the store benchmarks share: our memory store and the reference daemon's design
 * ({@link ReferenceTetherStore}) side by side in one run, the benchmark method picking one by
 * {@link #impl}, so results read as ratios. Both stores exist from construction; a subclass's
 * {@code @Setup} fills them.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public abstract class StoreAgainstReference {
  @Param({"tether", "reference"})
  public String impl;

  protected final MemoryTetherStore tether = MemoryTetherStore.create();
  protected final ReferenceTetherStore reference = new ReferenceTetherStore();

  @TearDown
  public void closeStores() {
    tether.close();
  }
}
