package dev.tether.benchmarks;

import dev.tether.api.Frame;
import dev.tether.api.SessionKey;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Setup;

/**
 * Append of 5 MiB frames (image-sized payloads) under the default 128 MiB byte budget: the ring
 * holds 25 of them, and each append evicts by bytes. The payload bytes are shared, never copied,
 * so the cost must not grow with the payload size. Baseline: {@link ReferenceTetherStore}.
 *
 * <pre>
 * java -jar benchmarks/target/benchmarks.jar StoreLargeFrameBenchmark -f 1 -wi 3 -i 5 -w 1s -r 1s
 * </pre>
 */
public class StoreLargeFrameBenchmark extends StoreAgainstReference {
  private Frame frame;

  @Setup
  public void setUp() {
    frame = StoreBenchSupport.frame(SessionKey.host("s0"), 5 << 20);
    for (int i = 0; i < 30; i++) {
      tether.append("vm", frame);
      reference.append("vm", frame);
    }
  }

  @Benchmark
  public long append() {
    return impl.equals("tether") ? tether.append("vm", frame) : reference.append("vm", frame);
  }
}
