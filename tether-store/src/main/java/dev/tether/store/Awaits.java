package dev.tether.store;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** The blocking side of {@link TetherStore#awaitFrames}, shared by the stores. */
final class Awaits {
  private Awaits() {}

  /** Blocks on a wait's future as {@link TetherStore#awaitFrames} describes. */
  static QueryResult await(CompletableFuture<QueryResult> f, Duration timeout)
      throws InterruptedException {
    try {
      // The store's own timer completes the future; the extra second only guards against a
      // stalled timer thread.
      return f.get(Math.max(0, timeout.toMillis()) + 1000, TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      f.cancel(false);
      throw e;
    } catch (TimeoutException e) {
      f.cancel(false);
      throw new IllegalStateException("the store's timer did not complete a wait of " + timeout, e);
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      if (cause instanceof RuntimeException r) {
        throw r;
      }
      throw new IllegalStateException(cause);
    }
  }
}
