package dev.tether.chat;

import java.io.InterruptedIOException;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * The bridge's stop signal, shared by its loops. Loops check {@link #stopped()} and wait through
 * {@link #sleep}, which wakes at once on stop. The threads are interrupted too, but an interrupt
 * alone is not enough: libraries (logging back ends, interruptible channels) may clear the flag, so
 * the loops never depend on it. Thread-safe.
 */
public final class ChatStopper {
  private final CountDownLatch latch = new CountDownLatch(1);
  private final Set<CompletableFuture<?>> waiting = ConcurrentHashMap.newKeySet();

  public void stop() {
    latch.countDown();
    for (CompletableFuture<?> w : waiting) {
      w.cancel(false);
    }
  }

  public boolean stopped() {
    return latch.getCount() == 0;
  }

  /** Waits {@code ms}; throws when the bridge stops meanwhile (or had stopped). */
  public void sleep(long ms) throws InterruptedIOException {
    try {
      if (latch.await(ms, TimeUnit.MILLISECONDS)) {
        throw new InterruptedIOException("the bridge is stopping");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("the bridge is stopping");
    }
  }

  /** Registers the future a loop waits on, so that a stop cancels it; returns it. */
  public <T> CompletableFuture<T> waitingOn(CompletableFuture<T> future) {
    waiting.add(future);
    future.whenComplete((r, t) -> waiting.remove(future));
    if (stopped()) {
      future.cancel(false);
    }
    return future;
  }

  /** Throws when the bridge is stopping. */
  public void check() throws InterruptedIOException {
    if (stopped()) {
      throw new InterruptedIOException("the bridge is stopping");
    }
  }
}
