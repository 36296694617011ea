package dev.tether.chat;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;

/**
 * Retries a chat platform's calls the way the platforms ask to be retried: after the
 * {@link ChannelException#retryAfter()} they named for a 429, with capped exponential backoff for
 * 5xx answers and network failures. Any other refusal (a 400 or 403: the call can never succeed)
 * is thrown at once.
 *
 * <p>Retries go on until the call succeeds, the error is permanent, or the bridge stops (its
 * {@link ChatStopper} fires, or the calling thread is interrupted), which throws
 * {@link InterruptedIOException}. Each retry logs one line. Thread-safe: it holds no state between
 * calls.
 */
public final class ChatRetrier {
  /** A platform call. */
  @FunctionalInterface
  public interface Call<T> {
    T run() throws IOException;
  }

  /** Longest wait honoured from a Retry-After, so a hostile server cannot park the bridge for days. */
  public static final long MAX_RETRY_AFTER_SECONDS = 3600;

  private final Duration initial;
  private final Duration max;
  private final ChatLog log;
  private final ChatStopper stopper;
  private final ChatListener listener;

  public ChatRetrier(Duration initial, Duration max, ChatLog log, ChatStopper stopper) {
    this(initial, max, log, stopper, ChatListener.NONE);
  }

  /** As above, telling {@code listener} of each call's success, 429 and permanent failure (named by {@code what}). */
  public ChatRetrier(Duration initial, Duration max, ChatLog log, ChatStopper stopper, ChatListener listener) {
    this.initial = Objects.requireNonNull(initial, "initial");
    this.max = Objects.requireNonNull(max, "max");
    this.log = Objects.requireNonNull(log, "log");
    this.stopper = Objects.requireNonNull(stopper, "stopper");
    this.listener = Objects.requireNonNull(listener, "listener");
  }

  /** Runs {@code call} until it succeeds or fails for good; {@code what} names it in the log. */
  public <T> T call(String what, Call<T> call) throws IOException {
    long backoffMs = initial.toMillis();
    while (true) {
      stopper.check();
      long waitMs;
      try {
        T result = call.run();
        listener.answered(what);
        return result;
      } catch (InterruptedIOException e) {
        throw e;
      } catch (ChannelException e) {
        if (!e.isTransient()) {
          listener.failed(what);
          throw e;
        }
        if (e.retryAfter().isPresent()) {
          waitMs = Math.min(MAX_RETRY_AFTER_SECONDS, e.retryAfter().getAsInt()) * 1000L;
        } else {
          waitMs = backoffMs;
          backoffMs = Math.min(max.toMillis(), backoffMs * 2);
        }
        if (e.errorCode() == 429) {
          listener.rateLimited(what, (int) (waitMs / 1000));
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

  /** {@link ChatStopper#waitingOn}: a stop cancels {@code future}. */
  public <T> CompletableFuture<T> waitingOn(CompletableFuture<T> future) {
    return stopper.waitingOn(future);
  }

  /** Waits {@code ms} unless the bridge stops first (then throws). */
  public void sleep(long ms) throws InterruptedIOException {
    stopper.sleep(ms);
  }

  /** The first backoff. */
  public Duration initial() {
    return initial;
  }

  /** The longest backoff. */
  public Duration max() {
    return max;
  }
}
