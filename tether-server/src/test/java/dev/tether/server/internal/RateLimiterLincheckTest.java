package dev.tether.server.internal;

import dev.tether.server.RateLimit;
import org.jetbrains.lincheck.datastructures.IntGen;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Param;
import org.jetbrains.lincheck.datastructures.StressOptions;
import org.junit.jupiter.api.Test;

/**
 * Lincheck (stress mode, real threads) checks that the keyed {@link RateLimiter} is linearizable:
 * requests for three keys at five instants, racing each other's first use of a key (the
 * put-if-absent of a fresh bucket) and each other's compare-and-set, give the answers (admitted,
 * or how long to wait) of some sequential order, whatever the order of their clock readings.
 *
 * <p>Sweeps are off here ({@code sweepAbove} above any scenario): a sweep judges "full" at its own
 * clock reading, so with the seconds of skew this test gives its threads a request whose reading
 * lags the sweep's may find a fresh bucket where the old one would have refused it (see
 * {@link RateLimiter}: at most one extra admission per key and sweep, and real callers' readings
 * lag by the microseconds between {@code System.nanoTime()} and the call). That a sweep forgets
 * only full buckets, and that a retired bucket is looked up again, is {@link TokenBucketPropertyTest}'s.
 */
@Param(name = "key", gen = IntGen.class, conf = "0:2")
@Param(name = "t", gen = IntGen.class, conf = "0:4")
public class RateLimiterLincheckTest {
  private static final long STEP_NANOS = 700_000_000L; // 0.7 s: a bucket of 2/s, burst 2, refills within two steps

  private final RateLimiter limiter = new RateLimiter(new RateLimit(2, 2), 1_000_000, 0);

  @Operation
  public long tryAcquire(@Param(name = "key") int key, @Param(name = "t") int t) {
    return limiter.tryAcquire("k" + key, t * STEP_NANOS);
  }

  @Test
  void tryAcquire_withRacingFirstUsesAndSkewedClocks_isLinearizable() {
    new StressOptions().iterations(6).invocationsPerIteration(150).threads(3).actorsPerThread(3)
        .invocationTimeout$lincheck(180_000).check(RateLimiterLincheckTest.class);
  }
}
