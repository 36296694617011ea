package dev.tether.store.internal;

import dev.tether.store.Retention;
import dev.tether.api.FrameTypes;
import dev.tether.api.SessionKey;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;

/**
 * The journal's copy of one instance's retention bookkeeping: the seqs, payload sizes and sessions
 * of the frames it holds, oldest first. It applies exactly the rule of the memory ring ({@code FrameRing}) (evict the
 * oldest until both caps hold, keep the newest; deltas optionally never retained), so the rows the
 * journal keeps are the frames the ring keeps, and evictions can be deleted in the same
 * transaction as the insert that caused them, before the ring sees either. It also remembers the
 * eviction high-water marks (instance-wide and per session) not yet written to the journal, so a
 * restart restores gaps exactly. Not thread-safe: the journal writer owns it.
 */
public final class RetentionLedger {
  private final Retention retention;
  private final LongDeque seqs = new LongDeque();
  private final LongDeque sizes = new LongDeque();
  private final ArrayDeque<Object> sessions = new ArrayDeque<>(); // SessionKey or NO_SESSION
  private static final Object NO_SESSION = new Object();
  private final Map<SessionKey, Long> dirtySessionMarks = new HashMap<>();
  private long bytes;

  public RetentionLedger(Retention retention) {
    this.retention = retention;
  }

  public boolean retains(String type) {
    return retention.deltasInRing() || !FrameTypes.isDelta(type);
  }

  /**
   * Records a retained frame and returns the highest seq evicted by it, or 0 when none was. Every
   * seq at or below the returned one is gone, since eviction is oldest-first.
   */
  public long add(long seq, long payloadBytes, SessionKey session) {
    long evicted = 0;
    while (seqs.size() >= retention.maxFrames()) {
      evicted = evictOldest();
    }
    seqs.addLast(seq);
    sizes.addLast(payloadBytes);
    sessions.addLast(session == null ? NO_SESSION : session);
    bytes += payloadBytes;
    while (bytes > retention.maxBytes() && seqs.size() > 1) {
      evicted = evictOldest();
    }
    return evicted;
  }

  /** Evicts the oldest frame for the store-wide budget unless it is the last; its seq or 0. */
  public long evictOneForBudget() {
    return seqs.size() > 1 ? evictOldest() : 0;
  }

  /** The oldest retained seq, or 0. */
  public long oldestSeq() {
    return seqs.size() == 0 ? 0 : seqs.get(0);
  }

  private long evictOldest() {
    bytes -= sizes.removeFirst();
    Object s = sessions.removeFirst();
    long seq = seqs.removeFirst();
    if (s != NO_SESSION) {
      dirtySessionMarks.merge((SessionKey) s, seq, Math::max);
    }
    return seq;
  }

  /** The per-session eviction marks raised since the last call; they are forgotten here. */
  public Map<SessionKey, Long> drainSessionMarks() {
    if (dirtySessionMarks.isEmpty()) {
      return Map.of();
    }
    Map<SessionKey, Long> out = new HashMap<>(dirtySessionMarks);
    dirtySessionMarks.clear();
    return out;
  }

  public void clear() {
    seqs.clear();
    sizes.clear();
    sessions.clear();
    dirtySessionMarks.clear();
    bytes = 0;
  }

  public int size() {
    return seqs.size();
  }

  public long bytes() {
    return bytes;
  }
}
