package dev.tether.server.internal;

import dev.tether.store.StoreUnavailableException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * A start-up step retried while the shared store is still forming (a JetStream cluster whose nodes
 * and hosts start together): {@link StoreUnavailableException} is retried with growing pauses
 * (100 ms to 1 s) until a deadline, then thrown; anything else at once. Stateless.
 */
final class StartupRetry {
  private static final System.Logger LOG = System.getLogger(StartupRetry.class.getName());

  /** A start-up step. */
  @FunctionalInterface
  interface Step {
    void run() throws IOException;
  }

  private StartupRetry() {}

  /**
   * Runs {@code step}, again while it throws {@link StoreUnavailableException}, until {@code wait}
   * has passed; then the last such exception.
   *
   * @throws IOException what {@code step} throws, or {@link InterruptedIOException} when interrupted while waiting
   */
  static void untilReady(String what, Duration wait, Step step) throws IOException {
    long deadline = System.nanoTime() + wait.toNanos();
    for (int attempt = 0; ; attempt++) {
      try {
        step.run();
        return;
      } catch (StoreUnavailableException e) {
        long pauseMillis = Math.min(1000, 100L << Math.min(attempt, 4));
        if (System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(pauseMillis) - deadline > 0) {
          throw e;
        }
        LOG.log(System.Logger.Level.INFO, "{0}: the store is not ready yet ({1}); retrying", what, e.getMessage());
        try {
          Thread.sleep(pauseMillis);
        } catch (InterruptedException ie) {
          Thread.currentThread().interrupt();
          throw new InterruptedIOException("interrupted at start-up while " + what);
        }
      }
    }
  }
}
