package dev.tether.store;

import dev.tether.store.internal.SequencedFrameIndex;
import java.util.PriorityQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongSupplier;

/**
 * The store's one timer thread for wait timeouts, built so that registering and cancelling a
 * timeout almost never wakes it.
 *
 * <p>Design: timeouts sit in a priority queue by deadline. Scheduling signals the thread only when
 * the new deadline is earlier than the one it sleeps towards by more than {@link #SLACK_NANOS}
 * (long polls all use similar timeouts, so a new one is nearly always later than the head).
 * Cancelling only marks the entry; marked entries are dropped when they reach the head, or all at
 * once when they make up more than half of a large queue, so memory stays proportional to the
 * live waits. A {@code ScheduledThreadPoolExecutor} instead signals its thread whenever a new task
 * becomes the head and on every removal, which showed up as wake-latency tail on 2 cores. A
 * timeout may fire up to {@link #SLACK_NANOS} late. Tasks run on the timer thread and must be
 * short. Thread-safe.
 */
final class LazyTimer implements Timeouts, SequencedFrameIndex.Timer {
  static final long SLACK_NANOS = TimeUnit.MILLISECONDS.toNanos(1);
  private static final int PURGE_THRESHOLD = 1024;

  private final ReentrantLock lock = new ReentrantLock();
  private final Condition changed = lock.newCondition();
  private final PriorityQueue<Entry> queue = new PriorityQueue<>();
  private final LongSupplier clock;
  private final Thread thread;
  private long sleepingUntil = Long.MAX_VALUE; // valid while the thread waits
  private boolean sleeping;
  private int cancelled;
  private long order;
  private boolean closed;

  private final class Entry implements Comparable<Entry>, Runnable {
    final long deadline;
    final long seq;
    Runnable task; // null once cancelled or run; guarded by lock

    Entry(long deadline, long seq, Runnable task) {
      this.deadline = deadline;
      this.seq = seq;
      this.task = task;
    }

    @Override
    public int compareTo(Entry o) {
      int c = Long.compare(deadline - o.deadline, 0);
      return c != 0 ? c : Long.compare(seq, o.seq);
    }

    /** Cancels this timeout. */
    @Override
    public void run() {
      lock.lock();
      try {
        if (task != null) {
          task = null;
          cancelled++;
          if (cancelled > PURGE_THRESHOLD && cancelled * 2 > queue.size()) {
            queue.removeIf(e -> e.task == null);
            cancelled = 0;
          }
        }
      } finally {
        lock.unlock();
      }
    }
  }

  LazyTimer(String name) {
    this(name, System::nanoTime);
  }

  LazyTimer(String name, LongSupplier clock) {
    this.clock = clock;
    this.thread = new Thread(this::loop, name);
    thread.setDaemon(true);
    thread.start();
  }

  @Override
  public Runnable schedule(Runnable task, long nanos) {
    long now = clock.getAsLong();
    long deadline = now + Math.min(nanos, Long.MAX_VALUE / 4);
    lock.lock();
    try {
      Entry e = new Entry(deadline, order++, task);
      if (closed) {
        return () -> { };
      }
      queue.add(e);
      if (!sleeping || deadline - sleepingUntil < -SLACK_NANOS) {
        changed.signal();
      }
      return e;
    } finally {
      lock.unlock();
    }
  }

  /** Entries in the queue, cancelled ones included; for tests. */
  int queued() {
    lock.lock();
    try {
      return queue.size();
    } finally {
      lock.unlock();
    }
  }

  /** Live (not cancelled, not yet run) timeouts; for tests. */
  int pending() {
    lock.lock();
    try {
      return queue.size() - cancelled;
    } finally {
      lock.unlock();
    }
  }

  private void loop() {
    while (true) {
      Runnable due = null;
      lock.lock();
      try {
        while (due == null) {
          if (closed) {
            return;
          }
          Entry head = queue.peek();
          if (head != null && head.task == null) {
            queue.poll();
            cancelled--;
            continue;
          }
          long now = clock.getAsLong();
          if (head != null && head.deadline - now <= 0) {
            queue.poll();
            due = head.task;
            head.task = null;
            break;
          }
          sleeping = true;
          sleepingUntil = head == null ? now + Long.MAX_VALUE / 4 : head.deadline;
          try {
            changed.awaitNanos(head == null ? Long.MAX_VALUE / 4 : head.deadline - now);
          } catch (InterruptedException e) {
            return;
          } finally {
            sleeping = false;
          }
        }
      } finally {
        lock.unlock();
      }
      try {
        due.run();
      } catch (RuntimeException | Error e) {
        System.getLogger(LazyTimer.class.getName())
            .log(System.Logger.Level.WARNING, "a wait timeout task failed", e);
      }
    }
  }

  @Override
  public void close() {
    lock.lock();
    try {
      closed = true;
      queue.clear();
      changed.signal();
    } finally {
      lock.unlock();
    }
  }
}
