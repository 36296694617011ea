package dev.tether.store;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The store-wide payload byte account behind {@code maxTotalBytes}: the bytes all rings retain
 * plus the bytes reserved by appends in flight. Rings report every change under their own lock
 * ({@link #add}); an append reserves its frame's size before it stores it and releases the
 * reservation after, so concurrent appends can never take the store over its budget together.
 * Thread-safe (one {@link AtomicLong}).
 */
final class StoreBudget {
  /** The account of a store without a budget: counts nothing. */
  static final StoreBudget NONE = new StoreBudget(Long.MAX_VALUE);

  final long max;
  private final AtomicLong used = new AtomicLong();

  StoreBudget(long max) {
    this.max = max;
  }

  void add(long delta) {
    if (delta != 0 && this != NONE) {
      used.addAndGet(delta);
    }
  }

  /** Reserves {@code bytes} if they fit under the budget. */
  boolean tryReserve(long bytes) {
    while (this != NONE) {
      long u = used.get();
      if (u + bytes > max) {
        return false;
      }
      if (used.compareAndSet(u, u + bytes)) {
        return true;
      }
    }
    return true;
  }

  long used() {
    return used.get();
  }
}
