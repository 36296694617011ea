package dev.tether.store;

import dev.tether.api.Frame;
import dev.tether.api.SessionKey;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.locks.ReentrantLock;

/**
 * One instance's ring, waiters and subscribers.
 *
 * <p>Concurrency: one {@link ReentrantLock} guards the ring, the waiter index and the subscriber
 * array. Appends, queries and wait registration hold it for O(1) or O(result) work and never run
 * caller code under it: futures are completed after the lock is released, in seq order per
 * append. A waiter registers only after a query under the same lock found nothing, so no append
 * can slip between the check and the registration (no lost wake-up).
 *
 * <p>Waiters are indexed by session key: an append looks at the waiters of its own session and at
 * the few waiters whose query names no session, and wakes only those whose filters match. Idle
 * waiters on other sessions cost nothing. A woken waiter gets exactly the frame that woke it (the
 * first match after its cursor), so it never needs to re-query. Timeouts run on the store's one
 * shared timer thread.
 */
final class Instance {
  private static final Subscription[] NO_SUBSCRIBERS = new Subscription[0];

  final String name;
  private final ReentrantLock lock = new ReentrantLock();
  private final FrameRing ring;
  private final Timeouts timer;
  private final Map<SessionKey, Waiter.WaiterList> bySession = new HashMap<>();
  private final Waiter.WaiterList unkeyed = new Waiter.WaiterList(null);
  private int waiters;
  private Subscription[] subscribers = NO_SUBSCRIBERS;
  private boolean removed;

  Instance(String name, Retention retention, Timeouts timer, long seqFloor) {
    this.name = name;
    this.ring = new FrameRing(retention);
    this.timer = timer;
    ring.advanceSeq(seqFloor);
  }

  /** Stores {@code frame} with the next seq; returns it, or -1 when the instance was removed. */
  long append(Frame frame) {
    List<Runnable> after;
    long seq;
    lock.lock();
    try {
      if (removed) {
        return -1;
      }
      seq = ring.lastSeq() + 1;
      after = publishLocked(frame.withSeq(seq), null);
    } finally {
      lock.unlock();
    }
    runAll(after);
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
        after = publishLocked(f, after);
      }
    } finally {
      lock.unlock();
    }
    runAll(after);
    return true;
  }

  /** Loads restored frames without waking anyone, then raises the seq to {@code highSeq}. */
  void restore(List<Frame> stored, long highSeq) {
    lock.lock();
    try {
      for (Frame f : stored) {
        ring.add(f);
      }
      ring.advanceSeq(highSeq);
    } finally {
      lock.unlock();
    }
  }

  private List<Runnable> publishLocked(Frame stored, List<Runnable> after) {
    ring.add(stored);
    if (waiters > 0) {
      SessionKey key = stored.session().orElse(null);
      if (key != null) {
        Waiter.WaiterList list = bySession.get(key);
        if (list != null) {
          after = wake(list, stored, after);
          if (list.size == 0) {
            bySession.remove(key);
          }
        }
      }
      if (unkeyed.head != null) {
        after = wake(unkeyed, stored, after);
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

  private List<Runnable> wake(Waiter.WaiterList list, Frame stored, List<Runnable> after) {
    for (Waiter w = list.head; w != null; ) {
      Waiter next = w.next;
      if (stored.seq() > w.query.afterSeq() && w.query.matches(stored)) {
        list.unlink(w);
        waiters--;
        QueryResult r = new QueryResult(List.of(stored), stored.seq(), false, false, 0);
        Waiter woken = w;
        after = add(after, () -> {
          woken.cancelTimeout.run();
          woken.future.complete(r);
        });
      }
      w = next;
    }
    return after;
  }

  private static List<Runnable> add(List<Runnable> after, Runnable r) {
    List<Runnable> l = after == null ? new ArrayList<>(4) : after;
    l.add(r);
    return l;
  }

  private static void runAll(List<Runnable> after) {
    if (after != null) {
      for (Runnable r : after) {
        r.run();
      }
    }
  }

  QueryResult query(FrameQuery q) {
    lock.lock();
    try {
      return ring.query(q);
    } finally {
      lock.unlock();
    }
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

  long retainedBytes() {
    lock.lock();
    try {
      return ring.bytes();
    } finally {
      lock.unlock();
    }
  }

  /** See {@link TetherStore#waitForFrames}. Null when the instance was removed. */
  CompletableFuture<QueryResult> waitForFrames(FrameQuery q, long timeoutNanos) {
    Waiter w;
    lock.lock();
    try {
      if (removed) {
        return null;
      }
      QueryResult r = ring.query(q);
      if (!r.frames().isEmpty() || r.gap() || timeoutNanos <= 0 || q.backward()) {
        return CompletableFuture.completedFuture(r);
      }
      w = new Waiter(q);
      SessionKey key = q.sessionKey();
      Waiter.WaiterList list = key == null ? unkeyed : bySession.computeIfAbsent(key, Waiter.WaiterList::new);
      list.add(w);
      waiters++;
      w.cancelTimeout = timer.schedule(() -> expire(w), timeoutNanos);
    } finally {
      lock.unlock();
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
    lock.lock();
    try {
      if (!w.linked()) {
        return;
      }
      unlinkLocked(w);
      // This waiter saw every frame appended since it registered; none matched.
      r = QueryResult.timeout(Math.max(w.query.afterSeq(), ring.lastSeq()));
    } finally {
      lock.unlock();
    }
    w.future.complete(r);
  }

  private void cancel(Waiter w) {
    lock.lock();
    try {
      if (w.linked()) {
        unlinkLocked(w);
      }
    } finally {
      lock.unlock();
    }
    w.cancelTimeout.run();
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

  /** A new subscription, or null when the instance was removed. */
  Subscription subscribe(int bufferFrames) {
    Subscription s = new Subscription(bufferFrames, this::unsubscribe);
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
    lock.lock();
    try {
      List<Subscription> keep = new ArrayList<>(Arrays.asList(subscribers));
      keep.remove(s);
      subscribers = keep.toArray(NO_SUBSCRIBERS);
    } finally {
      lock.unlock();
    }
  }

  /**
   * Marks the instance removed, frees its frames, ends its waits and subscriptions, and returns
   * its seq high-water mark.
   */
  long remove(String reason) {
    List<Waiter> ended = new ArrayList<>();
    Subscription[] subs;
    long last;
    lock.lock();
    try {
      if (removed) {
        return ring.lastSeq();
      }
      removed = true;
      for (Waiter.WaiterList l : bySession.values()) {
        collect(l, ended);
      }
      collect(unkeyed, ended);
      bySession.clear();
      waiters = 0;
      subs = subscribers;
      subscribers = NO_SUBSCRIBERS;
      ring.clear();
      last = ring.lastSeq();
    } finally {
      lock.unlock();
    }
    for (Waiter w : ended) {
      w.cancelTimeout.run();
      w.future.completeExceptionally(new CancellationException("instance " + name + " " + reason));
    }
    for (Subscription s : subs) {
      s.end("instance " + name + " " + reason);
    }
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
