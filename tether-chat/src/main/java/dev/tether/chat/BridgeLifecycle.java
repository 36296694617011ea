package dev.tether.chat;

import java.io.IOException;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;

/**
 * The start-once, close-once life of a chat bridge's running part (its loops, endpoint and state
 * lock), shared by the Telegram, Slack and WhatsApp bridges: {@link #start} runs the starter at
 * most once and never after {@link #close}; {@link #close} is idempotent and closes what was
 * started outside the lock, so a slow shutdown never blocks readers of {@link #read}.
 * Thread-safe.
 *
 * @param <R> the running part
 */
public final class BridgeLifecycle<R extends AutoCloseable> {
  /** Starts the running part. */
  @FunctionalInterface
  public interface Starter<R> {
    R start() throws IOException;
  }

  private final ReentrantLock lock = new ReentrantLock();
  private R running;
  private boolean closed;

  /**
   * Starts the running part with {@code starter}.
   *
   * @throws IOException what the starter throws (the bridge then stays unstarted and may be started again)
   * @throws IllegalStateException when already started or closed
   */
  public void start(Starter<R> starter) throws IOException {
    lock.lock();
    try {
      if (closed || running != null) {
        throw new IllegalStateException(closed ? "the bridge is closed" : "the bridge is already started");
      }
      running = starter.start();
    } finally {
      lock.unlock();
    }
  }

  /** {@code query} of the running part, or {@code whenNotRunning} before start and after close. */
  public <T> T read(Function<R, T> query, T whenNotRunning) {
    lock.lock();
    try {
      return running == null || closed ? whenNotRunning : query.apply(running);
    } finally {
      lock.unlock();
    }
  }

  /** Closes the running part, if any; later starts fail. Idempotent. */
  public void close() {
    R r;
    lock.lock();
    try {
      if (closed) {
        return;
      }
      closed = true;
      r = running;
    } finally {
      lock.unlock();
    }
    if (r != null) {
      try {
        r.close();
      } catch (Exception e) {
        System.getLogger("dev.tether.chat").log(System.Logger.Level.WARNING, "closing the bridge failed: " + e.getMessage());
      }
    }
  }
}
