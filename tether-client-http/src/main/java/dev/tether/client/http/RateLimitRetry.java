package dev.tether.client.http;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

/**
 * Sends a request again when the host answers 429 with {@code Retry-After}, as the host asks: after
 * the seconds it names (1 s when it names none) plus a little jitter, so clients refused together do
 * not come back together. Bounded twice: at most {@code maxRetries} retries, and no retry whose wait
 * would take the total past {@code maxWait}; then the call fails with {@link RateLimitedException}.
 * A 429 is answered before the host reads or stores anything, so a retry never duplicates.
 *
 * <p>Waiting holds no thread: a retry is scheduled with {@link CompletableFuture#delayedExecutor}.
 * Cancelling the returned future cancels the request in flight and every retry still to come.
 * Thread-safe; immutable.
 *
 * @param maxRetries retries after the first attempt, 0 or more
 * @param maxWait the most time spent waiting between attempts, in all
 */
record RateLimitRetry(int maxRetries, Duration maxWait) {
  /** 8 retries within 60 s. */
  static final RateLimitRetry DEFAULT = new RateLimitRetry(8, Duration.ofSeconds(60));
  private static final long MAX_JITTER_MS = 250;

  RateLimitRetry {
    if (maxRetries < 0) {
      throw new IllegalArgumentException("maxRetries must be >= 0 but was " + maxRetries);
    }
    if (maxWait == null || maxWait.isNegative()) {
      throw new IllegalArgumentException("maxWait must be >= 0 but was " + maxWait);
    }
  }

  /** {@code attempt}'s future, sent again on each 429 as above. */
  <T> CompletableFuture<T> call(Supplier<CompletableFuture<T>> attempt) {
    CompletableFuture<T> result = new CompletableFuture<>();
    AtomicReference<CompletableFuture<T>> inFlight = new AtomicReference<>();
    result.whenComplete((v, t) -> {
      CompletableFuture<T> call = inFlight.get();
      if (result.isCancelled() && call != null) {
        call.cancel(false);
      }
    });
    send(attempt, result, inFlight, 1, 0);
    return result;
  }

  private <T> void send(Supplier<CompletableFuture<T>> attempt, CompletableFuture<T> result,
      AtomicReference<CompletableFuture<T>> inFlight, int attempts, long waitedMs) {
    if (result.isDone()) {
      return; // cancelled while waiting
    }
    CompletableFuture<T> call;
    try {
      call = attempt.get();
    } catch (RuntimeException e) {
      result.completeExceptionally(e);
      return;
    }
    inFlight.set(call);
    if (result.isCancelled()) {
      call.cancel(false);
      return;
    }
    call.whenComplete((value, failure) -> {
      if (failure == null) {
        result.complete(value);
        return;
      }
      HttpTransport.HttpError limited = rateLimited(failure);
      if (limited == null) {
        result.completeExceptionally(failure);
        return;
      }
      long askedMs = TimeUnit.SECONDS.toMillis(limited.retryAfterSeconds > 0 ? limited.retryAfterSeconds : 1);
      long delayMs = askedMs + ThreadLocalRandom.current().nextLong(Math.min(MAX_JITTER_MS, askedMs / 10) + 1);
      if (attempts > maxRetries || waitedMs + delayMs > maxWait.toMillis()) {
        result.completeExceptionally(new RateLimitedException(attempts, Duration.ofMillis(waitedMs), Duration.ofMillis(askedMs),
            limited.getMessage()));
        return;
      }
      CompletableFuture.delayedExecutor(delayMs, TimeUnit.MILLISECONDS)
          .execute(() -> send(attempt, result, inFlight, attempts + 1, waitedMs + delayMs));
    });
  }

  /** The 429 in {@code failure}, or null. */
  private static HttpTransport.HttpError rateLimited(Throwable failure) {
    Throwable cause = failure instanceof CompletionException && failure.getCause() != null ? failure.getCause() : failure;
    return cause instanceof HttpTransport.HttpError e && e.status == 429 ? e : null;
  }
}
