package dev.tether.store;

import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * Where wait timeouts run: one shared scheduler per store, never a thread per wait. Tests
 * substitute a scheduler they control (the Lincheck model checker cannot explore a real timer).
 */
interface Timeouts {
  /** Runs {@code task} after {@code nanos}; the returned action cancels it. */
  Runnable schedule(Runnable task, long nanos);

  static Timeouts of(ScheduledExecutorService timer) {
    return (task, nanos) -> {
      ScheduledFuture<?> f = timer.schedule(task, nanos, TimeUnit.NANOSECONDS);
      return () -> f.cancel(false);
    };
  }
}
