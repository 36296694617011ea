package dev.tether.server.internal;

import java.util.concurrent.atomic.AtomicBoolean;
import org.eclipse.jetty.util.Callback;

/**
 * The callback of one answer write that holds egress memory: it gives the bytes it reserved back
 * to the {@link ByteBudget} when the write ends, however it ends, and then completes {@code next}
 * once. A reader that stops reading does not hold them for ever: a write that moves no bytes for
 * the request idle timeout fails, and with it this callback.
 */
final class EgressWrite implements Callback {
  /** Answers up to this size are written without a reservation: bounded by the connection cap. */
  static final int SMALL_ANSWER_BYTES = 64 * 1024;

  private final Callback next;
  private final ByteBudget budget;
  private final long reserved;
  private final AtomicBoolean done = new AtomicBoolean();

  private EgressWrite(Callback next, ByteBudget budget, long reserved) {
    this.next = next;
    this.budget = budget;
    this.reserved = reserved;
  }

  /**
   * Reserves {@code bytes} of {@code budget} for a write that completes {@code next}; null when
   * they do not fit now (the caller answers 503 or retries). Small answers reserve nothing.
   */
  static Callback reserve(ByteBudget budget, long bytes, Callback next) {
    if (bytes <= SMALL_ANSWER_BYTES) {
      return next;
    }
    return budget.tryReserve(bytes) ? new EgressWrite(next, budget, bytes) : null;
  }

  /** A callback that gives back {@code reserved} bytes, already reserved from {@code budget}, when the write ends. */
  static Callback holding(ByteBudget budget, long reserved, Callback next) {
    return new EgressWrite(next, budget, reserved);
  }

  @Override
  public void succeeded() {
    if (done.compareAndSet(false, true)) {
      budget.release(reserved);
      next.succeeded();
    }
  }

  @Override
  public void failed(Throwable x) {
    if (done.compareAndSet(false, true)) {
      budget.release(reserved);
      next.failed(x);
    }
  }
}
