package dev.tether.store;

import dev.tether.store.internal.Handoff;
import dev.tether.api.Frame;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;

/**
 * A bounded, pull-based feed of every frame stored for one instance.
 *
 * <p>Design: the store offers each stored frame under a short per-subscription lock that never
 * waits for the consumer. While fewer than {@code capacity} frames are undelivered the frame is
 * queued; otherwise it is dropped and counted in a {@link SubscriptionEvent.Lost} marker queued
 * after the frames that were kept, so the consumer sees exactly where the hole is. Markers take no
 * frame slot and at most one follows each kept frame, so the queue stays bounded.
 *
 * <p>Hand-off: a consumer waiting in {@link #next()} is handed the next event by the store's
 * executor, never on the appending thread or under a lock. While that hand-off is in flight the
 * event belongs to it; if the consumer completed or cancelled its future first (an
 * {@code orTimeout}, a {@code cancel}), the hand-off fails and the event goes back to the head of
 * the queue (the queue may then hold one frame over {@code capacity}), so a frame is never
 * silently lost. Until the hand-off settles, {@code next()} and {@link #poll()} do not take
 * events out of order: {@code next()} waits for the in-flight event, {@code poll()} reports none.
 *
 * <p>Thread-safe, but meant for one consumer: events come out in seq order when one thread (or a
 * chain of futures) consumes them. After {@link SubscriptionEvent.Closed} nothing more arrives.
 */
public final class Subscription implements AutoCloseable {
  private final int capacity;
  private final Consumer<Subscription> onClose;
  private final Executor executor;
  private final ReentrantLock lock = new ReentrantLock();
  private final ArrayDeque<Object> queue = new ArrayDeque<>();
  private int queuedFrames;
  private MutableLost tail; // the Lost marker at the tail of the queue, still growing
  private CompletableFuture<SubscriptionEvent> waiting;
  private SubscriptionEvent inFlight; // taken from the queue, being handed to a consumer
  private SubscriptionEvent.Closed closed;
  private long lostTotal;

  Subscription(int capacity, Consumer<Subscription> onClose) {
    this(capacity, onClose, Runnable::run);
  }

  Subscription(int capacity, Consumer<Subscription> onClose, Executor executor) {
    if (capacity < 1) {
      throw new IllegalArgumentException("bufferFrames must be >= 1 but was " + capacity);
    }
    this.capacity = capacity;
    this.onClose = onClose;
    this.executor = executor;
  }

  /**
   * Called by the store with each stored frame, in seq order, under the instance lock. Never
   * blocks on the consumer. Returns the hand-off to a waiting consumer, which the store runs after
   * releasing its lock (it only passes the work to the executor), or null.
   */
  Runnable offer(Frame frame) {
    lock.lock();
    try {
      if (closed != null) {
        return null;
      }
      if (queuedFrames < capacity) {
        tail = null;
        queue.add(new SubscriptionEvent.Delivered(frame));
        queuedFrames++;
      } else {
        lostTotal++;
        if (tail == null) {
          tail = new MutableLost(frame.seq());
          queue.add(tail);
        } else {
          tail.extend(frame.seq());
        }
      }
      return dispatchLocked();
    } finally {
      lock.unlock();
    }
  }

  /**
   * Claims the head event for a waiting consumer, if there is one and no hand-off is in flight.
   * Returns the task that hands it over (to be run outside the lock), or null.
   */
  private Runnable dispatchLocked() {
    if (waiting == null || inFlight != null) {
      return null;
    }
    if (waiting.isDone()) {
      waiting = null; // completed or cancelled by the consumer: nobody waits any more
      return null;
    }
    SubscriptionEvent e = take();
    if (e == null) {
      return null;
    }
    CompletableFuture<SubscriptionEvent> f = waiting;
    waiting = null;
    inFlight = e;
    return () -> Handoff.run(executor, () -> handOver(f, e));
  }

  /** Runs on the executor: completes the consumer's future, or puts the event back. */
  private void handOver(CompletableFuture<SubscriptionEvent> f, SubscriptionEvent e) {
    boolean delivered = f.complete(e);
    Runnable next;
    lock.lock();
    try {
      inFlight = null;
      if (!delivered && !(e instanceof SubscriptionEvent.Closed)) {
        // The consumer gave up on this future first: the event is still the oldest undelivered.
        queue.addFirst(e);
        if (e instanceof SubscriptionEvent.Delivered) {
          queuedFrames++;
        }
      }
      next = dispatchLocked();
    } finally {
      lock.unlock();
    }
    if (next != null) {
      next.run();
    }
  }

  /** The next event if one is queued (none while a hand-off to {@link #next()} is in flight). */
  public Optional<SubscriptionEvent> poll() {
    lock.lock();
    try {
      return inFlight != null ? Optional.empty() : Optional.ofNullable(take());
    } finally {
      lock.unlock();
    }
  }

  /**
   * The next event: completed at once when one is queued, else when one arrives (on the store's
   * executor). Only one {@code next()} may be outstanding; a future the caller completed or
   * cancelled no longer counts, and the event it would have received goes to the next call.
   *
   * @throws IllegalStateException when an earlier {@code next()} has not completed
   */
  public CompletableFuture<SubscriptionEvent> next() {
    Runnable dispatch;
    CompletableFuture<SubscriptionEvent> f;
    lock.lock();
    try {
      if (inFlight == null) {
        SubscriptionEvent e = take();
        if (e != null) {
          return CompletableFuture.completedFuture(e);
        }
      }
      if (waiting != null && !waiting.isDone()) {
        throw new IllegalStateException("a next() is already outstanding");
      }
      f = new CompletableFuture<>();
      waiting = f;
      dispatch = dispatchLocked();
    } finally {
      lock.unlock();
    }
    if (dispatch != null) {
      dispatch.run();
    }
    return f;
  }

  /**
   * Blocks for the next event at most {@code timeout}; empty when none arrived. An event the
   * store has already claimed for this call is returned even if the timeout passes meanwhile.
   *
   * @throws InterruptedException when interrupted
   */
  public Optional<SubscriptionEvent> next(Duration timeout) throws InterruptedException {
    CompletableFuture<SubscriptionEvent> f = next();
    try {
      return Optional.of(f.get(Math.max(0, timeout.toNanos()), TimeUnit.NANOSECONDS));
    } catch (TimeoutException e) {
      lock.lock();
      try {
        if (waiting == f) {
          waiting = null; // not claimed: nothing will complete f
          return Optional.empty();
        }
      } finally {
        lock.unlock();
      }
      // Claimed: the hand-off is on its way and only it completes f.
      try {
        return Optional.of(f.get());
      } catch (ExecutionException ex) {
        throw new IllegalStateException(ex.getCause());
      }
    } catch (ExecutionException e) {
      throw new IllegalStateException(e.getCause());
    }
  }

  /** Frames dropped because the buffer was full, since the subscription began. */
  public long lostFrames() {
    lock.lock();
    try {
      return lostTotal;
    } finally {
      lock.unlock();
    }
  }

  /** Ends the subscription; queued events can still be read, then {@code Closed}. Idempotent. */
  @Override
  public void close() {
    if (end("closed by subscriber")) {
      onClose.accept(this);
    }
  }

  /** Ends the subscription from the store's side; returns whether it was open. */
  boolean end(String reason) {
    Runnable dispatch;
    lock.lock();
    try {
      if (closed != null) {
        return false;
      }
      closed = new SubscriptionEvent.Closed(reason);
      dispatch = dispatchLocked();
    } finally {
      lock.unlock();
    }
    if (dispatch != null) {
      dispatch.run();
    }
    return true;
  }

  private SubscriptionEvent take() {
    Object e = queue.poll();
    if (e == null) {
      return closed;
    }
    if (e instanceof MutableLost m) {
      if (m == tail) {
        tail = null;
      }
      return m.freeze();
    }
    if (e instanceof SubscriptionEvent.Delivered) {
      queuedFrames--;
    }
    return (SubscriptionEvent) e;
  }

  /** A Lost marker that grows while frames keep being dropped. Guarded by the lock. */
  private static final class MutableLost {
    private final long firstSeq;
    private long lastSeq;
    private long count = 1;

    MutableLost(long seq) {
      this.firstSeq = seq;
      this.lastSeq = seq;
    }

    void extend(long seq) {
      lastSeq = seq;
      count++;
    }

    SubscriptionEvent.Lost freeze() {
      return new SubscriptionEvent.Lost(firstSeq, lastSeq, count);
    }
  }
}
