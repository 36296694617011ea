package dev.tether.store;

import dev.tether.api.Frame;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
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
 * frame slot and at most one follows each kept frame, so the queue stays bounded. A consumer
 * waiting in {@link #next()} is handed the event directly, outside the lock.
 *
 * <p>Thread-safe, but meant for one consumer: events come out in seq order when one thread (or a
 * chain of futures) consumes them. After {@link SubscriptionEvent.Closed} nothing more arrives.
 */
public final class Subscription implements AutoCloseable {
  private final int capacity;
  private final Consumer<Subscription> onClose;
  private final ReentrantLock lock = new ReentrantLock();
  private final ArrayDeque<Object> queue = new ArrayDeque<>();
  private int queuedFrames;
  private MutableLost tail; // the Lost marker at the tail of the queue, still growing
  private CompletableFuture<SubscriptionEvent> waiting;
  private SubscriptionEvent.Closed closed;
  private long lostTotal;

  Subscription(int capacity, Consumer<Subscription> onClose) {
    if (capacity < 1) {
      throw new IllegalArgumentException("bufferFrames must be >= 1 but was " + capacity);
    }
    this.capacity = capacity;
    this.onClose = onClose;
  }

  /**
   * Called by the store with each stored frame, in seq order, under the instance lock. Never
   * blocks on the consumer. Returns the hand-off to a waiting consumer, which the store runs after
   * releasing its lock, or null.
   */
  Runnable offer(Frame frame) {
    CompletableFuture<SubscriptionEvent> handOff = null;
    SubscriptionEvent event = null;
    lock.lock();
    try {
      if (closed != null) {
        return null;
      }
      if (waiting != null && queue.isEmpty()) {
        handOff = waiting;
        waiting = null;
        event = new SubscriptionEvent.Delivered(frame);
      } else if (queuedFrames < capacity) {
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
    } finally {
      lock.unlock();
    }
    if (handOff == null) {
      return null;
    }
    CompletableFuture<SubscriptionEvent> f = handOff;
    SubscriptionEvent e = event;
    return () -> f.complete(e);
  }

  /** The next event if one is queued. */
  public Optional<SubscriptionEvent> poll() {
    lock.lock();
    try {
      return Optional.ofNullable(take());
    } finally {
      lock.unlock();
    }
  }

  /**
   * The next event: completed at once when one is queued, else when one arrives. Only one
   * {@code next()} may be outstanding.
   *
   * @throws IllegalStateException when an earlier {@code next()} has not completed
   */
  public CompletableFuture<SubscriptionEvent> next() {
    lock.lock();
    try {
      SubscriptionEvent e = take();
      if (e != null) {
        return CompletableFuture.completedFuture(e);
      }
      if (waiting != null && !waiting.isDone()) {
        throw new IllegalStateException("a next() is already outstanding");
      }
      CompletableFuture<SubscriptionEvent> f = new CompletableFuture<>();
      waiting = f;
      return f;
    } finally {
      lock.unlock();
    }
  }

  /**
   * Blocks for the next event at most {@code timeout}; empty when none arrived.
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
          waiting = null;
        }
      } finally {
        lock.unlock();
      }
      // The store may have completed it just now; keep that event.
      return f.isDone() && !f.isCompletedExceptionally() ? Optional.of(f.join()) : Optional.empty();
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
    CompletableFuture<SubscriptionEvent> handOff = null;
    lock.lock();
    try {
      if (closed != null) {
        return false;
      }
      closed = new SubscriptionEvent.Closed(reason);
      if (waiting != null && queue.isEmpty()) {
        handOff = waiting;
        waiting = null;
      }
    } finally {
      lock.unlock();
    }
    if (handOff != null) {
      handOff.complete(closed);
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
    queuedFrames--;
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
