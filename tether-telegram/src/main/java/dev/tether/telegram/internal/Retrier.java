package dev.tether.telegram.internal;

import dev.tether.chat.ChatRetrier;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;

/**
 * Retries Bot API calls the way the API asks to be retried: the core's {@link ChatRetrier} (after
 * {@code parameters.retry_after} seconds for a 429, capped exponential backoff for 5xx answers and
 * network failures, any other {@link BotApiException} thrown at once). Thread-safe.
 */
public final class Retrier {
  /** A Bot API call. */
  @FunctionalInterface
  public interface Call<T> {
    T run() throws IOException;
  }

  private final ChatRetrier core;

  public Retrier(Duration initial, Duration max, BridgeLog log, Stopper stopper) {
    this.core = new ChatRetrier(initial, max, log.chat(), stopper.core());
  }

  /** The core retrier, for the core's loops. */
  public ChatRetrier core() {
    return core;
  }

  public <T> T call(String what, Call<T> call) throws IOException {
    return core.call(what, call::run);
  }

  /** Whether the bridge is stopping. */
  public boolean stopping() {
    return core.stopping();
  }

  /** A stop cancels {@code future}. */
  public <T> CompletableFuture<T> waitingOn(CompletableFuture<T> future) {
    return core.waitingOn(future);
  }

  /** Waits {@code ms} unless the bridge stops first (then throws). */
  public void sleep(long ms) throws InterruptedIOException {
    core.sleep(ms);
  }
}
