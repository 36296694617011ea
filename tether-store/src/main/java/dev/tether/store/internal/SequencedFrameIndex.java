package dev.tether.store.internal;

import dev.tether.api.Frame;
import dev.tether.store.FrameCounts;
import dev.tether.store.FrameQuery;
import dev.tether.store.QueryResult;
import dev.tether.store.Retention;
import dev.tether.store.StoreListener;
import dev.tether.store.Subscription;
import dev.tether.store.TetherStore;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;

/**
 * Not API. For stores whose seqs come from outside: one instance's budgeted ring, session-indexed
 * waiters and subscriptions (the same ones {@code MemoryTetherStore} uses), fed with frames that a
 * replicated log already sequenced. This package is exported only to the store modules.
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
public interface SequencedFrameIndex {
  /**
   * An empty index for {@code name} whose seq starts above {@code seqFloor}, with its wait
   * timeouts on {@code timer}.
   */
  static SequencedFrameIndex create(String name, Retention retention, Timer timer, long seqFloor) {
    return create(name, retention, timer, seqFloor, Runnable::run);
  }

  /**
   * As {@link #create(String, Retention, Timer, long)}, with the futures handed to callers
   * (waits, {@link Subscription#next()}) completed through {@code executor}: what a store does to
   * keep the rule of {@link TetherStore} that caller code never runs on its own threads.
   */
  static SequencedFrameIndex create(String name, Retention retention, Timer timer, long seqFloor, Executor executor) {
    return create(name, retention, timer, seqFloor, executor, StoreListener.NONE);
  }

  /**
   * As {@link #create(String, Retention, Timer, long, Executor)}, telling {@code listener} what
   * the index counts (its {@link FrameCounts}, wake latency; see {@link StoreListener}).
   */
  static SequencedFrameIndex create(String name, Retention retention, Timer timer, long seqFloor,
      Executor executor, StoreListener listener) {
    return StoreInternals.index(name, retention, timer, seqFloor, executor, listener);
  }

  /**
   * Adds frames that already carry ascending seqs above {@link #lastSeq()}, waking matching
   * waiters and feeding subscribers after the index's lock is released. Returns false when the
   * index was {@link #end ended}.
   *
   * @throws IllegalArgumentException when a seq is not above the previous one
   */
  boolean publish(List<Frame> stored);

  /** Raises the seq high-water mark without adding a frame (a history whose frames are gone). */
  void advanceSeq(long seq);

  /** See {@link TetherStore#query}. */
  QueryResult query(FrameQuery query);

  /**
   * See {@link TetherStore#waitForFrames}; {@code timeoutNanos <= 0} answers at once. Null when
   * the index was ended.
   */
  CompletableFuture<QueryResult> waitForFrames(FrameQuery query, long timeoutNanos);

  /** See {@link TetherStore#subscribe}; null when the index was ended. */
  Subscription subscribe(int bufferFrames);

  /** The highest seq published or advanced to. */
  long lastSeq();

  /** The retained frames, oldest first (a copy). */
  List<Frame> retained();

  /** Payload bytes the index retains now (what a host-wide budget across indexes counts). */
  long retainedBytes();

  /**
   * Evicts the oldest retained frame to make room in a budget shared with other indexes, unless
   * it is the only one (a query after it reports the gap, as after a cap eviction). Returns the
   * payload bytes freed, or -1 when nothing could be evicted.
   */
  long evictOldestForBudget();

  /** Waits currently pending; for monitoring and tests. */
  int pendingWaits();

  /**
   * Subscriptions currently open. With {@link #pendingWaits()}, what a distributed store checks
   * before it releases an index nobody reads.
   */
  int openSubscriptions();

  /**
   * Ends the index: frees its frames, completes its waits with a {@link CancellationException}
   * whose message is "instance NAME {@code reason}", closes its subscriptions, and returns the seq
   * high-water mark. Idempotent.
   */
  long end(String reason);

  /** The one timer thread for the wait timeouts of many indexes. Thread-safe. */
  interface Timer extends AutoCloseable {
    /** A timer that starts a daemon thread named {@code threadName} when first needed. */
    static Timer create(String threadName) {
      return StoreInternals.timer(threadName);
    }

    /** Stops the thread; pending timeouts never fire. Idempotent. */
    @Override
    void close();
  }
}
