package dev.tether.client.http;

import java.io.IOException;
import java.time.Duration;

/**
 * The host kept answering 429 {@code RATE_LIMITED} (its ingress rate limit per instance or per
 * token) after {@link HttpTetherClient} had retried as long as it was allowed to (see
 * {@link HttpTetherClient.Builder#rateLimitRetries}). Nothing of the request was stored: sending it
 * again later is safe. An {@link IOException}, as the host's other passing refusals are, so a caller
 * that retries on those (the chat bridges do, with backoff) retries on this too.
 */
public final class RateLimitedException extends IOException {
  private static final long serialVersionUID = 1L;

  private final int attempts;
  private final Duration waited;
  private final Duration retryAfter;

  RateLimitedException(int attempts, Duration waited, Duration retryAfter, String hostSaid) {
    super("the host rate-limited this request " + attempts + " time" + (attempts == 1 ? "" : "s") + " over "
        + waited.toMillis() + " ms and asked to wait " + retryAfter.toSeconds() + " s more (" + hostSaid + ")");
    this.attempts = attempts;
    this.waited = waited;
    this.retryAfter = retryAfter;
  }

  /** How many times the request was sent (and refused). */
  public int attempts() {
    return attempts;
  }

  /** How long the client waited between those attempts in all. */
  public Duration waited() {
    return waited;
  }

  /** The wait the host's last answer asked for ({@code Retry-After}; 1 s when it named none). */
  public Duration retryAfter() {
    return retryAfter;
  }
}
