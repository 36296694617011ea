package dev.tether.store.jetstream.internal;

import dev.tether.api.Frame;
import dev.tether.api.FrameCodec;
import dev.tether.api.TetherException;
import dev.tether.store.internal.SequencedFrameIndex;
import io.nats.client.Dispatcher;
import io.nats.client.JetStream;
import io.nats.client.JetStreamApiException;
import io.nats.client.JetStreamManagement;
import io.nats.client.JetStreamSubscription;
import io.nats.client.Message;
import io.nats.client.PushSubscribeOptions;
import io.nats.client.api.ConsumerConfiguration;
import io.nats.client.api.DeliverPolicy;
import io.nats.client.api.MessageInfo;
import io.nats.client.api.StreamState;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;

/**
 * This process's view of one instance's stream: an ordered push consumer that feeds every stored
 * message, in stream order, into a {@link SequencedFrameIndex} (the ring and waiter index the memory
 * store uses), so queries, waits and subscriptions are answered locally and a long-poll here wakes
 * when any host appends.
 *
 * <p>Concurrency: messages arrive on the store's one dispatcher thread, which publishes them into
 * the index (waking waiters there) and releases {@link #awaitSeq catch-up} barriers. The ordered
 * consumer (jnats) recreates its server-side consumer after a gap, a missed heartbeat or a leader
 * change, resuming after the last stream sequence it delivered, so the index never sees a frame
 * twice or out of order.
 *
 * <p>Gap: a mirror that starts on a stream whose first sequence is {@code F > 1} never saw seqs
 * below {@code F}; {@link #floor()} is {@code F - 1} then, and the store reports a gap for cursors
 * below it.
 */
public final class InstanceMirror {
  private static final System.Logger LOG = System.getLogger(InstanceMirror.class.getName());
  /** JetStream's "no message found" API error. */
  private static final int NO_MESSAGE_FOUND = 10037;
  /** How long a new view waits for its consumer's first deliveries before it reads from the stream's leader. */
  private static final Duration FIRST_DELIVERY = Duration.ofSeconds(1);
  /** True on the dispatcher thread while it publishes into an index. */
  static final ThreadLocal<Boolean> DELIVERING = ThreadLocal.withInitial(() -> false);

  private final String instance;
  private final SequencedFrameIndex index;
  private final long floor;
  private final AtomicLong acked = new AtomicLong();
  private final ReentrantLock lock = new ReentrantLock();
  private final TreeMap<Long, CompletableFuture<Void>> barriers = new TreeMap<>(); // guarded by lock
  private final Dispatcher dispatcher;
  private final JetStream js;
  private final String stream;
  private final String subjects;
  private final Duration heartbeat;
  private final ReentrantLock subscribing = new ReentrantLock();
  private volatile JetStreamSubscription subscription; // replaced under subscribing
  private volatile boolean stopped;
  private long subscribedNanos = System.nanoTime() - TimeUnit.DAYS.toNanos(1); // guarded by subscribing
  private volatile long verifiedEpoch;
  private volatile long lastUsedNanos = System.nanoTime();
  /** Serialises index updates from the consumer and from {@link #fill}. */
  private final ReentrantLock feeding = new ReentrantLock();
  /** True while the consumer may be stuck: set by a read that found the view behind, cleared by a delivery or a new consumer. */
  private volatile boolean suspect;
  private final ViewBudget budget;
  /** Bytes of this view counted in the budget; guarded by feeding. */
  private long countedBytes;
  /** Set when the view stopped: its bytes left the budget. Guarded by feeding. */
  private boolean uncounted;
  private final AtomicBoolean healing = new AtomicBoolean();

  private InstanceMirror(String instance, SequencedFrameIndex index, long floor, Dispatcher dispatcher, JetStream js,
      String stream, String subjects, Duration heartbeat, long epoch, ViewBudget budget) {
    this.instance = instance;
    this.budget = budget;
    this.dispatcher = dispatcher;
    this.index = index;
    this.floor = floor;
    this.js = js;
    this.stream = stream;
    this.subjects = subjects;
    this.heartbeat = heartbeat;
    this.verifiedEpoch = epoch;
  }

  /**
   * Starts a mirror of {@code stream} whose state was just read as {@code state}, and waits (at
   * most {@code catchUp}) until it has the frames the stream held then. {@code epoch} is the
   * connection's reconnect count when {@code state} was read. When no consumer can be made now,
   * the view is filled from the stream's leader through {@code jsm} instead (at most
   * {@code maxFill} messages; more fails) and marked {@link #suspect()}, so the next read makes one.
   * The view's retained bytes count against {@code budget}, shared by the host's views.
   */
  public static InstanceMirror start(String instance, String stream, String subjects, StreamState state,
      SequencedFrameIndex index, JetStream js, JetStreamManagement jsm, int maxFill, Dispatcher dispatcher,
      Duration heartbeat, Duration catchUp, long epoch, ViewBudget budget) throws Exception {
    long floor = 0;
    if (state.getMsgCount() == 0) {
      index.advanceSeq(state.getLastSequence());
    } else {
      floor = state.getFirstSequence() - 1;
    }
    InstanceMirror m = new InstanceMirror(instance, index, floor, dispatcher, js, stream, subjects, heartbeat, epoch, budget);
    long t0 = System.nanoTime();
    try {
      m.subscription = m.subscribeFrom(0);
    } catch (Exception e) {
      // Right after a node died the server may place the consumer on it and never answer: read
      // what the stream holds from its leader instead, and leave the consumer to the next read
      // (the view is suspect until one is made).
      LOG.log(Level.INFO, "instance {0}: no consumer yet ({1}); reading the stream''s {2} messages from its leader",
          instance, e.getMessage(), state.getMsgCount());
      m.suspect = true;
      if (state.getMsgCount() > maxFill || !m.fill(jsm, state.getLastSequence(), maxFill)) {
        throw e;
      }
      return m;
    }
    LOG.log(Level.DEBUG, "instance {0}: consumer made in {1} ms", instance, (System.nanoTime() - t0) / 1_000_000);
    Duration first = catchUp.compareTo(FIRST_DELIVERY) < 0 ? catchUp : FIRST_DELIVERY;
    if (m.awaitSeq(state.getLastSequence(), first)) {
      return m;
    }
    // The consumer was made but delivers nothing (placed on a peer that just died?): read from
    // the leader, and let the next read make another consumer.
    m.suspect = true;
    try {
      if (m.fill(jsm, state.getLastSequence(), maxFill)) {
        return m;
      }
    } catch (IOException | JetStreamApiException | RuntimeException e) {
      LOG.log(Level.DEBUG, "instance {0}: reading the stream from its leader failed: {1}", instance, e.getMessage());
    }
    if (!m.awaitSeq(state.getLastSequence(), catchUp.minus(first))) {
      LOG.log(Level.WARNING, "instance {0}: the mirror did not reach seq {1} within {2}; serving what it has",
          instance, state.getLastSequence(), catchUp);
    }
    return m;
  }

  /** An ordered push consumer from {@code startSeq} (0: the whole stream) onto the dispatcher. */
  private JetStreamSubscription subscribeFrom(long startSeq) throws Exception {
    ConsumerConfiguration.Builder cc = ConsumerConfiguration.builder().idleHeartbeat(heartbeat);
    if (startSeq <= 1) {
      cc.deliverPolicy(DeliverPolicy.All);
    } else {
      cc.deliverPolicy(DeliverPolicy.ByStartSequence).startSequence(startSeq);
    }
    PushSubscribeOptions options = PushSubscribeOptions.builder().stream(stream).ordered(true).configuration(cc.build()).build();
    return js.subscribe(subjects, dispatcher, this::onMessage, false, options);
  }

  /**
   * Replaces the consumer with a new one that starts after the newest seq this view holds: what a
   * read does when the view stopped advancing although the stream has more (the server holding
   * the consumer died, or the connection moved to another node, and jnats has not noticed yet).
   * Messages the old consumer still delivers are dropped as duplicates. A consumer the server
   * cannot create now (a leader election) fails with the server's exception; the old one is
   * gone then and the next read tries again. Does nothing (false) when the consumer was made less
   * than {@code minInterval} ago (by another reader of the same stuck view); true when it made one.
   */
  public boolean resubscribe(Duration minInterval) throws Exception {
    subscribing.lock();
    try {
      if (stopped || System.nanoTime() - subscribedNanos < minInterval.toNanos()) {
        return false;
      }
      subscribedNanos = System.nanoTime();
      JetStreamSubscription old = subscription;
      if (old != null) {
        try {
          dispatcher.unsubscribe(old);
        } catch (RuntimeException e) {
          LOG.log(Level.DEBUG, "instance {0}: unsubscribe failed: {1}", instance, e.getMessage());
        }
        subscription = null;
      }
      LOG.log(Level.INFO, "instance {0}: the view stopped at seq {1}; consuming again from the next seq",
          instance, index.lastSeq());
      subscription = subscribeFrom(index.lastSeq() + 1);
      suspect = false;
      return true;
    } finally {
      subscribing.unlock();
    }
  }

  /** The connection's reconnect count when this view was last known to be caught up. */
  public long verifiedEpoch() {
    return verifiedEpoch;
  }

  /** Notes that the view was caught up with the stream while the connection had {@code epoch}. */
  public void verified(long epoch) {
    verifiedEpoch = Math.max(verifiedEpoch, epoch);
  }

  /** The newest seq this process appended and saw acknowledged (0 when none). */
  public long ackedSeq() {
    return acked.get();
  }

  /** Marks the view as used now (reads, waits and appends keep it from being released as idle). */
  public void touch() {
    lastUsedNanos = System.nanoTime();
  }

  /** Whether {@link #stop} ended this view (removed, released as idle, or the store closed). */
  public boolean stopped() {
    return stopped;
  }

  /** Whether nothing here needs the view: no wait pending, no subscription, unused since {@code idleNanos}. */
  public boolean idle(long nowNanos, long idleNanos) {
    return nowNanos - lastUsedNanos > idleNanos && index.pendingWaits() == 0 && index.openSubscriptions() == 0;
  }

  /** {@link System#nanoTime()} of the last {@link #touch()}. */
  public long lastUsedNanos() {
    return lastUsedNanos;
  }

  private void onMessage(Message msg) {
    suspect = false; // the consumer delivers
    deliver(msg.metaData().streamSequence(), msg.getData());
  }

  /**
   * Puts stream message {@code seq} into the index unless it already holds it. The consumer's
   * deliveries and {@link #fill}'s fetches both come through here, serialised by a lock held only
   * for the index update (never across a request), so the index sees each seq once and in order.
   */
  private void deliver(long seq, byte[] data) {
    feeding.lock();
    try {
      if (seq <= index.lastSeq()) {
        return; // a redelivery after a consumer reset, or fetched by a read meanwhile
      }
      Frame frame;
      try {
        frame = FrameCodec.standard().read(data).withSeq(seq);
      } catch (TetherException e) {
        // Not written by a tether store: keep the seq, skip the frame.
        LOG.log(Level.WARNING, "instance {0}: skipping stream message {1}: {2}", instance, seq, e.getMessage());
        index.advanceSeq(seq);
        frame = null;
      }
      if (frame != null) {
        boolean outer = DELIVERING.get();
        DELIVERING.set(true);
        try {
          index.publish(List.of(frame));
        } finally {
          DELIVERING.set(outer);
        }
        countBytes();
      }
    } finally {
      feeding.unlock();
    }
    release(seq);
    budget.enforce();
  }

  /** Reports the index's byte change to the host's budget; under the feeding lock. */
  private void countBytes() {
    if (!budget.limited() || uncounted) {
      return;
    }
    long now = index.retainedBytes();
    budget.add(now - countedBytes);
    countedBytes = now;
  }

  /**
   * Evicts this view's oldest frame for the host's budget (never its last); the bytes freed, or
   * -1 when it cannot give.
   */
  long evictForBudget() {
    feeding.lock();
    try {
      if (stopped || uncounted) {
        return -1;
      }
      long freed = index.evictOldestForBudget();
      if (freed >= 0) {
        countBytes();
      }
      return freed;
    } finally {
      feeding.unlock();
    }
  }

  /**
   * Fetches from the stream what this view lacks up to {@code target}, one message a request
   * (the next stored message after the view's newest seq, so removed seqs cost nothing): how a
   * read catches up when the view's consumer stopped delivering (its server died and a new one
   * cannot be placed yet), asking only the stream's leader, which is up whenever appends are.
   * Stops after {@code maxMessages} requests (the consumer is the bulk path), or when the stream
   * answers that nothing follows (then the seqs are not skipped); returns whether the view reached
   * {@code target}.
   *
   * @throws IOException when a request times out
   * @throws JetStreamApiException when the stream refuses one
   */
  public boolean fill(JetStreamManagement jsm, long target, int maxMessages) throws IOException, JetStreamApiException {
    for (int n = 0; index.lastSeq() < target && n < maxMessages && !stopped; n++) {
      long from = index.lastSeq() + 1;
      MessageInfo next;
      try {
        next = jsm.getNextMessage(stream, from, subjects);
      } catch (JetStreamApiException e) {
        if (e.getApiErrorCode() != NO_MESSAGE_FOUND) {
          throw e;
        }
        // Nothing stored from there on, by the answering server's applied state: never skip seqs
        // on that (a new leader may not have applied every committed message yet); the consumer
        // or the next read brings them.
        break;
      }
      if (next == null || next.getSeq() < from) {
        throw new IOException("the stream answered seq " + (next == null ? "none" : next.getSeq()) + " for the next after " + (from - 1));
      }
      if (next.getSeq() > from) {
        advanceTo(next.getSeq() - 1); // removed seqs (rolled-up deltas) before it
      }
      deliver(next.getSeq(), next.getData());
    }
    return index.lastSeq() >= target || stopped;
  }

  private void advanceTo(long seq) {
    feeding.lock();
    try {
      if (seq > index.lastSeq()) {
        index.advanceSeq(seq);
      }
    } finally {
      feeding.unlock();
    }
    release(seq);
  }

  /** Whether the consumer looks stuck: a read found it behind and nothing arrived through it since. */
  public boolean suspect() {
    return suspect;
  }

  /** Claims the view's one background consumer repair; false when one runs already. */
  public boolean startHealing() {
    return healing.compareAndSet(false, true);
  }

  /** Ends the claim of {@link #startHealing()}. */
  public void endHealing() {
    healing.set(false);
  }

  /** Notes that a read found the view behind the stream after waiting (see {@link #suspect()}). */
  public void markSuspect() {
    suspect = true;
  }

  private void release(long seq) {
    List<CompletableFuture<Void>> done;
    lock.lock();
    try {
      if (barriers.isEmpty() || barriers.firstKey() > seq) {
        return;
      }
      Map<Long, CompletableFuture<Void>> head = barriers.headMap(seq, true);
      done = List.copyOf(head.values());
      head.clear();
    } finally {
      lock.unlock();
    }
    for (CompletableFuture<Void> f : done) {
      f.complete(null);
    }
  }

  /**
   * Waits until the index holds every seq up to {@code seq}, at most {@code timeout}; returns
   * whether it got there or the view was {@link #stop stopped} (callers check {@link #stopped()}).
   * Returns at once on the dispatcher thread (it would wait for itself).
   */
  public boolean awaitSeq(long seq, Duration timeout) throws InterruptedException {
    if (index.lastSeq() >= seq) {
      return true;
    }
    if (DELIVERING.get()) {
      return false;
    }
    try {
      seqReached(seq).get(timeout.toNanos(), TimeUnit.NANOSECONDS);
      return true;
    } catch (TimeoutException e) {
      return false;
    } catch (ExecutionException e) {
      return false;
    }
  }

  /**
   * Completes (on the dispatcher thread, or at once) when the index holds every seq up to
   * {@code seq} or the view is {@link #stop stopped}; never fails. For waits that must not hold a
   * thread while the view catches up.
   */
  public CompletableFuture<Void> seqReached(long seq) {
    if (index.lastSeq() >= seq) {
      return CompletableFuture.completedFuture(null);
    }
    CompletableFuture<Void> f;
    lock.lock();
    try {
      if (stopped) {
        return CompletableFuture.completedFuture(null); // stop() completed the barriers it found under this lock
      }
      f = barriers.computeIfAbsent(seq, s -> new CompletableFuture<>());
    } finally {
      lock.unlock();
    }
    if (index.lastSeq() >= seq) { // delivered between the check and the registration
      release(index.lastSeq());
    }
    return f;
  }

  /** Notes a seq this process appended, so {@link #lastSeq()} covers it before it is delivered. */
  public void noteAcked(long seq) {
    acked.accumulateAndGet(seq, Math::max);
  }

  /** The highest seq this process knows of. */
  public long lastSeq() {
    return Math.max(index.lastSeq(), acked.get());
  }

  public SequencedFrameIndex index() {
    return index;
  }

  /** Seqs up to this were evicted before the mirror started (0 when none). */
  public long floor() {
    return floor;
  }

  /** Stops the consumer and ends the index's waits and subscriptions with {@code reason}. */
  public void stop(String reason) {
    subscribing.lock();
    try {
      stopped = true;
      JetStreamSubscription s = subscription;
      subscription = null;
      if (s != null) {
        try {
          dispatcher.unsubscribe(s);
        } catch (RuntimeException e) {
          LOG.log(Level.DEBUG, "instance {0}: unsubscribe failed: {1}", instance, e.getMessage());
        }
      }
    } finally {
      subscribing.unlock();
    }
    feeding.lock();
    try {
      if (!uncounted) {
        budget.add(-countedBytes);
        countedBytes = 0;
        uncounted = true;
      }
      index.end(reason);
    } finally {
      feeding.unlock();
    }
    lock.lock();
    try {
      for (CompletableFuture<Void> f : barriers.values()) {
        f.complete(null);
      }
      barriers.clear();
    } finally {
      lock.unlock();
    }
  }
}
