package dev.tether.telegram.internal;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.time.Duration;
import java.util.Objects;

/**
 * Retries Bot API calls the way the API asks to be retried: after {@code parameters.retry_after}
 * seconds for a 429, with capped exponential backoff for 5xx answers and network failures. Any
 * other API error (a 400 or 403: the call can never succeed) is thrown at once.
 *
 * <p>Retries go on until the call succeeds, the error is permanent, or the calling thread is
 * interrupted (the bridge interrupts its threads on close), which throws
 * {@link InterruptedIOException}. Each retry logs one line. Thread-safe: it holds no state between
 * calls.
 */
public final class Retrier {
  /** A Bot API call. */
  @FunctionalInterface
  public interface Call<T> {
    T run() throws IOException;
  }

  /** Longest wait honoured from a retry_after, so a hostile server cannot park the bridge for days. */
  static final long MAX_RETRY_AFTER_SECONDS = 3600;

  private final Duration initial;
  private final Duration max;
  private final BridgeLog log;
  private final Stopper stopper;

  public Retrier(Duration initial, Duration max, BridgeLog log, Stopper stopper) {
    this.initial = Objects.requireNonNull(initial, "initial");
    this.max = Objects.requireNonNull(max, "max");
    this.log = Objects.requireNonNull(log, "log");
    this.stopper = Objects.requireNonNull(stopper, "stopper");
  }

  public <T> T call(String what, Call<T> call) throws IOException {
    long backoffMs = initial.toMillis();
    while (true) {
      stopper.check();
      long waitMs;
      try {
        return call.run();
      } catch (InterruptedIOException e) {
        throw e;
      } catch (BotApiException e) {
        if (!e.isTransient()) {
          throw e;
        }
        if (e.retryAfter().isPresent()) {
          waitMs = Math.min(MAX_RETRY_AFTER_SECONDS, e.retryAfter().getAsInt()) * 1000L;
        } else {
          waitMs = backoffMs;
          backoffMs = Math.min(max.toMillis(), backoffMs * 2);
        }
        log.warn(what + ": " + e.getMessage() + "; retrying in " + waitMs + " ms");
      } catch (IOException e) {
        waitMs = backoffMs;
        backoffMs = Math.min(max.toMillis(), backoffMs * 2);
        log.warn(what + ": " + e.getMessage() + "; retrying in " + waitMs + " ms");
      }
      stopper.sleep(waitMs);
    }
  }

  /** Whether the bridge is stopping. */
  public boolean stopping() {
    return stopper.stopped();
  }

  /** {@link Stopper#waitingOn}: a stop cancels {@code future}. */
  public <T> java.util.concurrent.CompletableFuture<T> waitingOn(java.util.concurrent.CompletableFuture<T> future) {
    return stopper.waitingOn(future);
  }

  /** Waits {@code ms} unless the bridge stops first (then throws). */
  public void sleep(long ms) throws InterruptedIOException {
    stopper.sleep(ms);
  }
}
