package dev.tether.store.jetstream;

import dev.tether.api.ErrorCode;
import dev.tether.api.TetherException;
import dev.tether.store.Retention;
import dev.tether.store.internal.SequencedFrameIndex;
import dev.tether.store.StoreListener;
import dev.tether.store.jetstream.internal.InstanceMirror;
import dev.tether.store.jetstream.internal.Names;
import dev.tether.store.jetstream.internal.StreamAdmin;
import dev.tether.store.jetstream.internal.ViewBudget;
import io.nats.client.Dispatcher;
import io.nats.client.JetStream;
import io.nats.client.JetStreamApiException;
import io.nats.client.JetStreamManagement;
import io.nats.client.api.StreamInfo;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongSupplier;

/**
 * The views this process holds: per instance it reads, one {@link InstanceMirror} (an ordered push
 * consumer feeding a {@link SequencedFrameIndex}), made on demand and released when idle, when the
 * instance is removed, when room is needed for another view, or when the store closes.
 *
 * <p>Concurrency: each instance has a slot in a concurrent map; the slot's lock serialises making
 * its view (a stream lookup and a consumer, retried through leader changes) and releasing it, so
 * an instance has at most one view and readers of other instances never wait for it. Readers take
 * a slot's view without the lock; a view released while in use is {@link InstanceMirror#stopped()
 * stopped}, and the reader retries on the instance's next view. Eviction: a sweep on the store's
 * retry thread releases views unused for the idle timeout; at {@code maxViews} a new view releases
 * the least recently used views that no wait or subscription holds, or is refused with
 * {@code TOO_MANY_INSTANCES}. Bytes: the views' rings share one {@link ViewBudget} (none unless
 * the store's {@code maxTotalBytes} is set).
 */
final class Views {
  /** The store's logger, by name (a part does not reach back to the store): its setting covers the views. */
  private static final System.Logger LOG = System.getLogger("dev.tether.store.jetstream.JetStreamTetherStore");

  /** Where an instance's view lives once started; the lock serialises its start. */
  private static final class Slot {
    final ReentrantLock lock = new ReentrantLock();
    volatile InstanceMirror mirror;
  }

  /**
   * The most messages a new view reads from the stream's leader when no consumer can be made (a
   * node just died); a longer stream waits for the consumer (the read retries, as before).
   */
  private static final int MAX_FILL = 2000;

  private final ConcurrentHashMap<String, Slot> slots = new ConcurrentHashMap<>();
  private final SequencedFrameIndex.Timer timer = SequencedFrameIndex.Timer.create("tether-jetstream-timer");
  private final AtomicLong released = new AtomicLong();
  private final StreamAdmin admin;
  private final Names names;
  private final Retention retention;
  private final JetStream js;
  private final JetStreamManagement jsm;
  private final Dispatcher delivery;
  private final Executor executor;
  private final StoreListener listener;
  private final Duration startTimeout;
  private final Duration idleTimeout;
  private final int maxViews;
  private final LongSupplier epoch;
  private final Lifecycle lifecycle;
  private final ViewBudget budget;

  /**
   * @param listener the listener of the views' indexes
   * @param startTimeout how long a new view waits for the frames its stream holds (the store's
   *     append timeout), and the timeout named when making it fails
   * @param jsm fills a view from the stream's leader when no consumer can be made (a node just died)
   * @param epoch the connection's reconnect count now (see {@link ReadBarrier#epoch()})
   */
  Views(StreamAdmin admin, Names names, Retention retention, JetStream js, JetStreamManagement jsm, Dispatcher delivery,
      Executor executor,
      StoreListener listener, Duration startTimeout, Duration idleTimeout, int maxViews, long maxTotalBytes,
      LongSupplier epoch, Lifecycle lifecycle) {
    this.admin = admin;
    this.names = names;
    this.retention = retention;
    this.js = js;
    this.jsm = jsm;
    this.delivery = delivery;
    this.executor = executor;
    this.listener = listener;
    this.startTimeout = startTimeout;
    this.idleTimeout = idleTimeout;
    this.maxViews = maxViews;
    this.epoch = epoch;
    this.lifecycle = lifecycle;
    this.budget = maxTotalBytes == Long.MAX_VALUE ? ViewBudget.NONE : new ViewBudget(maxTotalBytes, this::mirrors);
  }

  /** The host's byte budget across these views. */
  ViewBudget budget() {
    return budget;
  }

  /** The views held now (a snapshot), for the budget's evictions. */
  private List<InstanceMirror> mirrors() {
    List<InstanceMirror> all = new ArrayList<>(slots.size());
    for (Slot s : slots.values()) {
      InstanceMirror m = s.mirror;
      if (m != null) {
        all.add(m);
      }
    }
    return all;
  }

  /** Releases idle views on {@code scheduler} every half idle timeout (between 250 ms and 30 s). */
  void sweepOn(ScheduledExecutorService scheduler) {
    long sweep = Math.max(250, Math.min(30_000, idleTimeout.toMillis() / 2));
    scheduler.scheduleWithFixedDelay(() -> {
      try {
        releaseIdle();
      } catch (RuntimeException e) {
        LOG.log(System.Logger.Level.WARNING, "releasing idle views: {0}", e.toString());
      }
    }, sweep, sweep, TimeUnit.MILLISECONDS);
  }

  /** This process's view of {@code instance}; null when its stream does not exist and !create. */
  InstanceMirror get(String instance, boolean create) {
    while (true) {
      Slot slot = slots.computeIfAbsent(instance, k -> new Slot());
      InstanceMirror m = slot.mirror;
      if (m != null) {
        return m;
      }
      slot.lock.lock();
      try {
        if (slots.get(instance) != slot) {
          continue; // the slot was dropped (released, removed, or the id had no stream) meanwhile
        }
        return start(instance, slot, create);
      } finally {
        slot.lock.unlock();
      }
    }
  }

  /** The view of {@code instance} if this process holds one now; never makes one. */
  InstanceMirror current(String instance) {
    Slot slot = slots.get(instance);
    return slot == null ? null : slot.mirror;
  }

  /** Views (one consumer each) this process holds now. */
  int open() {
    int n = 0;
    for (Slot s : slots.values()) {
      if (s.mirror != null) {
        n++;
      }
    }
    return n;
  }

  /** Views released as idle since the store started. */
  long released() {
    return released.get();
  }

  /**
   * Why the views are not ready: the first view that does not yet hold every frame this host
   * acknowledged; null when every view does.
   */
  String lagging() {
    for (Map.Entry<String, Slot> e : slots.entrySet()) {
      InstanceMirror m = e.getValue().mirror;
      if (m != null && m.index().lastSeq() < m.ackedSeq()) {
        return "instance " + e.getKey() + ": this host's view is at seq " + m.index().lastSeq()
            + " but it acknowledged seq " + m.ackedSeq() + " (catching up)";
      }
    }
    return null;
  }

  /** Stops the view of {@code instance}, if any: its waits and subscriptions end with {@code reason}. */
  void drop(String instance, String reason) {
    Slot slot = slots.remove(instance);
    if (slot == null) {
      return;
    }
    InstanceMirror m;
    slot.lock.lock();
    try {
      m = slot.mirror;
      slot.mirror = null;
    } finally {
      slot.lock.unlock();
    }
    if (m != null) {
      m.stop(reason);
    }
  }

  /** Stops every view and the indexes' timer; for the store's close. */
  void close() {
    for (String name : new ArrayList<>(slots.keySet())) {
      Slot slot = slots.remove(name);
      InstanceMirror m = slot == null ? null : slot.mirror;
      if (m != null) {
        m.stop("was closed with the store");
      }
    }
    timer.close();
  }

  /**
   * Releases the views nobody used for the idle timeout: no read, append, wait or subscription.
   * Their consumers go, and their memory; the next read makes a new view from the stream (one
   * stream lookup, one consumer, a replay of the retained frames).
   */
  private void releaseIdle() {
    long now = System.nanoTime();
    for (var e : slots.entrySet()) {
      release(e.getKey(), e.getValue(), now, idleTimeout.toNanos());
    }
  }

  /**
   * Releases the view in {@code slot} if it is idle for {@code idleNanos} (0: merely unused, no
   * wait or subscription); false when it is in use or busy being made.
   */
  private boolean release(String instance, Slot slot, long now, long idleNanos) {
    InstanceMirror m = slot.mirror;
    if (m == null || !m.idle(now, idleNanos) || !slot.lock.tryLock()) {
      return false;
    }
    try {
      if (slot.mirror != m || !m.idle(now, idleNanos)) {
        return false;
      }
      slot.mirror = null;
      slots.remove(instance, slot);
    } finally {
      slot.lock.unlock();
    }
    m.stop("was released as idle"); // a wait that raced the check retries on a new view
    released.incrementAndGet();
    return true;
  }

  /**
   * Before a new view: at {@code maxViews}, releases the least recently used views that no wait or
   * subscription holds, or refuses when every view is in use.
   */
  private void makeRoomFor(String instance) {
    if (open() < maxViews) {
      return;
    }
    record Candidate(String instance, Slot slot, long lastUsed) {}
    List<Candidate> candidates = new ArrayList<>();
    for (Map.Entry<String, Slot> e : slots.entrySet()) {
      InstanceMirror m = e.getValue().mirror;
      if (m != null && !e.getKey().equals(instance)) {
        candidates.add(new Candidate(e.getKey(), e.getValue(), m.lastUsedNanos()));
      }
    }
    candidates.sort(Comparator.comparingLong(Candidate::lastUsed)); // least recently used first
    long now = System.nanoTime();
    for (Candidate c : candidates) {
      if (open() < maxViews) {
        return;
      }
      release(c.instance(), c.slot(), now, -1);
    }
    if (open() >= maxViews) {
      throw TetherException.of(ErrorCode.TOO_MANY_INSTANCES, "this host holds views of " + maxViews
          + " instances, each with a wait or subscription pending (maxViews); retry later");
    }
  }

  /** Makes the view of {@code instance} in {@code slot}, whose lock the caller holds. */
  private InstanceMirror start(String instance, Slot slot, boolean create) {
    try {
      if (slot.mirror != null) {
        return slot.mirror;
      }
      lifecycle.checkOpen();
      long startEpoch = epoch.getAsLong();
      StreamInfo info = admin.open(instance, create);
      if (info == null) {
        slots.remove(instance, slot); // no entry kept for ids that do not exist
        return null;
      }
      makeRoomFor(instance);
      // Creating the consumer can time out while a stream leader is elected (a node just died):
      // retried like the stream lookups, each attempt with a fresh index.
      slot.mirror = admin.retrying(instance, () -> mirror(instance, info, startEpoch));
      budget.enforce(); // the new view's frames count now that it is listed (it may be the largest)
      return slot.mirror;
    } catch (StoreUnavailableException | IllegalStateException | TetherException e) {
      slots.remove(instance, slot);
      throw e;
    } catch (Exception e) {
      slots.remove(instance, slot);
      throw StreamAdmin.unavailable(instance, startTimeout, e);
    }
  }

  private InstanceMirror mirror(String instance, StreamInfo info, long startEpoch)
      throws IOException, JetStreamApiException {
    SequencedFrameIndex index = SequencedFrameIndex.create(instance, retention, timer, 0, executor, listener);
    try {
      return InstanceMirror.start(instance, names.stream(instance), names.streamSubjects(instance),
          info.getStreamState(), index, js, jsm, MAX_FILL, delivery,
          Duration.ofSeconds(2), startTimeout, startEpoch, budget);
    } catch (IOException | JetStreamApiException | RuntimeException e) {
      index.end("could not be mirrored");
      throw e;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      index.end("could not be mirrored");
      throw new IOException("interrupted while mirroring instance " + instance, e);
    } catch (Exception e) {
      index.end("could not be mirrored");
      throw new IOException(e);
    }
  }
}
