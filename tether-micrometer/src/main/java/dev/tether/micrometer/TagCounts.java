package dev.tether.micrometer;

import dev.tether.store.FrameCounts;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Set;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.ToLongFunction;

/**
 * The counts of every instance state that shares one {@code instance} tag value: the live
 * {@link FrameCounts} the store handed over, plus the final counts of states already released
 * (instances removed, freed as idle, views closed). A sum is what a {@code FunctionCounter} reports.
 *
 * <p>Monotonic: a scrape and a release take the same lock, so a scrape sees a released state
 * either still live or already folded, never both and never neither; each live count never
 * decreases (see {@link FrameCounts}) and a released one is final, so no sum is ever lower than an
 * earlier one. The lock is taken only at scrape and on creation and release, never by an append.
 * Thread-safe.
 */
final class TagCounts {
  private static final int TYPES = FrameCounts.TYPES.size();
  private static final int APPENDED_BYTES = TYPES;
  private static final int EVICTED_FRAMES = 2 * TYPES;
  private static final int EVICTED_BYTES = EVICTED_FRAMES + 1;
  private static final int GAPS = EVICTED_BYTES + 1;

  private final ReentrantLock lock = new ReentrantLock();
  private final Set<FrameCounts> live = Collections.newSetFromMap(new IdentityHashMap<>());
  private final long[] released = new long[GAPS + 1];

  /** Starts summing {@code counts}. */
  void add(FrameCounts counts) {
    lock.lock();
    try {
      live.add(counts);
    } finally {
      lock.unlock();
    }
  }

  /** Folds the final {@code counts} into the released totals; ignored for counts never added. */
  void release(FrameCounts counts) {
    lock.lock();
    try {
      if (!live.remove(counts)) {
        return;
      }
      for (int t = 0; t < TYPES; t++) {
        released[t] += counts.appendedFrames(t);
        released[APPENDED_BYTES + t] += counts.appendedBytes(t);
      }
      released[EVICTED_FRAMES] += counts.evictedFrames();
      released[EVICTED_BYTES] += counts.evictedBytes();
      released[GAPS] += counts.gapsServed();
    } finally {
      lock.unlock();
    }
  }

  double appendedFrames(int type) {
    return sum(type, c -> c.appendedFrames(type));
  }

  double appendedBytes(int type) {
    return sum(APPENDED_BYTES + type, c -> c.appendedBytes(type));
  }

  double evictedFrames() {
    return sum(EVICTED_FRAMES, FrameCounts::evictedFrames);
  }

  double evictedBytes() {
    return sum(EVICTED_BYTES, FrameCounts::evictedBytes);
  }

  double gapsServed() {
    return sum(GAPS, FrameCounts::gapsServed);
  }

  /** States summed now (not yet released); for tests. */
  int liveStates() {
    lock.lock();
    try {
      return live.size();
    } finally {
      lock.unlock();
    }
  }

  private double sum(int slot, ToLongFunction<FrameCounts> count) {
    lock.lock();
    try {
      long total = released[slot];
      for (FrameCounts c : live) {
        total += count.applyAsLong(c);
      }
      return total;
    } finally {
      lock.unlock();
    }
  }
}
