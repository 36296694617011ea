package dev.tether.coven.internal;

import java.time.Duration;
import java.util.Objects;
import java.util.function.DoubleSupplier;

/**
 * Capped exponential backoff with jitter for reconnects: attempt {@code n} (from 1) waits
 * {@code min(max, initial * 2^(n-1))}, scaled by a random factor in {@code [1 - jitter, 1 + jitter)}
 * so that many agents cut off together do not reconnect together, and never more than {@code max}.
 * Immutable and thread-safe when {@code random} is.
 */
public final class Backoff {
  private final Duration initial;
  private final Duration max;
  private final double jitter;
  private final DoubleSupplier random;

  /**
   * @param random uniform in {@code [0, 1)}
   * @throws IllegalArgumentException when initial is not positive, max is below initial, or jitter
   *     is outside {@code [0, 1)}
   */
  public Backoff(Duration initial, Duration max, double jitter, DoubleSupplier random) {
    if (initial.isNegative() || initial.isZero()) {
      throw new IllegalArgumentException("initial backoff must be > 0 but was " + initial);
    }
    if (max.compareTo(initial) < 0) {
      throw new IllegalArgumentException("max backoff must be >= initial (" + initial + ") but was " + max);
    }
    if (!(jitter >= 0 && jitter < 1)) {
      throw new IllegalArgumentException("jitter must be in [0, 1) but was " + jitter);
    }
    this.initial = initial;
    this.max = max;
    this.jitter = jitter;
    this.random = Objects.requireNonNull(random, "random");
  }

  /** The delay before attempt {@code attempt} (1 is the first retry). */
  public Duration delay(int attempt) {
    if (attempt < 1) {
      throw new IllegalArgumentException("attempt must be >= 1 but was " + attempt);
    }
    long base = initial.toMillis();
    long cap = max.toMillis();
    for (int i = 1; i < attempt && base < cap; i++) {
      base = Math.min(cap, base * 2);
    }
    double factor = 1 - jitter + 2 * jitter * random.getAsDouble();
    return Duration.ofMillis(Math.min(cap, Math.max(1, Math.round(base * factor))));
  }
}
