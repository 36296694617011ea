package dev.tether.server.internal;

import dev.tether.server.RateLimit;
import java.util.function.LongSupplier;

/**
 * The rate limits of ingress (the routes that put frames, blobs and attachments into an instance):
 * a {@link RateLimiter} per instance and one per token, either off.
 *
 * <p>A request is counted against its instance and, when it came with an instance token or the
 * console's, against that token (keyed by the token's id, never its value); the host token and the
 * owner's Unix socket are held only to the instance's rate. It is admitted when both admit it; a
 * token taken from the token's bucket is given back when the instance's refuses, so a refused
 * request costs nothing. The two buckets are not taken as one atomic step: a request racing
 * another's refund may be refused where an order one at a time would admit it, never the reverse,
 * so the limits hold. With both limits off, {@link #admit} is two field reads. The buckets are
 * this server's own: with {@code serve --nats}, N hosts admit up to N times the rate. Thread-safe.
 */
final class IngressRateLimits {
  /** Buckets held per limiter before idle ones are swept. */
  static final int SWEEP_ABOVE = 1024;

  private final RateLimiter perInstance; // null: off
  private final RateLimiter perToken; // null: off
  private final LongSupplier clock;
  private final String described;

  IngressRateLimits(RateLimit instance, RateLimit token, LongSupplier clock) {
    this.clock = clock;
    this.described = "per instance " + instance.describe() + ", per token " + token.describe();
    long now = clock.getAsLong();
    this.perInstance = instance.off() ? null : new RateLimiter(instance, SWEEP_ABOVE, now);
    this.perToken = token.off() ? null : new RateLimiter(token, SWEEP_ABOVE, now);
  }

  /** Limits on {@link System#nanoTime()}. */
  static IngressRateLimits of(RateLimit instance, RateLimit token) {
    return new IngressRateLimits(instance, token, System::nanoTime);
  }

  /**
   * Counts one ingress request.
   *
   * @param tokenKey the id of the token that let it in (instance or console), or null for the host
   * @return 0 when admitted, else the nanoseconds after which it may be tried again
   */
  long admit(String instance, String tokenKey) {
    if (perInstance == null && perToken == null) {
      return 0;
    }
    long now = clock.getAsLong();
    boolean byToken = perToken != null && tokenKey != null;
    if (byToken) {
      long wait = perToken.tryAcquire(tokenKey, now);
      if (wait > 0) {
        return wait;
      }
    }
    if (perInstance != null) {
      long wait = perInstance.tryAcquire(instance, now);
      if (wait > 0) {
        if (byToken) {
          perToken.refund(tokenKey);
        }
        return wait;
      }
    }
    return 0;
  }

  /** Why a request into {@code instance} was refused, naming the limits and the wait in {@code seconds}. */
  String refusal(String instance, long seconds) {
    return "requests into instance '" + instance + "' come faster than this host admits (" + described + "); retry after "
        + seconds + " s";
  }

  /** The {@code Retry-After} seconds for a wait of {@code nanos}: rounded up, at least 1. */
  static long retryAfterSeconds(long nanos) {
    return Math.max(1, (nanos + 999_999_999L) / 1_000_000_000L);
  }
}
