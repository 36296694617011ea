package dev.tether.store;

import dev.tether.api.Frame;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;

/**
 * The per-instance frame store that hosts, gateways and MCP servers build on.
 *
 * <p>Each instance (a VM, named by a non-empty string) has one sequence: the store assigns
 * {@code seq} 1, 2, 3, ... to appended frames of all channels and sessions, and never reuses a
 * seq, also across restarts of a durable store and removal of the instance. Frames are kept
 * within a {@link Retention} budget; the oldest are evicted first.
 *
 * <p>Implementations are thread-safe. Nothing they return is a live view of their internals:
 * results are immutable and frames are immutable values (their payload bytes are shared, not
 * copied). The contract is small enough for a NATS JetStream implementation to satisfy too.
 *
 * <p><b>Where futures complete.</b> Every future a store hands to a caller ({@link #waitForFrames},
 * {@link #appendAsync}, {@link Subscription#next()}) is completed through the store's executor
 * (the builders' {@code executor(Executor)} setting, default
 * {@link java.util.concurrent.ForkJoinPool#commonPool()}), never on the thread that appended, the
 * store's timer or journal-writer thread, under one of the store's locks or inside a map
 * compute. Code attached to such a future may therefore call back into the store (append, wait,
 * subscribe, remove, even block on another of its futures) and may do heavy work without
 * stalling appenders. Futures that are already complete when returned (a wait that found frames)
 * run attached code on the caller's own thread, as {@link CompletableFuture} always does.
 */
public interface TetherStore extends AutoCloseable {
  /**
   * Stores {@code frame} for {@code instance}, creating the instance on first use, and returns the
   * seq it was given. The stored frame is {@code frame.withSeq(seq)}; a seq the caller set is
   * ignored. A durable store returns once the frame is committed.
   *
   * @throws IllegalArgumentException when {@code instance} is empty
   * @throws IllegalStateException when the store is closed
   * @throws java.io.UncheckedIOException when a durable store cannot commit the frame
   */
  long append(String instance, Frame frame);

  /**
   * The asynchronous form of {@link #append}: completes with the seq once the frame is stored (for
   * a durable store, committed). Lets one thread keep many appends in flight, which a durable
   * store commits together. Argument errors are thrown at once; storage failures complete the
   * future exceptionally. The default implementation appends synchronously.
   */
  default CompletableFuture<Long> appendAsync(String instance, Frame frame) {
    return CompletableFuture.completedFuture(append(instance, frame));
  }

  /**
   * The frames of {@code instance} matching {@code query}, never waiting. An instance that was
   * never used yields an empty result.
   */
  QueryResult query(String instance, FrameQuery query);

  /**
   * Completes with matching frames: at once when some exist, else when the first matching frame is
   * appended, or with an empty {@link QueryResult#timedOut() timed-out} result after
   * {@code timeout}. A zero or negative timeout, a backward page ({@code beforeSeq > 0}) and a
   * result with {@link QueryResult#gap() gap} set return at once, as {@link #query}. No thread is
   * held while waiting; cancelling the future removes the wait. When the instance is removed or
   * the store closed, the future completes exceptionally with a {@link CancellationException}.
   */
  CompletableFuture<QueryResult> waitForFrames(String instance, FrameQuery query, Duration timeout);

  /**
   * The blocking form of {@link #waitForFrames}: waits at most {@code timeout}.
   *
   * @throws InterruptedException when interrupted; the wait is cancelled
   * @throws CancellationException when the instance is removed or the store closed meanwhile
   */
  default QueryResult awaitFrames(String instance, FrameQuery query, Duration timeout)
      throws InterruptedException {
    return Awaits.await(waitForFrames(instance, query, timeout), timeout);
  }

  /**
   * Every frame appended to {@code instance} from now on, as stored, in seq order. The subscriber
   * holds at most {@code bufferFrames} undelivered frames; beyond that frames are dropped and the
   * subscriber receives a {@link SubscriptionEvent.Lost} event naming the seq range it missed. A
   * slow subscriber never slows appenders or other subscribers.
   *
   * @throws IllegalArgumentException when {@code bufferFrames < 1}
   */
  Subscription subscribe(String instance, int bufferFrames);

  /**
   * Forgets {@code instance}: frees its frames, completes its waits exceptionally with a
   * {@link CancellationException} and closes its subscriptions. A later append starts a new history
   * whose seqs continue after the removed one's. Returns whether the instance existed.
   */
  boolean remove(String instance);

  /** The highest seq assigned for {@code instance}, or 0 when none was. */
  long lastSeq(String instance);

  /**
   * What {@code instance} holds in this process's memory (frames and payload bytes), for
   * monitoring; empty when the store does not keep frames in memory. The default is empty.
   */
  default Optional<InstanceUsage> usage(String instance) {
    return Optional.empty();
  }

  /**
   * Whether the store can serve now: open, and its storage reachable (a durable journal writable, a
   * JetStream connection up and caught up). Quick enough for a readiness probe; never throws. The
   * default is ready unless {@link #close()} was called, which the default cannot see: stores
   * override it.
   */
  default Readiness readiness() {
    return Readiness.yes();
  }

  /** Releases resources; waits end as on {@link #remove}. Idempotent. */
  @Override
  void close();

  /** Checks an instance name. */
  static String requireInstance(String instance) {
    Objects.requireNonNull(instance, "instance");
    if (instance.isEmpty()) {
      throw new IllegalArgumentException("instance must not be empty");
    }
    return instance;
  }
}
