package dev.tether.api;

import java.time.Instant;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Message ids of the form {@code host-<nanos>}.
 *
 * <p>The number is the wall-clock time in nanoseconds since the epoch, forced to increase
 * strictly within this process, so two ids made in the same nanosecond (or after the clock steps
 * back) still differ. Thread-safe.
 */
public final class MsgIds {
  private static final AtomicLong LAST = new AtomicLong();

  private MsgIds() {}

  /** A new id {@code host-<nanos>}, unique within this process. */
  public static String host() {
    return "host-" + nextNanos();
  }

  static long nextNanos() {
    Instant now = Instant.now();
    long candidate = now.getEpochSecond() * 1_000_000_000L + now.getNano();
    return LAST.accumulateAndGet(candidate, (last, next) -> Math.max(last + 1, next));
  }
}
