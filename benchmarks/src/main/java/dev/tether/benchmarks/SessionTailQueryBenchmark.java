package dev.tether.benchmarks;

import dev.tether.api.SessionKey;
import dev.tether.store.FrameQuery;
import java.util.List;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Setup;

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
public class SessionTailQueryBenchmark extends StoreAgainstReference {
  private FrameQuery query;

  @Setup
  public void setUp() {
    for (int i = 0; i < 1500; i++) {
      var f = StoreBenchSupport.frame(SessionKey.host("s" + (i % 10)), 200);
      tether.append("vm", f);
      reference.append("vm", f);
    }
    query = FrameQuery.session(SessionKey.host("s3"), 1400);
  }

  @Benchmark
  public List<?> sessionTail() {
    return impl.equals("tether") ? tether.query("vm", query).frames() : reference.query("vm", query);
  }
}
