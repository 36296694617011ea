package dev.tether.server.internal;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The long-polls and streams the server holds at once, capped in all and per instance. A wait
 * costs no thread, but each holds a store waiter, a connection and, when it is answered, an answer
 * being written; without a cap one client could open them until memory or file descriptors ran
 * out. Past either cap a new wait is refused (503 with {@code Retry-After}); waits already held are
 * untouched. Lock-free and thread-safe: a slot is taken by incrementing both counters and given
 * back if either went past its cap.
 */
final class WaitSlots {
  private final int maxTotal;
  private final int maxPerInstance;
  private final AtomicInteger total = new AtomicInteger();
  private final ConcurrentHashMap<String, AtomicInteger> perInstance = new ConcurrentHashMap<>();

  WaitSlots(int maxTotal, int maxPerInstance) {
    if (maxTotal < 1 || maxPerInstance < 1) {
      throw new IllegalArgumentException("wait caps must be >= 1 but were " + maxTotal + " and " + maxPerInstance);
    }
    this.maxTotal = maxTotal;
    this.maxPerInstance = maxPerInstance;
  }

  /** Takes a slot for {@code instance}; false (and nothing taken) when a cap is reached. */
  boolean tryAcquire(String instance) {
    if (total.incrementAndGet() > maxTotal) {
      total.decrementAndGet();
      return false;
    }
    AtomicInteger mine = perInstance.computeIfAbsent(instance, k -> new AtomicInteger());
    if (mine.incrementAndGet() > maxPerInstance) {
      mine.decrementAndGet();
      total.decrementAndGet();
      return false;
    }
    return true;
  }

  /** Gives back a slot taken by {@link #tryAcquire}. */
  void release(String instance) {
    AtomicInteger mine = perInstance.get(instance);
    if (mine != null) {
      // An instance's counter is never removed: ids are bounded by the registry's cap.
      mine.decrementAndGet();
    }
    total.decrementAndGet();
  }

  int held() {
    return total.get();
  }

  int held(String instance) {
    AtomicInteger mine = perInstance.get(instance);
    return mine == null ? 0 : mine.get();
  }

  int maxTotal() {
    return maxTotal;
  }

  int maxPerInstance() {
    return maxPerInstance;
  }
}
