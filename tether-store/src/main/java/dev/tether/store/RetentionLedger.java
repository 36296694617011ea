package dev.tether.store;

import dev.tether.api.FrameTypes;

/**
 * The journal's copy of one instance's retention bookkeeping: the seqs and payload sizes of the
 * frames it holds, oldest first. It applies exactly the rule of {@link FrameRing} (evict the oldest
 * until both caps hold, keep the newest; deltas optionally never retained), so the rows the journal
 * keeps are the frames the ring keeps, and evictions can be deleted in the same transaction as
 * the insert that caused them, before the ring sees either. Not thread-safe: the journal writer
 * owns it.
 */
final class RetentionLedger {
  private final Retention retention;
  private final LongDeque seqs = new LongDeque();
  private final LongDeque sizes = new LongDeque();
  private long bytes;

  RetentionLedger(Retention retention) {
    this.retention = retention;
  }

  boolean retains(String type) {
    return retention.deltasInRing() || !FrameTypes.isDelta(type);
  }

  /**
   * Records a retained frame and returns the highest seq evicted by it, or 0 when none was. Every
   * seq at or below the returned one is gone, since eviction is oldest-first.
   */
  long add(long seq, long payloadBytes) {
    long evicted = 0;
    while (seqs.size() >= retention.maxFrames()) {
      evicted = evictOldest();
    }
    seqs.addLast(seq);
    sizes.addLast(payloadBytes);
    bytes += payloadBytes;
    while (bytes > retention.maxBytes() && seqs.size() > 1) {
      evicted = evictOldest();
    }
    return evicted;
  }

  private long evictOldest() {
    bytes -= sizes.removeFirst();
    return seqs.removeFirst();
  }

  void clear() {
    seqs.clear();
    sizes.clear();
    bytes = 0;
  }

  int size() {
    return seqs.size();
  }

  long bytes() {
    return bytes;
  }
}
