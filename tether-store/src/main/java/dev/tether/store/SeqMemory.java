package dev.tether.store;

import java.util.HashMap;
import java.util.Map;

/**
 * The last seq of instances that are gone from memory (removed, or freed while idle), so that an
 * instance created again under the same name never reuses a seq.
 *
 * <p>Bounded: past {@code capacity} names the whole map is folded into one floor, the highest seq
 * any forgotten name reached, which every name not remembered individually starts from. So a
 * client that makes up instance names without end costs a bounded amount of memory, and seqs are
 * still never reused (a re-created instance may start higher than it would have, never lower).
 * Thread-safe; every method is short and holds this object's lock, never calling out.
 */
final class SeqMemory {
  static final int DEFAULT_CAPACITY = 65_536;

  private final int capacity;
  private final Map<String, Long> lastSeqs = new HashMap<>();
  private long floor;

  SeqMemory(int capacity) {
    if (capacity < 1) {
      throw new IllegalArgumentException("capacity must be >= 1 but was " + capacity);
    }
    this.capacity = capacity;
  }

  /** The last seq {@code name} had when it was last in memory; the floor when not remembered. */
  synchronized long lastSeq(String name) {
    Long seq = lastSeqs.get(name);
    return seq != null ? Math.max(seq, floor) : floor;
  }

  /** Remembers that {@code name} left memory at {@code seq}. */
  synchronized void remember(String name, long seq) {
    lastSeqs.merge(name, seq, Math::max);
    if (lastSeqs.size() > capacity) {
      for (long s : lastSeqs.values()) {
        floor = Math.max(floor, s);
      }
      lastSeqs.clear();
    }
  }

  /** How many names are remembered one by one; for tests. */
  synchronized int size() {
    return lastSeqs.size();
  }
}
