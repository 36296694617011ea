package dev.tether.store;

import dev.tether.store.internal.LongDeque;
import dev.tether.api.Frame;
import dev.tether.api.FrameTypes;
import dev.tether.api.SessionKey;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * One instance's retained frames: a byte- and count-budgeted ring with a per-session index.
 *
 * <p>Design: retained frames get consecutive ordinals; ordinal {@code o} lives in slot
 * {@code o & mask} of a power-of-two array that grows up to the count cap, with the seq in a
 * parallel {@code long[]} so binary searches never touch the frames. Each session keeps an
 * ascending deque of its ordinals, so a session-tail query costs O(log n + result) instead of a
 * scan of the ring. Eviction always removes the oldest retained frame, which is also the oldest
 * frame of its session, so it pops the front of that session's deque. A session whose frames were
 * all evicted keeps its empty entry (a few dozen bytes) so that its gap stays exact; entries go
 * away with the instance. The payload bytes are held
 * once, by the frame itself; nothing is copied on insert or query.
 *
 * <p>Seq stamping is deferred: {@link #add(Frame, long)} may keep the caller's frame as given,
 * with its assigned seq in {@code seqs} only, so an append that nobody waits on allocates nothing.
 * Every read goes through {@link #frameAt(long)}, which stamps a slot whose frame does not carry
 * its seq yet ({@link Frame#withSeq}) and keeps the stamped frame in the slot, so each frame is
 * copied at most once and every reader sees the same object. The appending session's entry is
 * cached by key identity, as consecutive appends usually come from one session.
 *
 * <p>Not thread-safe: {@link InstanceState} guards it with its lock.
 */
final class FrameRing {
  /**
   * Transient deltas (not retained under the policy) kept for polls that arrive a moment late: at
   * most this many per instance, the newest.
   */
  static final int LIVE_WINDOW_FRAMES = 64;
  /** ... and at most this many payload bytes (the newest delta is always kept). */
  static final long LIVE_WINDOW_BYTES = 256 * 1024;

  private final Retention retention;
  private final ArrayDeque<Frame> live = new ArrayDeque<>();
  private long liveBytes;
  private Frame[] frames = new Frame[16];
  private long[] seqs = new long[16];
  private Session[] owners = new Session[16];
  private long firstOrd;
  private long nextOrd;
  private long bytes;
  /** Where evictions are counted; the owner's counts (written under its lock, as this ring). */
  private final InstanceCounts counts;
  private long lastSeq;
  private long maxEvictedSeq;
  private final Map<SessionKey, Session> sessions = new HashMap<>();
  /** The last session appended to, by key identity (a hit skips the map); null when none. */
  private SessionKey lastKey;
  private Session lastSession;

  /** A session's retained ordinals and the highest seq it lost to eviction. */
  static final class Session {
    final LongDeque ords = new LongDeque();
    long maxEvictedSeq;
  }

  FrameRing(Retention retention) {
    this(retention, new InstanceCounts());
  }

  /** A ring that counts its evictions in {@code counts}. */
  FrameRing(Retention retention, InstanceCounts counts) {
    this.retention = retention;
    this.counts = counts;
  }

  long lastSeq() {
    return lastSeq;
  }

  /** Raises the seq high-water mark, e.g. to continue after a removed or restored history. */
  void advanceSeq(long seq) {
    lastSeq = Math.max(lastSeq, seq);
  }

  int size() {
    return (int) (nextOrd - firstOrd);
  }

  long bytes() {
    return bytes;
  }

  /** Transient deltas in the live window (not retained, never counted in {@link #size()}). */
  int liveSize() {
    return live.size();
  }

  /** Whether a frame of this type is retained under the policy. */
  boolean retains(String type) {
    return retention.deltasInRing() || !FrameTypes.isDelta(type);
  }

  /**
   * Records {@code frame}, which carries a seq above {@link #lastSeq()}, retaining it unless the
   * policy keeps its type out, and evicts the oldest frames until both caps hold.
   */
  void add(Frame frame) {
    add(frame, frame.seq());
  }

  /**
   * As {@link #add(Frame)} for a frame that is to carry {@code seq}: a retained frame is kept
   * unstamped (its seq in {@code seqs}) and stamped on its first read; a transient delta is
   * stamped now. The caller must not hand the frame to anyone else with a seq other than
   * {@code seq}; to do so, stamp it first and pass the stamped frame.
   */
  void add(Frame frame, long seq) {
    if (seq <= lastSeq) {
      throw new IllegalArgumentException("seq " + seq + " is not above " + lastSeq);
    }
    lastSeq = seq;
    if (!retains(frame.type())) {
      keepLive(frame.seq() == seq ? frame : frame.withSeq(seq));
      return;
    }
    while (size() >= retention.maxFrames()) {
      evictOldest();
    }
    if (size() == frames.length) {
      grow();
    }
    SessionKey key = frame.session().orElse(null);
    Session s = lastSession;
    if (s == null || key != lastKey) {
      s = sessions.get(key);
      if (s == null) {
        s = new Session();
        sessions.put(key, s);
      }
      lastKey = key;
      lastSession = s;
    }
    int slot = (int) (nextOrd & (frames.length - 1));
    frames[slot] = frame;
    seqs[slot] = seq;
    owners[slot] = s;
    s.ords.addLast(nextOrd);
    nextOrd++;
    bytes += frame.payload().size();
    while (bytes > retention.maxBytes() && size() > 1) {
      evictOldest();
    }
  }

  /**
   * Keeps a transient delta in the live window. The window never counts against the caps and its
   * expiry is never a gap: a delta is a piece of the assistant.done that follows it.
   */
  private void keepLive(Frame frame) {
    live.addLast(frame);
    liveBytes += frame.payload().size();
    while (live.size() > LIVE_WINDOW_FRAMES || (liveBytes > LIVE_WINDOW_BYTES && live.size() > 1)) {
      liveBytes -= live.removeFirst().payload().size();
    }
  }

  /** Evicts the oldest retained frame (a store-wide budget eviction); the caller checks size. */
  void evictOldestOne() {
    evictOldest();
  }

  /** Evicts retained frames whose seq is at most {@code seq}. */
  void evictThrough(long seq) {
    while (size() > 0 && seqAt(firstOrd) <= seq) {
      evictOldest();
    }
  }

  /** The instance-wide eviction high-water mark: every seq at or below it is gone. */
  long maxEvictedSeq() {
    return maxEvictedSeq;
  }

  /** Each session's eviction high-water mark (sessions that lost frames only); a copy. */
  Map<SessionKey, Long> sessionEvictedSeqs() {
    Map<SessionKey, Long> out = new HashMap<>();
    for (Map.Entry<SessionKey, Session> e : sessions.entrySet()) {
      if (e.getKey() != null && e.getValue().maxEvictedSeq > 0) {
        out.put(e.getKey(), e.getValue().maxEvictedSeq);
      }
    }
    return out;
  }

  /**
   * Restores eviction high-water marks saved before a restart, so a cursor into history evicted
   * before it still reports a gap. Call before adding the restored frames.
   */
  void restoreEvicted(long evictedSeq, Map<SessionKey, Long> sessionEvicted) {
    maxEvictedSeq = Math.max(maxEvictedSeq, evictedSeq);
    for (Map.Entry<SessionKey, Long> e : sessionEvicted.entrySet()) {
      Session s = sessions.computeIfAbsent(e.getKey(), k -> new Session());
      s.maxEvictedSeq = Math.max(s.maxEvictedSeq, e.getValue());
    }
  }

  private void evictOldest() {
    int slot = (int) (firstOrd & (frames.length - 1));
    Frame f = frames[slot];
    counts.evicted(f.payload().size());
    Session s = owners[slot];
    s.ords.removeFirst();
    s.maxEvictedSeq = seqs[slot];
    maxEvictedSeq = seqs[slot];
    bytes -= f.payload().size();
    frames[slot] = null;
    owners[slot] = null;
    firstOrd++;
  }

  private void grow() {
    int n = frames.length * 2;
    Frame[] f = new Frame[n];
    long[] q = new long[n];
    Session[] o = new Session[n];
    for (long ord = firstOrd; ord < nextOrd; ord++) {
      int from = (int) (ord & (frames.length - 1));
      int to = (int) (ord & (n - 1));
      f[to] = frames[from];
      q[to] = seqs[from];
      o[to] = owners[from];
    }
    frames = f;
    seqs = q;
    owners = o;
  }

  private long seqAt(long ord) {
    return seqs[(int) (ord & (frames.length - 1))];
  }

  /** The frame at {@code ord}, stamped with its seq (once; the stamped frame stays in the slot). */
  private Frame frameAt(long ord) {
    int slot = (int) (ord & (frames.length - 1));
    Frame f = frames[slot];
    long seq = seqs[slot];
    if (f.seq() != seq) {
      f = f.withSeq(seq);
      frames[slot] = f;
    }
    return f;
  }

  /** The retained frames, oldest first (a copy). */
  List<Frame> snapshot() {
    List<Frame> out = new ArrayList<>(size());
    for (long o = firstOrd; o < nextOrd; o++) {
      out.add(frameAt(o));
    }
    return out;
  }

  /** Answers {@code q}; see {@link QueryResult} for next_seq and gap. Includes the live window's deltas. */
  QueryResult query(FrameQuery q) {
    QueryResult r = queryRetained(q);
    return live.isEmpty() ? r : withLive(q, r);
  }

  /**
   * Merges the live window's matching deltas into a page of retained frames. A forward page that
   * was full ends at its last retained frame, so only deltas before that join it (later ones come
   * with the next page); the merged page is cut to the limit again and resumes after its last
   * frame. A backward page keeps the newest {@code limit} of the union.
   */
  private QueryResult withLive(FrameQuery q, QueryResult r) {
    boolean full = !q.backward() && r.frames().size() == q.limit() && r.nextSeq() < lastSeq;
    long ceiling = q.backward() ? q.beforeSeq() : full ? r.nextSeq() : Long.MAX_VALUE;
    List<Frame> extra = new ArrayList<>();
    for (Frame f : live) {
      if (f.seq() > q.afterSeq() && f.seq() < ceiling && q.matches(f)) {
        extra.add(f);
      }
    }
    if (extra.isEmpty()) {
      return r;
    }
    List<Frame> all = new ArrayList<>(r.frames().size() + extra.size());
    int i = 0;
    int j = 0;
    while (i < r.frames().size() || j < extra.size()) {
      if (j == extra.size() || (i < r.frames().size() && r.frames().get(i).seq() < extra.get(j).seq())) {
        all.add(r.frames().get(i++));
      } else {
        all.add(extra.get(j++));
      }
    }
    int limit = q.limit();
    if (q.backward()) {
      List<Frame> page = all.size() > limit ? all.subList(all.size() - limit, all.size()) : all;
      return new QueryResult(List.copyOf(page), page.get(0).seq(), false, r.gap(), r.oldestSeq());
    }
    if (all.size() > limit) {
      List<Frame> page = List.copyOf(all.subList(0, limit));
      return new QueryResult(page, page.get(limit - 1).seq(), false, r.gap(), r.oldestSeq());
    }
    return new QueryResult(all, full ? r.nextSeq() : Math.max(r.nextSeq(), all.get(all.size() - 1).seq()), false, r.gap(), r.oldestSeq());
  }

  private QueryResult queryRetained(FrameQuery q) {
    SessionKey key = q.sessionKey();
    if (key != null) {
      Session s = sessions.get(key);
      if (s == null) {
        return new QueryResult(List.of(), q.backward() ? 0 : Math.max(q.afterSeq(), lastSeq), false, false, 0);
      }
      return page(q, new SessionCursor(s.ords), s.maxEvictedSeq, true);
    }
    return page(q, new RingCursor(), maxEvictedSeq, false);
  }

  /** Ordinals of a scope in ascending seq order. */
  private interface Cursor {
    int size();

    long ord(int i);
  }

  private record SessionCursor(LongDeque ords) implements Cursor {
    @Override
    public int size() {
      return ords.size();
    }

    @Override
    public long ord(int i) {
      return ords.get(i);
    }
  }

  private final class RingCursor implements Cursor {
    @Override
    public int size() {
      return FrameRing.this.size();
    }

    @Override
    public long ord(int i) {
      return firstOrd + i;
    }
  }

  /** The first index in {@code c} whose seq is greater than {@code seq}. */
  private int firstAbove(Cursor c, long seq) {
    int lo = 0;
    int hi = c.size();
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (seqAt(c.ord(mid)) > seq) {
        hi = mid;
      } else {
        lo = mid + 1;
      }
    }
    return lo;
  }

  private QueryResult page(FrameQuery q, Cursor c, long scopeEvicted, boolean sessionMatched) {
    boolean gap = scopeEvicted > q.afterSeq();
    long oldest = gap && c.size() > 0 ? seqAt(c.ord(0)) : 0;
    int limit = q.limit();
    List<Frame> out = new ArrayList<>(Math.min(limit, 16));
    if (!q.backward()) {
      int n = c.size();
      for (int i = firstAbove(c, q.afterSeq()); i < n; i++) {
        Frame f = frameAt(c.ord(i));
        if (sessionMatched ? q.matchesTypeAndReply(f) : q.matches(f)) {
          if (out.size() == limit) {
            // More matches exist: resume right after the last frame returned.
            return new QueryResult(out, out.get(limit - 1).seq(), false, gap, oldest);
          }
          out.add(f);
        }
      }
      return new QueryResult(out, Math.max(q.afterSeq(), lastSeq), false, gap, oldest);
    }
    for (int i = firstAbove(c, q.beforeSeq() - 1) - 1; i >= 0 && out.size() < limit; i--) {
      Frame f = frameAt(c.ord(i));
      if (f.seq() <= q.afterSeq()) {
        break;
      }
      if (sessionMatched ? q.matchesTypeAndReply(f) : q.matches(f)) {
        out.add(f);
      }
    }
    Collections.reverse(out);
    return new QueryResult(out, out.isEmpty() ? 0 : out.get(0).seq(), false, gap, oldest);
  }

  /** Drops everything (instance removal); keeps the seq high-water mark. */
  void clear() {
    live.clear();
    liveBytes = 0;
    Arrays.fill(frames, null);
    Arrays.fill(owners, null);
    firstOrd = nextOrd;
    bytes = 0;
    sessions.clear();
    lastKey = null;
    lastSession = null;
  }
}
