package dev.tether.server.internal;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Logs the server's own failures (bugs, out of memory) without flooding: the first failure is
 * logged with its stack trace, later ones as one line at most once per {@link #INTERVAL_NANOS},
 * with the number left out since. Client faults are never logged here. Thread-safe.
 */
final class FailureLog {
  static final long INTERVAL_NANOS = 10_000_000_000L;
  private static final System.Logger LOG = System.getLogger(TetherHandler.class.getName());

  private final AtomicLong last = new AtomicLong(System.nanoTime() - INTERVAL_NANOS);
  private final AtomicLong suppressed = new AtomicLong();
  private final AtomicLong total = new AtomicLong();

  void log(String what, Throwable failure) {
    long n = total.incrementAndGet();
    long now = System.nanoTime();
    long prev = last.get();
    if (n > 1 && (now - prev < INTERVAL_NANOS || !last.compareAndSet(prev, now))) {
      suppressed.incrementAndGet();
      return;
    }
    last.set(now);
    long skipped = suppressed.getAndSet(0);
    String line = what + ": " + failure + (skipped > 0 ? " (" + skipped + " more since the last report)" : "");
    if (n == 1) {
      LOG.log(System.Logger.Level.ERROR, line, failure);
    } else {
      LOG.log(System.Logger.Level.ERROR, line);
    }
  }

  /** Failures seen so far, logged or not. */
  long total() {
    return total.get();
  }
}
