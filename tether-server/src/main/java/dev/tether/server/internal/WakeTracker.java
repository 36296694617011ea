package dev.tether.server.internal;

import dev.tether.server.InstanceWaker;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Decides when to call the {@link InstanceWaker} (see its contract) from what the routes tell it:
 * a reader started or ended on an instance, a frame arrived for one.
 *
 * <p>Design: one lock over a small map of per-instance state (open readers, last read, last
 * frame, last wake, whether a wake is pending); every step under it is a few field updates, and
 * no caller code runs under it. A frame for an idle instance schedules one check on a timer
 * thread at the moment the instance has been idle long enough (at once when it already has); the
 * check calls the waker on a small pool of wake threads (4, a queue of 64: a wake refused by a
 * full queue is logged and dropped). The request thread only updates the map and schedules. The
 * map holds at most {@value #MAX_TRACKED} instances (the registry's cap is lower by default);
 * past it a new instance is not tracked (never woken). Thread-safe.
 */
final class WakeTracker implements AutoCloseable {
  private static final System.Logger LOG = System.getLogger(WakeTracker.class.getName());
  static final int MAX_TRACKED = 8192;
  /** A woken instance nobody has read since is woken again no sooner than this (or the idle time, if longer). */
  static final Duration REWAKE = Duration.ofSeconds(60);

  /** Tracks nothing and wakes nobody. */
  static final WakeTracker NONE = new WakeTracker();

  private final InstanceWaker waker; // null for NONE
  private final long idleNanos;
  private final long rewakeNanos;
  private final long startNanos;
  private final ReentrantLock lock = new ReentrantLock();
  private final Map<String, State> states = new HashMap<>(); // guarded by lock
  private final ScheduledExecutorService timer;
  private final ThreadPoolExecutor runner;

  private static final class State {
    int readers;
    long lastRead;
    long lastArrival;
    long lastWake;
    boolean woken; // lastWake is set
    boolean scheduled; // a check is due at scheduledAt
    long scheduledAt;
    long generation; // of the latest scheduled check: an earlier one that runs late does nothing
    boolean running; // the waker runs for this instance

    State(long start) {
      lastRead = start; // an instance nobody has read counts as idle from the server's start
    }
  }

  private WakeTracker() {
    this.waker = null;
    this.idleNanos = 0;
    this.rewakeNanos = 0;
    this.startNanos = 0;
    this.timer = null;
    this.runner = null;
  }

  /** Calls {@code waker} for instances idle for {@code idle}. */
  WakeTracker(InstanceWaker waker, Duration idle) {
    this.waker = waker;
    this.idleNanos = idle.toNanos();
    this.rewakeNanos = Math.max(idleNanos, REWAKE.toNanos());
    this.startNanos = System.nanoTime();
    AtomicInteger n = new AtomicInteger();
    this.timer = Executors.newSingleThreadScheduledExecutor(r -> daemon(r, "tether-wake-timer"));
    this.runner = new ThreadPoolExecutor(4, 4, 30, TimeUnit.SECONDS, new ArrayBlockingQueue<>(64),
        r -> daemon(r, "tether-wake-" + n.incrementAndGet()));
    runner.allowCoreThreadTimeOut(true);
  }

  private static Thread daemon(Runnable r, String name) {
    Thread t = new Thread(r, name);
    t.setDaemon(true);
    return t;
  }

  /** A long-poll, stream or in-process poll began on {@code instance}. */
  void readerStarted(String instance) {
    if (waker == null) {
      return;
    }
    lock.lock();
    try {
      State s = state(instance);
      if (s != null) {
        s.readers++;
        s.lastRead = System.nanoTime();
      }
    } finally {
      lock.unlock();
    }
  }

  /** A reader of {@code instance} ended (answered, closed or failed). */
  void readerEnded(String instance) {
    if (waker == null) {
      return;
    }
    lock.lock();
    try {
      State s = states.get(instance);
      if (s != null && s.readers > 0) {
        s.readers--;
        s.lastRead = System.nanoTime();
      }
    } finally {
      lock.unlock();
    }
  }

  /** A frame of {@code type} was stored for {@code instance}; frames for the guest may wake it. */
  void arrived(String instance, String type) {
    if (waker == null || !(type.startsWith("user.") || type.startsWith("control."))) {
      return;
    }
    long delay;
    long generation;
    lock.lock();
    try {
      State s = state(instance);
      long now = System.nanoTime();
      if (s == null) {
        return;
      }
      s.lastArrival = now;
      if (s.readers > 0 || s.running) {
        return;
      }
      long due = due(s);
      if (s.scheduled && s.scheduledAt - due <= 0) {
        return; // a check is due no later
      }
      s.scheduled = true;
      s.scheduledAt = due;
      generation = ++s.generation;
      delay = Math.max(0, due - now);
    } finally {
      lock.unlock();
    }
    schedule(instance, generation, delay);
  }

  private void schedule(String instance, long generation, long delayNanos) {
    try {
      timer.schedule(() -> check(instance, generation), delayNanos, TimeUnit.NANOSECONDS);
    } catch (RejectedExecutionException e) {
      // closing: nothing more is woken
    }
  }

  /**
   * When {@code s} may be woken: the idle time after its last read; once woken and not read since,
   * {@link #rewakeNanos} after that wake (one wake per idle spell, however long the burst).
   */
  private long due(State s) {
    if (s.woken && s.lastWake - s.lastRead > 0) {
      return s.lastWake + rewakeNanos;
    }
    return s.lastRead + idleNanos;
  }

  /** On the timer: wake, look again later, or drop the wake (a reader came). */
  private void check(String instance, long generation) {
    long later;
    lock.lock();
    try {
      State s = states.get(instance);
      if (s == null || !s.scheduled || s.generation != generation) {
        return; // replaced by an earlier check
      }
      long now = System.nanoTime();
      if (s.readers > 0 || s.lastRead - s.lastArrival > 0) {
        s.scheduled = false; // someone reads, or read after the frame came
        return;
      }
      long due = due(s);
      later = due - now;
      if (later > 0) {
        s.scheduledAt = due; // a read came and went meanwhile: idle from then
      } else {
        s.scheduled = false;
        s.running = true;
        s.lastWake = now;
        s.woken = true;
      }
    } finally {
      lock.unlock();
    }
    if (later > 0) {
      schedule(instance, generation, later);
      return;
    }
    try {
      runner.execute(() -> run(instance));
    } catch (RejectedExecutionException e) {
      if (!runner.isShutdown()) {
        LOG.log(System.Logger.Level.WARNING, "not waking instance " + instance + ": 4 wakes are running and 64 queued");
      }
      settle(instance);
    }
  }

  private void run(String instance) {
    try {
      waker.wake(instance);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (Exception | LinkageError e) {
      LOG.log(System.Logger.Level.WARNING, "waking instance " + instance + " failed: " + e);
    } finally {
      settle(instance);
    }
  }

  private void settle(String instance) {
    lock.lock();
    try {
      State s = states.get(instance);
      if (s != null) {
        s.running = false;
      }
    } finally {
      lock.unlock();
    }
  }

  /** The state of {@code instance}, made when first seen; null past {@link #MAX_TRACKED}. Under the lock. */
  private State state(String instance) {
    State s = states.get(instance);
    if (s == null && states.size() < MAX_TRACKED) {
      s = new State(startNanos);
      states.put(instance, s);
    }
    return s;
  }

  /** Stops the timer and interrupts wakes in progress. */
  @Override
  public void close() {
    if (waker != null) {
      timer.shutdownNow();
      runner.shutdownNow();
    }
  }
}
