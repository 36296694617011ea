package dev.tether.server.internal;

import dev.tether.server.RateLimit;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A {@link TokenBucket} per key (an instance id, a token id) at one {@link RateLimit}.
 *
 * <p>Design: buckets live in a {@link ConcurrentHashMap}; a request costs one map lookup and the
 * bucket's compare-and-set. Eviction keeps memory bounded by the keys active lately, not by every
 * key ever seen: once the map holds more than {@code sweepAbove} buckets, a sweep (at most one
 * at a time, at most once per {@link #SWEEP_EVERY_NANOS}) drops every bucket that is full again,
 * which is exactly one that nobody has used for {@code burst / rate} seconds; such a bucket is
 * retired atomically ({@link TokenBucket#retireIfFull}), so forgetting it admits nothing extra. A
 * flood of distinct keys can hold at most the keys used within one refill time. The keys reaching
 * it are bounded besides: instance ids are registered ones and token ids are live tokens, both
 * checked before a request is counted. A sweep judges "full" at its own clock reading: a request
 * whose reading lags the sweep's (read on another thread a moment before) may find a fresh bucket
 * where the forgotten one would have asked it to wait, at most once per key and sweep.
 * Thread-safe.
 */
final class RateLimiter {
  /** The least time between two sweeps. */
  static final long SWEEP_EVERY_NANOS = 1_000_000_000L;

  private final RateLimit limit;
  private final int sweepAbove;
  private final Map<String, TokenBucket> buckets = new ConcurrentHashMap<>();
  private final AtomicLong lastSweep;

  /** @param sweepAbove how many buckets may be held before idle ones are swept */
  RateLimiter(RateLimit limit, int sweepAbove, long now) {
    if (limit.off()) {
      throw new IllegalArgumentException("a rate limiter needs a rate, but the limit is off");
    }
    if (sweepAbove < 1) {
      throw new IllegalArgumentException("sweepAbove must be >= 1 but was " + sweepAbove);
    }
    this.limit = limit;
    this.sweepAbove = sweepAbove;
    this.lastSweep = new AtomicLong(now - SWEEP_EVERY_NANOS);
  }

  /**
   * Takes one token of {@code key}'s bucket at {@code now}.
   *
   * @return 0 when admitted, else the nanoseconds until a request of {@code key} would be
   */
  long tryAcquire(String key, long now) {
    while (true) {
      TokenBucket b = buckets.get(key);
      if (b == null) {
        maybeSweep(now);
        TokenBucket fresh = new TokenBucket(limit, now);
        b = buckets.putIfAbsent(key, fresh);
        if (b == null) {
          b = fresh;
        }
      }
      long wait = b.tryAcquire(now);
      if (wait != TokenBucket.RETIRED) {
        return wait;
      }
      buckets.remove(key, b); // retired by a sweep that has not removed it yet
    }
  }

  /** Gives back the token {@link #tryAcquire} took for {@code key}. */
  void refund(String key) {
    TokenBucket b = buckets.get(key);
    if (b != null) {
      b.refund();
    }
  }

  /** Buckets held now (for tests). */
  int size() {
    return buckets.size();
  }

  private void maybeSweep(long now) {
    long last = lastSweep.get();
    if (buckets.size() < sweepAbove || now - last < SWEEP_EVERY_NANOS || !lastSweep.compareAndSet(last, now)) {
      return;
    }
    buckets.entrySet().removeIf(e -> e.getValue().retireIfFull(now));
  }
}
