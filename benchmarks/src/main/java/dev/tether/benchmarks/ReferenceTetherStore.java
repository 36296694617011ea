package dev.tether.benchmarks;

import dev.tether.api.Frame;
import dev.tether.store.FrameQuery;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The baseline for the tether-store benchmarks: a plain Java port of the reference design in
 * host-agent-tether.md §3 and tether-image-support.md §6.3. One lock for the whole store, a
 * circular array per instance with count and byte caps, {@code Query} as a linear scan from the
 * oldest frame, and {@code WaitForFrames} as "wake every waiter on every append, each re-queries".
 * Blocking waits use one {@link Condition} ({@code signalAll}, the Go {@code sync.Cond} broadcast);
 * asynchronous waits (for the idle-waiter benchmark, without 1000 threads) are re-queried on every
 * append under the lock, which is the same work without the thread switches. Not part of the SDK.
 */
public final class ReferenceTetherStore {
  private static final int RING_SIZE = 1000;
  private static final long RING_BYTES = 128L << 20;

  private final ReentrantLock lock = new ReentrantLock();
  private final Condition appended = lock.newCondition();
  private final Map<String, Ring> rings = new HashMap<>();
  private final List<AsyncWaiter> asyncWaiters = new ArrayList<>();
  private int blockedWaiters;

  private static final class Ring {
    final Frame[] frames = new Frame[RING_SIZE];
    int head;
    int count;
    long seq;
    long totalBytes;
  }

  private record AsyncWaiter(String instance, FrameQuery query, CompletableFuture<List<Frame>> future) {}

  public long append(String instance, Frame frame) {
    lock.lock();
    try {
      Ring rb = rings.computeIfAbsent(instance, k -> new Ring());
      rb.seq++;
      Frame stored = frame.withSeq(rb.seq);
      if (rb.count == RING_SIZE) {
        rb.totalBytes -= rb.frames[rb.head].payload().size();
        rb.frames[rb.head] = null;
        rb.head = (rb.head + 1) % RING_SIZE;
        rb.count--;
      }
      rb.frames[(rb.head + rb.count) % RING_SIZE] = stored;
      rb.count++;
      rb.totalBytes += stored.payload().size();
      while (rb.count > 1 && rb.totalBytes > RING_BYTES) {
        rb.totalBytes -= rb.frames[rb.head].payload().size();
        rb.frames[rb.head] = null;
        rb.head = (rb.head + 1) % RING_SIZE;
        rb.count--;
      }
      appended.signalAll();
      for (Iterator<AsyncWaiter> it = asyncWaiters.iterator(); it.hasNext(); ) {
        AsyncWaiter w = it.next();
        if (w.instance.equals(instance)) {
          List<Frame> r = queryLocked(instance, w.query);
          if (!r.isEmpty()) {
            it.remove();
            w.future.complete(r);
          }
        }
      }
      return rb.seq;
    } finally {
      lock.unlock();
    }
  }

  public List<Frame> query(String instance, FrameQuery q) {
    lock.lock();
    try {
      return queryLocked(instance, q);
    } finally {
      lock.unlock();
    }
  }

  private List<Frame> queryLocked(String instance, FrameQuery q) {
    Ring rb = rings.get(instance);
    List<Frame> out = new ArrayList<>();
    if (rb == null) {
      return out;
    }
    for (int i = 0; i < rb.count && out.size() < q.limit(); i++) {
      Frame f = rb.frames[(rb.head + i) % RING_SIZE];
      if (f.seq() > q.afterSeq() && q.matches(f)) {
        out.add(f);
      }
    }
    return out;
  }

  /** Blocks until a matching frame exists or the timeout passes (then returns an empty list). */
  public List<Frame> waitForFrames(String instance, FrameQuery q, long timeout, TimeUnit unit)
      throws InterruptedException {
    long nanos = unit.toNanos(timeout);
    lock.lock();
    try {
      blockedWaiters++;
      try {
        while (true) {
          List<Frame> r = queryLocked(instance, q);
          if (!r.isEmpty() || nanos <= 0) {
            return r;
          }
          nanos = appended.awaitNanos(nanos);
        }
      } finally {
        blockedWaiters--;
      }
    } finally {
      lock.unlock();
    }
  }

  /** A wait without a thread: re-queried on every append of the instance. */
  public CompletableFuture<List<Frame>> waitAsync(String instance, FrameQuery q) {
    lock.lock();
    try {
      List<Frame> r = queryLocked(instance, q);
      if (!r.isEmpty()) {
        return CompletableFuture.completedFuture(r);
      }
      CompletableFuture<List<Frame>> f = new CompletableFuture<>();
      asyncWaiters.add(new AsyncWaiter(instance, q, f));
      return f;
    } finally {
      lock.unlock();
    }
  }

  /** Threads blocked in {@link #waitForFrames}. */
  public int blockedWaiters() {
    lock.lock();
    try {
      return blockedWaiters;
    } finally {
      lock.unlock();
    }
  }
}
