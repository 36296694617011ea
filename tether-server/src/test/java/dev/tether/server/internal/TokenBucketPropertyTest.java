package dev.tether.server.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;

import dev.tether.server.RateLimit;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The token bucket on a clock of its own: whatever the rate, burst and arrival times, no span of
 * time admits more than {@code burst + rate * span}; a refused request is told how long to wait,
 * and is admitted after it, not before; a bucket left alone refills to its burst; off admits everything; and
 * the keyed limiter forgets idle buckets under a flood of distinct keys without admitting more.
 */
class TokenBucketPropertyTest {
  private static final long SECOND = 1_000_000_000L;

  @Test
  void anyArrivals_neverAdmitMoreThanBurstPlusRateTimesTheSpan() {
    qt().withExamples(100).forAll(integers().between(1, 500), integers().between(1, 50),
        lists().of(integers().between(0, 40_000_000)).ofSizeBetween(1, 150)).checkAssert((ratePerSecond, burst, gaps) -> {
          RateLimit limit = new RateLimit(ratePerSecond, burst);
          long now = 7 * SECOND; // any origin
          TokenBucket bucket = new TokenBucket(limit, now);
          List<Long> admitted = new ArrayList<>();
          for (int gap : gaps) {
            now += gap;
            long wait = bucket.tryAcquire(now);
            if (wait == 0) {
              admitted.add(now);
            } else {
              assertTrue(wait > 0, "a refusal says how long to wait: " + wait);
            }
          }
          for (int i = 0; i < admitted.size(); i++) {
            for (int j = i; j < admitted.size(); j++) {
              long span = admitted.get(j) - admitted.get(i);
              long allowed = burst + (long) Math.floor(span * (double) ratePerSecond / SECOND);
              assertTrue(j - i + 1 <= allowed, (j - i + 1) + " admitted within " + span + " ns at " + ratePerSecond
                  + "/s, burst " + burst);
            }
          }
        });
  }

  @Test
  void aBucketLeftAloneForBurstOverRate_admitsItsWholeBurstAtOnceAgain() {
    qt().withExamples(200).forAll(integers().between(1, 1000), integers().between(1, 200), integers().between(0, 3))
        .checkAssert((ratePerSecond, burst, drains) -> {
          RateLimit limit = new RateLimit(ratePerSecond, burst);
          long now = 0;
          TokenBucket bucket = new TokenBucket(limit, now);
          for (int round = 0; round <= drains; round++) {
            int got = 0;
            while (bucket.tryAcquire(now) == 0) {
              got++;
            }
            assertEquals(burst, got, "a full bucket admits its burst at once");
            long wait = bucket.tryAcquire(now);
            assertTrue(bucket.tryAcquire(now + wait - 1) > 0, "not admitted before the wait it named");
            assertEquals(0, bucket.tryAcquire(now + wait), "admitted after the wait it named");
            now += (long) Math.ceil((burst + 1) * 1e9 / ratePerSecond) + burst + 1_000; // a refill time, after the burst and one more
          }
        });
  }

  @Test
  void off_admitsEverything_andCostsNoBucket() {
    IngressRateLimits off = new IngressRateLimits(RateLimit.OFF, RateLimit.OFF, () -> 0L);
    for (int i = 0; i < 10_000; i++) {
      assertEquals(0, off.admit("vm" + (i % 7), "tok-" + i));
    }
    IngressRateLimits tokenOnly = new IngressRateLimits(RateLimit.OFF, new RateLimit(1, 1), () -> 0L);
    for (int i = 0; i < 1000; i++) {
      assertEquals(0, tokenOnly.admit("vm", null), "the host is held to the instance's rate only, which is off");
    }
  }

  @Test
  void aRequestRefusedByItsInstance_givesItsTokenBack() {
    long[] now = {0};
    IngressRateLimits limits = new IngressRateLimits(new RateLimit(1, 2), new RateLimit(1, 3), () -> now[0]);
    assertEquals(0, limits.admit("vm", "tok-a"));
    assertEquals(0, limits.admit("vm", null));
    assertTrue(limits.admit("vm", "tok-a") > 0, "the instance is spent");
    assertTrue(limits.admit("vm", "tok-a") > 0);
    assertEquals(0, limits.admit("other", "tok-a"), "tok-a still has 2 of its 3: the refused ones cost nothing");
    assertEquals(0, limits.admit("other", "tok-a"));
    assertTrue(limits.admit("third", "tok-a") > 0, "now tok-a is spent");
    assertEquals(1, IngressRateLimits.retryAfterSeconds(1));
    assertEquals(1, IngressRateLimits.retryAfterSeconds(SECOND));
    assertEquals(2, IngressRateLimits.retryAfterSeconds(SECOND + 1));
  }

  @Test
  void aFloodOfDistinctKeys_keepsOnlyTheBucketsOfOneRefillTime_andForgettingAdmitsNothingExtra() {
    long[] now = {0};
    RateLimit limit = new RateLimit(10, 2); // a bucket is full again 0.2 s after its last use
    RateLimiter limiter = new RateLimiter(limit, 100, now[0]);
    for (int i = 0; i < 60_000; i++) {
      assertEquals(0, limiter.tryAcquire("k" + i, now[0]));
      now[0] += 50_000; // 20,000 new keys a second
      assertTrue(limiter.size() <= 100 + 20_000 * 1.3, "at most the keys of about one sweep period: " + limiter.size());
    }
  }

  @Test
  void aSweep_forgetsOnlyFullBuckets_soASpentKeyStaysSpent() {
    RateLimiter limiter = new RateLimiter(new RateLimit(1, 2), 100, 0); // full again 2 s after use
    for (int i = 0; i < 150; i++) {
      assertEquals(0, limiter.tryAcquire("cold" + i, 0));
    }
    assertEquals(0, limiter.tryAcquire("hot", 0));
    assertEquals(0, limiter.tryAcquire("hot", 0));
    long later = SECOND + SECOND / 10; // the cold ones are full again, hot has one token back
    assertEquals(0, limiter.tryAcquire("new", later)); // a new key sweeps
    assertTrue(limiter.size() <= 2, "only hot and new are left: " + limiter.size());
    assertEquals(0, limiter.tryAcquire("hot", later));
    assertTrue(limiter.tryAcquire("hot", later) > 0, "hot was remembered: one token back, not a fresh bucket of two");
  }

  @Test
  void manyThreadsOnOneBucket_admitExactlyTheBurstWhileTheClockStandsStill() throws Exception {
    TokenBucket bucket = new TokenBucket(new RateLimit(1, 500), 0);
    AtomicInteger admitted = new AtomicInteger();
    CountDownLatch go = new CountDownLatch(1);
    ExecutorService pool = Executors.newFixedThreadPool(8);
    try {
      List<Future<?>> done = new ArrayList<>();
      for (int t = 0; t < 8; t++) {
        done.add(pool.submit(() -> {
          go.await();
          for (int i = 0; i < 1000; i++) {
            if (bucket.tryAcquire(0) == 0) {
              admitted.incrementAndGet();
            }
          }
          return null;
        }));
      }
      go.countDown();
      for (Future<?> f : done) {
        f.get();
      }
    } finally {
      pool.shutdownNow();
    }
    assertEquals(500, admitted.get());
  }
}
