package dev.tether.store;

import dev.tether.api.Frame;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;

/**
 * Service-provider class for stores whose seqs come from outside: one instance's budgeted ring,
 * session-indexed waiters and subscriptions (the same {@link InstanceState} that
 * {@link MemoryTetherStore} uses), fed with frames that a replicated log already sequenced.
 *
 * <p>A distributed store (NATS JetStream) assigns the seq on its server, then feeds every process
 * that holds the instance the same frames in the same order; each process keeps one of these as
 * its local view and answers queries, waits and subscriptions from it, exactly as the memory
 * store does. Frames must be published with strictly ascending seqs; gaps in the numbering are
 * allowed.
 *
 * <p>Thread-safe. Futures returned by {@link #waitForFrames} and {@link Subscription#next()}
 * complete through the executor given to {@link #create(String, Retention, Timer, long, Executor)}
 * (never under the index's lock, never on the thread that calls {@link #publish}), exactly as the
 * memory store's do; the four-argument {@code create} completes them on the publishing thread (or
 * the timer's thread for timeouts).
 */
public final class SequencedFrameIndex {
  private final InstanceState instance;

  private SequencedFrameIndex(InstanceState instance) {
    this.instance = instance;
  }

  /**
   * An empty index for {@code name} whose seq starts above {@code seqFloor}, with its wait
   * timeouts on {@code timer}.
   */
  public static SequencedFrameIndex create(String name, Retention retention, Timer timer, long seqFloor) {
    return create(name, retention, timer, seqFloor, Runnable::run);
  }

  /**
   * As {@link #create(String, Retention, Timer, long)}, with the futures handed to callers
   * (waits, {@link Subscription#next()}) completed through {@code executor}: what a store does to
   * keep the rule of {@link TetherStore} that caller code never runs on its own threads.
   */
  public static SequencedFrameIndex create(String name, Retention retention, Timer timer, long seqFloor,
      Executor executor) {
    return create(name, retention, timer, seqFloor, executor, StoreListener.NONE);
  }

  /**
   * As {@link #create(String, Retention, Timer, long, Executor)}, telling {@code listener} what
   * the index counts (its {@link FrameCounts}, wake latency; see {@link StoreListener}).
   */
  public static SequencedFrameIndex create(String name, Retention retention, Timer timer, long seqFloor,
      Executor executor, StoreListener listener) {
    Objects.requireNonNull(listener, "listener");
    Objects.requireNonNull(retention, "retention");
    Objects.requireNonNull(timer, "timer");
    Objects.requireNonNull(executor, "executor");
    if (seqFloor < 0) {
      throw new IllegalArgumentException("seqFloor must be >= 0 but was " + seqFloor);
    }
    return new SequencedFrameIndex(new InstanceState(TetherStore.requireInstance(name), retention, timer.timer, seqFloor,
        executor, StoreBudget.NONE, i -> { }, listener));
  }

  /**
   * Adds frames that already carry ascending seqs above {@link #lastSeq()}, waking matching
   * waiters and feeding subscribers after the index's lock is released. Returns false when the
   * index was {@link #end ended}.
   *
   * @throws IllegalArgumentException when a seq is not above the previous one
   */
  public boolean publish(List<Frame> stored) {
    return instance.publish(stored);
  }

  /** Raises the seq high-water mark without adding a frame (a history whose frames are gone). */
  public void advanceSeq(long seq) {
    instance.restore(List.of(), seq, 0, java.util.Map.of());
  }

  /** See {@link TetherStore#query}. */
  public QueryResult query(FrameQuery query) {
    return instance.query(Objects.requireNonNull(query, "query"));
  }

  /**
   * See {@link TetherStore#waitForFrames}; {@code timeoutNanos <= 0} answers at once. Null when
   * the index was ended.
   */
  public CompletableFuture<QueryResult> waitForFrames(FrameQuery query, long timeoutNanos) {
    return instance.waitForFrames(Objects.requireNonNull(query, "query"), timeoutNanos, false);
  }

  /** See {@link TetherStore#subscribe}; null when the index was ended. */
  public Subscription subscribe(int bufferFrames) {
    if (bufferFrames < 1) {
      throw new IllegalArgumentException("bufferFrames must be >= 1 but was " + bufferFrames);
    }
    return instance.subscribe(bufferFrames);
  }

  /** The highest seq published or advanced to. */
  public long lastSeq() {
    return instance.lastSeq();
  }

  /** The retained frames, oldest first (a copy). */
  public List<Frame> retained() {
    return instance.snapshot();
  }

  /** Waits currently pending; for monitoring and tests. */
  public int pendingWaits() {
    return instance.waiterCount();
  }

  /**
   * Subscriptions currently open. With {@link #pendingWaits()}, what a distributed store checks
   * before it releases an index nobody reads.
   */
  public int openSubscriptions() {
    return instance.subscriberCount();
  }

  /**
   * Ends the index: frees its frames, completes its waits with a
   * {@link java.util.concurrent.CancellationException} whose message is "instance NAME
   * {@code reason}", closes its subscriptions, and returns the seq high-water mark. Idempotent.
   */
  public long end(String reason) {
    return instance.remove(reason);
  }

  /** The one timer thread for the wait timeouts of many indexes. Thread-safe. */
  public static final class Timer implements AutoCloseable {
    private final LazyTimer timer;

    /** Starts a daemon timer thread named {@code threadName} when first needed. */
    public Timer(String threadName) {
      this.timer = new LazyTimer(Objects.requireNonNull(threadName, "threadName"));
    }

    /** Stops the thread; pending timeouts never fire. Idempotent. */
    @Override
    public void close() {
      timer.close();
    }
  }
}
