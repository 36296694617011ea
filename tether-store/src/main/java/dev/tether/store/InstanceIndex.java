package dev.tether.store;

import dev.tether.api.Frame;
import dev.tether.store.internal.SequencedFrameIndex;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;

/**
 * The memory store's {@link SequencedFrameIndex}: one {@link InstanceState} (the ring, waiters and
 * subscriptions of {@link MemoryTetherStore}) fed with frames sequenced elsewhere. Thread-safe as
 * {@code InstanceState} is.
 */
final class InstanceIndex implements SequencedFrameIndex {
  private final InstanceState instance;

  private InstanceIndex(InstanceState instance) {
    this.instance = instance;
  }

  /** See {@link SequencedFrameIndex#create(String, Retention, Timer, long, Executor, StoreListener)}. */
  static InstanceIndex create(String name, Retention retention, Timer timer, long seqFloor,
      Executor executor, StoreListener listener) {
    Objects.requireNonNull(listener, "listener");
    Objects.requireNonNull(retention, "retention");
    Objects.requireNonNull(timer, "timer");
    Objects.requireNonNull(executor, "executor");
    if (seqFloor < 0) {
      throw new IllegalArgumentException("seqFloor must be >= 0 but was " + seqFloor);
    }
    if (!(timer instanceof LazyTimer lazy)) {
      throw new IllegalArgumentException("timer must come from SequencedFrameIndex.Timer.create");
    }
    return new InstanceIndex(new InstanceState(TetherStore.requireInstance(name), retention, lazy, seqFloor,
        executor, StoreBudget.NONE, i -> { }, listener));
  }

  @Override
  public boolean publish(List<Frame> stored) {
    return instance.publish(stored);
  }

  @Override
  public void advanceSeq(long seq) {
    instance.restore(List.of(), seq, 0, Map.of());
  }

  @Override
  public QueryResult query(FrameQuery query) {
    return instance.query(Objects.requireNonNull(query, "query"));
  }

  @Override
  public CompletableFuture<QueryResult> waitForFrames(FrameQuery query, long timeoutNanos) {
    return instance.waitForFrames(Objects.requireNonNull(query, "query"), timeoutNanos, false);
  }

  @Override
  public Subscription subscribe(int bufferFrames) {
    if (bufferFrames < 1) {
      throw new IllegalArgumentException("bufferFrames must be >= 1 but was " + bufferFrames);
    }
    return instance.subscribe(bufferFrames);
  }

  @Override
  public long lastSeq() {
    return instance.lastSeq();
  }

  @Override
  public List<Frame> retained() {
    return instance.snapshot();
  }

  @Override
  public long retainedBytes() {
    return instance.retainedBytes();
  }

  @Override
  public long evictOldestForBudget() {
    return instance.evictForBudget();
  }

  @Override
  public int pendingWaits() {
    return instance.waiterCount();
  }

  @Override
  public int openSubscriptions() {
    return instance.subscriberCount();
  }

  @Override
  public long end(String reason) {
    return instance.remove(reason);
  }
}
