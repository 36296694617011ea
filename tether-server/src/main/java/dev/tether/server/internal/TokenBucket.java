package dev.tether.server.internal;

import dev.tether.server.RateLimit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One token bucket of a {@link RateLimit}, as the generic cell rate algorithm: the whole state is
 * one {@code long}, the "theoretical arrival time" (TAT), the instant at which the bucket would be
 * full again. A request at {@code now} is admitted when {@code max(TAT, now) + interval - now} is
 * at most {@code burst * interval}, and then moves the TAT by one interval. Over any span of
 * {@code e} nanoseconds it admits at most {@code burst + rate * e} requests, and a bucket left
 * alone for {@code burst / rate} seconds is full again.
 *
 * <p>Design: lock-free, one compare-and-set per admitted request and none for a refused one. A
 * bucket whose TAT has passed is indistinguishable from a new one, so {@link #retireIfFull} may
 * retire it for eviction: it marks it dead in the same atomic step that checks it is full, and
 * a caller holding a dead bucket gets {@link #RETIRED} and looks it up again, so no request is
 * ever admitted by a bucket that has left its map. Times are {@link System#nanoTime()} values,
 * passed in (tests use their own clock). Thread-safe.
 */
final class TokenBucket {
  /** What {@link #tryAcquire} answers for a bucket that was retired: look up a fresh one. */
  static final long RETIRED = -1;
  private static final long DEAD = Long.MIN_VALUE;
  /**
   * The TAT of a bucket nobody has used: full at every instant, for every caller. (A TAT of the
   * creator's {@code now} would look not quite full to a caller whose {@code now} was read a
   * little earlier on another thread, and refuse it where no bucket at all would have admitted it.)
   */
  private static final long FULL = Long.MIN_VALUE + 1;

  private final long interval;
  private final long tolerance;
  private final AtomicLong tat;

  /** A full bucket of {@code limit} (not off); {@code now} is when it is made (full at any instant). */
  TokenBucket(RateLimit limit, long now) {
    if (limit.off()) {
      throw new IllegalArgumentException("a bucket needs a rate, but the limit is off");
    }
    this.interval = Math.max(1, (long) Math.ceil(1e9 / limit.perSecond())); // up: never above the rate
    this.tolerance = interval * limit.burst(); // at most 3.6e12 * 1e6: no overflow
    this.tat = new AtomicLong(FULL);
  }

  /**
   * Takes one request's token at {@code now}.
   *
   * @return 0 when admitted; else the nanoseconds until one would be (at least 1); or
   *     {@link #RETIRED} when this bucket was retired
   */
  long tryAcquire(long now) {
    while (true) {
      long t = tat.get();
      if (t == DEAD) {
        return RETIRED;
      }
      long next = Math.max(t, now) + interval;
      long over = next - now - tolerance;
      if (over > 0) {
        return over;
      }
      if (tat.compareAndSet(t, next)) {
        return 0;
      }
    }
  }

  /** Gives back a token taken by {@link #tryAcquire} (the request was refused by another bucket). */
  void refund() {
    while (true) {
      long t = tat.get();
      if (t == DEAD || t == FULL || tat.compareAndSet(t, t - interval)) {
        return;
      }
    }
  }

  /** Retires this bucket if it is full at {@code now} (then nothing is lost by forgetting it). */
  boolean retireIfFull(long now) {
    long t = tat.get();
    return t != DEAD && (t == FULL || t - now <= 0) && tat.compareAndSet(t, DEAD);
  }
}
