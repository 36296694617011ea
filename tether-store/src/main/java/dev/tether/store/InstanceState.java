package dev.tether.store;

import dev.tether.store.internal.Handoff;
import dev.tether.api.Frame;
import dev.tether.api.SessionKey;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;

/**
 * One instance's ring, waiters and subscribers.
 *
 * <p>Concurrency: one {@link ReentrantLock} guards the ring, the waiter index and the subscriber
 * array. Appends, queries and wait registration hold it for O(1) or O(result) work and never run
 * caller code under it: after the lock is released, the completions of caller-visible futures are
 * handed to the store's executor (see {@link Handoff}), in seq order per append. Only futures the
 * store keeps to itself (the blocking {@code awaitFrames}) complete inline. Removal only marks
 * the instance and collects what must end; the caller ends it outside any map compute. A waiter registers only after a query under the same lock found nothing, so no append
 * can slip between the check and the registration (no lost wake-up).
 *
 * <p>Waiters are indexed by session key: an append looks at the waiters of its own session and at
 * the few waiters whose query names no session, and wakes only those whose filters match. Idle
 * waiters on other sessions cost nothing. A woken waiter gets exactly the frame that woke it (the
 * first match after its cursor), so it never needs to re-query. Timeouts run on the store's one
 * shared timer thread.
 *
 * <p>Counts: appends (by type), evictions and gaps served are counted in {@link #counts} under the
 * same lock, whatever the listener (a few plain stores, see {@link InstanceCounts}); a binder reads
 * them at scrape time. Counting stops once the instance is marked removed, and the listener is told
 * {@link StoreListener#released} once, after the lock, so it can fold the final counts into a total.
 * Only the wake latency is told per event, and only to a listener other than {@link StoreListener#NONE}.
 */
final class InstanceState {
  private static final Subscription[] NO_SUBSCRIBERS = new Subscription[0];

  final String name;
  private final ReentrantLock lock = new ReentrantLock();
  private final FrameRing ring;
  private final Timeouts timer;
  private final Executor executor;
  private final StoreBudget budget;
  private final Consumer<InstanceState> onIdle;
  private final StoreListener listener;
  /** False for {@link StoreListener#NONE}: then no clock is read. */
  private final boolean listening;
  /** What this instance counts; written under {@link #lock}, read by anyone. */
  private final InstanceCounts counts = new InstanceCounts();
  /** Whether the listener was told {@link StoreListener#released}; under {@link #lock}. */
  private boolean released;
  private final Map<SessionKey, Waiter.WaiterList> bySession = new HashMap<>();
  private final Waiter.WaiterList unkeyed = new Waiter.WaiterList(null);
  private int waiters;
  private Subscription[] subscribers = NO_SUBSCRIBERS;
  private boolean removed;

  InstanceState(String name, Retention retention, Timeouts timer, long seqFloor) {
    this(name, retention, timer, seqFloor, Runnable::run, StoreBudget.NONE, i -> { }, StoreListener.NONE);
  }

  /**
   * @param executor completes caller-visible futures
   * @param budget the store-wide byte account this ring's bytes count against
   * @param onIdle told (outside the lock) when the instance holds no frame, waiter or subscriber
   * @param listener given this instance's counts now and on release; told wake latencies (outside the lock)
   */
  InstanceState(String name, Retention retention, Timeouts timer, long seqFloor,
      Executor executor, StoreBudget budget, Consumer<InstanceState> onIdle,
      StoreListener listener) {
    this.listening = listener != StoreListener.NONE;
    this.name = name;
    this.ring = new FrameRing(retention, counts);
    this.timer = timer;
    this.executor = executor;
    this.budget = budget;
    this.onIdle = onIdle;
    ring.advanceSeq(seqFloor);
    // Last: the binder registers meters here (allocating), after the state's own objects.
    this.listener = listening ? Objects.requireNonNull(listener.forInstance(name, counts), "forInstance") : listener;
  }

  private boolean idleLocked() {
    return !removed && ring.size() == 0 && ring.liveSize() == 0 && waiters == 0 && subscribers.length == 0;
  }

  /** Marks the instance removed if it is idle (the store then forgets it); under no map lock rules. */
  boolean freeIfIdle() {
    lock.lock();
    try {
      if (!idleLocked()) {
        return false;
      }
      removed = true;
      return true;
    } finally {
      lock.unlock();
    }
  }

  /**
   * Evicts the oldest retained frame to make room in the store's budget, unless it is the only
   * one. Returns the bytes freed, or -1 when nothing could be evicted.
   */
  long evictForBudget() {
    long freed;
    lock.lock();
    try {
      if (removed || ring.size() <= 1) {
        return -1;
      }
      long before = ring.bytes();
      ring.evictOldestOne();
      freed = before - ring.bytes();
      budget.add(-freed);
    } finally {
      lock.unlock();
    }
    return freed;
  }

  /** Evicts retained frames up to {@code seq} (a durable store's budget evictions). */
  void evictThrough(long seq) {
    lock.lock();
    try {
      long before = ring.bytes();
      ring.evictThrough(seq);
      budget.add(ring.bytes() - before);
    } finally {
      lock.unlock();
    }
  }

  /** Stores {@code frame} with the next seq; returns it, or -1 when the instance was removed. */
  long append(Frame frame) {
    return append(frame, 0);
  }

  /**
   * As {@link #append(Frame)}, turning {@code reserved} bytes the store reserved in its budget
   * into the ring's real growth in the same step (nothing is counted twice). When the instance
   * was removed the reservation stays with the caller.
   */
  long append(Frame frame, long reserved) {
    List<Runnable> after;
    long seq;
    boolean idle;
    lock.lock();
    try {
      if (removed) {
        return -1;
      }
      seq = ring.lastSeq() + 1;
      after = publishLocked(frame, seq, null, reserved);
      idle = idleLocked();
    } finally {
      lock.unlock();
    }
    runAll(after);
    if (idle) {
      onIdle.accept(this);
    }
    return seq;
  }

  /**
   * Publishes frames that already carry ascending seqs (committed by a journal). Returns false
   * when the instance was removed.
   */
  boolean publish(List<Frame> stored) {
    List<Runnable> after = null;
    lock.lock();
    try {
      if (removed) {
        return false;
      }
      for (Frame f : stored) {
        after = publishLocked(f, f.seq(), after, 0);
      }
    } finally {
      lock.unlock();
    }
    runAll(after);
    return true;
  }

  /** Loads restored frames without waking anyone, then raises the seq to {@code highSeq}. */
  void restore(List<Frame> stored, long highSeq, long evictedSeq, Map<SessionKey, Long> sessionEvicted) {
    lock.lock();
    try {
      ring.restoreEvicted(evictedSeq, sessionEvicted);
      long before = ring.bytes();
      for (Frame f : stored) {
        ring.add(f);
      }
      budget.add(ring.bytes() - before);
      ring.advanceSeq(highSeq);
    } finally {
      lock.unlock();
    }
  }

  /**
   * Adds {@code frame} as seq {@code seq}. With nobody to hand it to (no subscriber, no waiter on
   * its session or on no session) the ring keeps it unstamped and stamps it on its first read, so such an append allocates nothing;
   * otherwise it is stamped here, once, and the ring, the woken waiters and the subscribers share
   * the stamped frame.
   */
  private List<Runnable> publishLocked(Frame frame, long seq, List<Runnable> after, long reserved) {
    SessionKey key = waiters > 0 ? frame.session().orElse(null) : null;
    Waiter.WaiterList list = key != null ? bySession.get(key) : null;
    boolean handOff = list != null || unkeyed.head != null || subscribers.length > 0;
    Frame stored = handOff && frame.seq() != seq ? frame.withSeq(seq) : frame;
    long before = ring.bytes();
    ring.add(stored, seq);
    counts.appended(stored.type(), stored.payload().size()); // after add: a seq the ring refused is not counted
    budget.add(ring.bytes() - before - reserved); // one step: the account never counts it twice
    if (waiters > 0) {
      long storedAt = listening ? System.nanoTime() : 0;
      if (list != null) {
        after = wake(list, stored, after, storedAt);
        if (list.size == 0) {
          bySession.remove(key);
        }
      }
      if (unkeyed.head != null) {
        after = wake(unkeyed, stored, after, storedAt);
      }
    }
    for (Subscription s : subscribers) {
      Runnable r = s.offer(stored);
      if (r != null) {
        after = add(after, r);
      }
    }
    return after;
  }

  private List<Runnable> wake(Waiter.WaiterList list, Frame stored, List<Runnable> after, long storedAt) {
    for (Waiter w = list.head; w != null; ) {
      Waiter next = w.next;
      if (stored.seq() > w.query.afterSeq() && w.query.matches(stored)) {
        list.unlink(w);
        waiters--;
        QueryResult r = new QueryResult(List.of(stored), stored.seq(), false, false, 0);
        Waiter woken = w;
        after = add(after, woken.internal
            ? () -> {
              woken.cancelTimeout.run();
              completeWoken(woken, r, storedAt);
            }
            : () -> {
              woken.cancelTimeout.run();
              // Caller code may be attached to this future: hand it to the executor.
              Handoff.run(executor, () -> completeWoken(woken, r, storedAt));
            });
      }
      w = next;
    }
    return after;
  }

  /** Completes a woken waiter; the wake latency ends where its future is completed. */
  private void completeWoken(Waiter woken, QueryResult r, long storedAt) {
    if (listening) {
      long nanos = System.nanoTime() - storedAt;
      woken.future.complete(r);
      listener.woke(name, nanos);
    } else {
      woken.future.complete(r);
    }
  }

  private static List<Runnable> add(List<Runnable> after, Runnable r) {
    List<Runnable> l = after == null ? new ArrayList<>(4) : after;
    l.add(r);
    return l;
  }

  /** Runs the collected completions; each either completes inline or hands over to the executor. */
  private static void runAll(List<Runnable> after) {
    if (after != null) {
      for (Runnable r : after) {
        r.run();
      }
    }
  }

  /** Answers {@code q}; a removed instance answers as one the store does not hold (no frames, no gap). */
  QueryResult query(FrameQuery q) {
    QueryResult r;
    lock.lock();
    try {
      if (removed) {
        // As the store answers for an instance it does not hold: its frames and gaps went with it
        // (a cleared ring would still report the gap of frames it no longer has).
        return new QueryResult(List.of(), q.backward() ? 0 : Math.max(q.afterSeq(), ring.lastSeq()), false, false, 0);
      }
      r = ring.query(q);
      if (r.gap()) {
        counts.gapServed();
      }
    } finally {
      lock.unlock();
    }
    return r;
  }

  long lastSeq() {
    lock.lock();
    try {
      return ring.lastSeq();
    } finally {
      lock.unlock();
    }
  }

  /** The retained frames, oldest first (a copy); for tests and the journal's checks. */
  List<Frame> snapshot() {
    lock.lock();
    try {
      return ring.snapshot();
    } finally {
      lock.unlock();
    }
  }

  int retainedFrames() {
    lock.lock();
    try {
      return ring.size();
    } finally {
      lock.unlock();
    }
  }

  long retainedBytes() {
    lock.lock();
    try {
      return ring.bytes();
    } finally {
      lock.unlock();
    }
  }

  /**
   * See {@link TetherStore#waitForFrames}. Null when the instance was removed. An {@code internal}
   * wait's future is never shown to a caller (only blocked on), so it completes inline.
   */
  CompletableFuture<QueryResult> waitForFrames(FrameQuery q, long timeoutNanos, boolean internal) {
    Waiter w;
    boolean idle = false;
    CompletableFuture<QueryResult> now = null;
    lock.lock();
    try {
      if (removed) {
        return null;
      }
      QueryResult r = ring.query(q);
      if (!r.frames().isEmpty() || r.gap() || timeoutNanos <= 0 || q.backward()) {
        now = CompletableFuture.completedFuture(r);
        idle = idleLocked();
        if (r.gap()) {
          counts.gapServed();
        }
      }
      w = now != null ? null : new Waiter(q, internal);
      if (w != null) {
      SessionKey key = q.sessionKey();
      Waiter.WaiterList list = key == null ? unkeyed : bySession.computeIfAbsent(key, Waiter.WaiterList::new);
      list.add(w);
      waiters++;
      w.cancelTimeout = timer.schedule(() -> expire(w), timeoutNanos);
      }
    } finally {
      lock.unlock();
    }
    if (now != null) {
      if (idle) {
        onIdle.accept(this);
      }
      return now;
    }
    w.future.whenComplete((r, e) -> {
      if (w.future.isCancelled()) {
        cancel(w);
      }
    });
    return w.future;
  }

  private void expire(Waiter w) {
    QueryResult r;
    boolean idle;
    lock.lock();
    try {
      if (!w.linked()) {
        return;
      }
      unlinkLocked(w);
      // This waiter saw every frame appended since it registered; none matched.
      r = QueryResult.timeout(Math.max(w.query.afterSeq(), ring.lastSeq()));
      idle = idleLocked();
    } finally {
      lock.unlock();
    }
    if (idle) {
      onIdle.accept(this); // first, so a caller that sees the timeout sees the instance freed
    }
    // Runs on the timer thread: hand caller code over.
    if (w.internal) {
      w.future.complete(r);
    } else {
      Handoff.run(executor, () -> w.future.complete(r));
    }
  }

  private void cancel(Waiter w) {
    boolean idle = false;
    lock.lock();
    try {
      if (w.linked()) {
        unlinkLocked(w);
        idle = idleLocked();
      }
    } finally {
      lock.unlock();
    }
    w.cancelTimeout.run();
    if (idle) {
      onIdle.accept(this);
    }
  }

  private void unlinkLocked(Waiter w) {
    Waiter.WaiterList list = w.list;
    list.unlink(w);
    waiters--;
    if (list.size == 0 && list != unkeyed) {
      bySession.remove(list.key);
    }
  }

  /** Waiters currently registered; for tests. */
  int waiterCount() {
    lock.lock();
    try {
      return waiters;
    } finally {
      lock.unlock();
    }
  }

  int subscriberCount() {
    lock.lock();
    try {
      return subscribers.length;
    } finally {
      lock.unlock();
    }
  }

  /** A new subscription, or null when the instance was removed. */
  Subscription subscribe(int bufferFrames) {
    Subscription s = new Subscription(bufferFrames, this::unsubscribe, executor);
    lock.lock();
    try {
      if (removed) {
        return null;
      }
      Subscription[] next = Arrays.copyOf(subscribers, subscribers.length + 1);
      next[subscribers.length] = s;
      subscribers = next;
    } finally {
      lock.unlock();
    }
    return s;
  }

  private void unsubscribe(Subscription s) {
    boolean idle;
    lock.lock();
    try {
      List<Subscription> keep = new ArrayList<>(Arrays.asList(subscribers));
      keep.remove(s);
      subscribers = keep.toArray(NO_SUBSCRIBERS);
      idle = idleLocked();
    } finally {
      lock.unlock();
    }
    if (idle) {
      onIdle.accept(this);
    }
  }

  /**
   * Marks the instance removed and frees its frames; returns its seq high-water mark. Safe inside
   * a map compute: its waits and subscriptions are ended only by {@link #endRemoved}, which the
   * caller runs afterwards, outside the compute.
   */
  long markRemoved() {
    lock.lock();
    try {
      if (!removed) {
        removed = true;
        budget.add(-ring.bytes());
        ring.clear();
      }
      return ring.lastSeq();
    } finally {
      lock.unlock();
    }
  }

  /** Ends the waits and subscriptions of a removed instance (their futures via the executor). */
  void endRemoved(String reason) {
    List<Waiter> ended = new ArrayList<>();
    Subscription[] subs;
    lock.lock();
    try {
      for (Waiter.WaiterList l : bySession.values()) {
        collect(l, ended);
      }
      collect(unkeyed, ended);
      bySession.clear();
      waiters = 0;
      subs = subscribers;
      subscribers = NO_SUBSCRIBERS;
    } finally {
      lock.unlock();
    }
    for (Waiter w : ended) {
      w.cancelTimeout.run();
      CancellationException e = new CancellationException("instance " + name + " " + reason);
      if (w.internal) {
        w.future.completeExceptionally(e);
      } else {
        Handoff.run(executor, () -> w.future.completeExceptionally(e));
      }
    }
    for (Subscription s : subs) {
      s.end("instance " + name + " " + reason);
    }
    release();
  }

  /**
   * Tells the listener, once, that this removed instance's counts are final. Called after the
   * instance was marked removed (so nothing counts any more), outside the lock and any map compute.
   */
  void release() {
    lock.lock();
    try {
      if (!removed || released) {
        return;
      }
      released = true;
    } finally {
      lock.unlock();
    }
    if (listening) {
      listener.released(name, counts);
    }
  }

  /** This instance's counts (live until it is removed). */
  FrameCounts counts() {
    return counts;
  }

  /** Removes the instance at once (not inside a map compute); returns its seq high-water mark. */
  long remove(String reason) {
    long last = markRemoved();
    endRemoved(reason);
    return last;
  }

  private static void collect(Waiter.WaiterList l, List<Waiter> into) {
    for (Waiter w = l.head; w != null; ) {
      Waiter next = w.next;
      l.unlink(w);
      into.add(w);
      w = next;
    }
  }
}
