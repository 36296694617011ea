package dev.tether.server.internal;

import dev.tether.server.RateLimit;
import org.jetbrains.lincheck.datastructures.IntGen;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Param;
import org.jetbrains.lincheck.datastructures.StressOptions;
import org.junit.jupiter.api.Test;

/**
 * Lincheck (stress mode, real threads) checks that the keyed {@link RateLimiter} is linearizable:
 * requests for three keys at five instants, racing the sweep that retires full buckets and the
 * re-lookup of a retired one, give the answers (admitted, or how long to wait) of some sequential
 * order. A sweep runs on every new key once a second of the clock has passed ({@code sweepAbove}
 * 1), so scenarios retire buckets that other threads hold. That a sweep forgets only full
 * buckets (so forgetting admits nothing extra) is {@link TokenBucketPropertyTest}'s; this test
 * shows that the retire, the removal and the re-lookup race safely.
 */
@Param(name = "key", gen = IntGen.class, conf = "0:2")
@Param(name = "t", gen = IntGen.class, conf = "0:4")
public class RateLimiterLincheckTest {
  private static final long STEP_NANOS = 700_000_000L; // 0.7 s: a bucket of 2/s, burst 2, refills within two steps

  private final RateLimiter limiter = new RateLimiter(new RateLimit(2, 2), 1, 0);

  @Operation
  public long tryAcquire(@Param(name = "key") int key, @Param(name = "t") int t) {
    return limiter.tryAcquire("k" + key, t * STEP_NANOS);
  }

  @Test
  void tryAcquire_withSweepsAndRetiredBuckets_isLinearizable() {
    new StressOptions().iterations(6).invocationsPerIteration(150).threads(3).actorsPerThread(3)
        .invocationTimeout$lincheck(180_000).check(RateLimiterLincheckTest.class);
  }
}
