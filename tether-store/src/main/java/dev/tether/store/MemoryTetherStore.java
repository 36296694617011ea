package dev.tether.store;

import dev.tether.api.Frame;
import dev.tether.store.internal.StoreInternals;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import dev.tether.api.ErrorCode;
import dev.tether.api.TetherException;

/**
 * The in-memory {@link TetherStore}: one budgeted ring per instance, with per-session indexes,
 * waiters indexed by session and bounded subscriptions (see {@link InstanceState} and
 * {@link FrameRing} for the design).
 *
 * <p>Instances are created on first use, up to {@link Builder#maxInstances}. Removing one, or
 * freeing one that holds no frame, wait or subscription, remembers only its seq high-water mark,
 * so a later history of the same name continues its seqs. One daemon timer thread per store runs
 * wait timeouts; futures handed to callers complete on the {@link Builder#executor executor}.
 *
 * <p><b>Budget.</b> With {@link Builder#maxTotalBytes} set, an append first reserves its payload
 * bytes in the store-wide account; while they do not fit it evicts the oldest frame of the
 * instance that holds the most bytes (its own included), never the last frame an instance holds.
 * When nothing more can be evicted the append is refused with {@link ErrorCode#STORE_FULL} and
 * nothing is stored. Thread-safe.
 */
public final class MemoryTetherStore implements TetherStore {
  static {
    StoreInternals.install(new InternalsBridge());
  }

  private final StoreSettings settings;
  private final Retention retention;
  private final Executor executor;
  private final StoreBudget budget;
  private final int maxInstances;
  private final ConcurrentHashMap<String, InstanceState> instances = new ConcurrentHashMap<>();
  private final SeqMemory removedSeqs = new SeqMemory(SeqMemory.DEFAULT_CAPACITY);
  private final LazyTimer timer;
  private final Timeouts timeouts;
  private volatile boolean closed;

  private MemoryTetherStore(StoreSettings settings, Timeouts timeouts) {
    this.settings = settings;
    this.retention = settings.retention();
    this.executor = settings.executor();
    this.budget = settings.hasBudget() ? new StoreBudget(settings.maxTotalBytes()) : StoreBudget.NONE;
    this.maxInstances = settings.maxInstances();
    this.timer = timeouts == null ? new LazyTimer("tether-store-timer") : null;
    this.timeouts = timeouts == null ? timer : timeouts;
  }

  /** A store with the default settings; the same as {@code builder().build()}. */
  public static MemoryTetherStore create() {
    return builder().build();
  }

  /** A store keeping {@code retention}; the same as {@code builder().retention(retention).build()}. */
  public static MemoryTetherStore create(Retention retention) {
    return builder().retention(retention).build();
  }

  /** A store whose wait timeouts run on {@code timeouts} (null: its own timer thread). */
  static MemoryTetherStore create(StoreSettings settings, Timeouts timeouts) {
    return new MemoryTetherStore(settings, timeouts);
  }

  /** Configures a {@link MemoryTetherStore}; each setter fails fast on a bad value. */
  public static Builder builder() {
    return new Builder();
  }

  public Retention retention() {
    return retention;
  }

  /** The instance, created if needed. */
  InstanceState instance(String name) {
    return instance(name, true);
  }

  /**
   * The instance, created if needed; {@code capped} false lets a durable store publish frames it
   * has already committed (it checked the cap when it accepted them).
   */
  InstanceState instance(String name, boolean capped) {
    checkOpen();
    TetherStore.requireInstance(name);
    InstanceState i = instances.get(name);
    if (i != null) {
      return i;
    }
    return instances.computeIfAbsent(name, n -> {
      if (capped && instances.size() >= maxInstances) {
        throw TetherException.of(ErrorCode.TOO_MANY_INSTANCES, "the store already holds "
            + maxInstances + " instances; remove one before using instance " + n);
      }
      return new InstanceState(n, retention, timeouts, removedSeqs.lastSeq(n), executor, budget,
          this::freeIfIdle, settings.listener());
    });
  }

  /** Whether one more instance may be created now; for a durable store's admission check. */
  boolean canCreate(String name) {
    return instances.containsKey(name) || instances.size() < maxInstances;
  }

  private void freeIfIdle(InstanceState i) {
    boolean[] freed = new boolean[1];
    instances.computeIfPresent(i.name, (n, cur) -> {
      if (cur != i || !i.freeIfIdle()) {
        return cur;
      }
      removedSeqs.remember(n, i.lastSeq());
      freed[0] = true;
      return null;
    });
    if (freed[0]) {
      i.release(); // outside the compute: the listener folds the freed instance's counts
    }
  }

  private void checkOpen() {
    if (closed) {
      throw new IllegalStateException("the store is closed");
    }
  }

  /** The instance if it exists. */
  InstanceState existing(String name) {
    return instances.get(name);
  }

  /** Instances held now; for monitoring and tests. */
  public int instanceCount() {
    return instances.size();
  }

  /** Payload bytes retained across all instances; 0 unless a byte budget is set. */
  public long totalBytes() {
    return budget.used();
  }

  @Override
  public long append(String instance, Frame frame) {
    Objects.requireNonNull(frame, "frame");
    TetherStore.requireInstance(instance);
    long size = frame.payload().size();
    long reserved = reserve(instance, size);
    boolean stored = false;
    try {
      while (true) {
        long seq = instance(instance).append(frame, reserved);
        if (seq > 0) {
          stored = true; // the reservation became the ring's growth
          return seq;
        }
        // Removed or freed concurrently: append to the instance's next history.
      }
    } finally {
      if (!stored) {
        budget.add(-reserved);
      }
    }
  }

  /**
   * Reserves {@code size} bytes in the store-wide budget, evicting as the class doc says; returns
   * the bytes reserved (0 without a budget).
   */
  private long reserve(String instance, long size) {
    if (budget == StoreBudget.NONE) {
      return 0;
    }
    if (size > budget.max) {
      throw TetherException.of(ErrorCode.STORE_FULL, "a frame of " + size
          + " payload bytes is larger than the store's whole budget of " + budget.max + " bytes");
    }
    while (!budget.tryReserve(size)) {
      if (!evictLargest()) {
        throw TetherException.of(ErrorCode.STORE_FULL, "the store's budget of " + budget.max
            + " bytes is used up by the newest frames of its instances; cannot store "
            + size + " more bytes for instance " + instance + "; retry later or remove instances");
      }
    }
    return size;
  }

  /** Evicts the oldest frame of the instance holding the most bytes; false when none can give. */
  private boolean evictLargest() {
    while (true) {
      InstanceState victim = null;
      long most = -1;
      for (InstanceState i : instances.values()) {
        long b = i.retainedBytes();
        if (b > most && i.retainedFrames() > 1) {
          most = b;
          victim = i;
        }
      }
      if (victim == null) {
        return false;
      }
      if (victim.evictForBudget() >= 0) {
        return true;
      }
      // Changed meanwhile: look again.
    }
  }

  @Override
  public QueryResult query(String instance, FrameQuery query) {
    Objects.requireNonNull(query, "query");
    checkOpen();
    InstanceState i = instances.get(TetherStore.requireInstance(instance));
    if (i == null) {
      long last = removedSeqs.lastSeq(instance);
      return new QueryResult(List.of(), query.backward() ? 0 : Math.max(query.afterSeq(), last), false, false, 0);
    }
    return i.query(query);
  }

  @Override
  public CompletableFuture<QueryResult> waitForFrames(String instance, FrameQuery query, Duration timeout) {
    return waitForFrames(instance, query, timeout, false);
  }

  private CompletableFuture<QueryResult> waitForFrames(String instance, FrameQuery query, Duration timeout,
      boolean internal) {
    Objects.requireNonNull(query, "query");
    long nanos = timeoutNanos(timeout);
    while (true) {
      CompletableFuture<QueryResult> f = instance(instance).waitForFrames(query, nanos, internal);
      if (f != null) {
        return f;
      }
    }
  }

  /**
   * See {@link TetherStore#awaitFrames}. The future behind it is never shown to the caller, so
   * the appending thread completes it directly (no executor hop on the blocking path).
   */
  @Override
  public QueryResult awaitFrames(String instance, FrameQuery query, Duration timeout)
      throws InterruptedException {
    return Awaits.await(waitForFrames(instance, query, timeout, true), timeout);
  }

  static long timeoutNanos(Duration timeout) {
    Objects.requireNonNull(timeout, "timeout");
    try {
      return timeout.toNanos();
    } catch (ArithmeticException e) {
      return Long.MAX_VALUE;
    }
  }

  @Override
  public Subscription subscribe(String instance, int bufferFrames) {
    if (bufferFrames < 1) {
      throw new IllegalArgumentException("bufferFrames must be >= 1 but was " + bufferFrames);
    }
    while (true) {
      Subscription s = instance(instance).subscribe(bufferFrames);
      if (s != null) {
        return s;
      }
    }
  }

  @Override
  public boolean remove(String instance) {
    TetherStore.requireInstance(instance);
    InstanceState[] removed = new InstanceState[1];
    instances.computeIfPresent(instance, (n, i) -> {
      // Only mark inside the compute: callbacks the removal completes may call back into this
      // store (even for this instance), which must not happen while the map bin is locked.
      removedSeqs.remember(n, i.markRemoved());
      removed[0] = i;
      return null;
    });
    if (removed[0] == null) {
      return false;
    }
    removed[0].endRemoved("was removed");
    return true;
  }

  @Override
  public long lastSeq(String instance) {
    InstanceState i = instances.get(TetherStore.requireInstance(instance));
    return i != null ? i.lastSeq() : removedSeqs.lastSeq(instance);
  }

  /** The instance's retained frames, oldest first (a copy); empty for an unknown instance. */
  public List<Frame> retained(String instance) {
    InstanceState i = instances.get(TetherStore.requireInstance(instance));
    return i == null ? List.of() : i.snapshot();
  }

  /** The payload bytes the instance retains. */
  public long retainedBytes(String instance) {
    InstanceState i = instances.get(TetherStore.requireInstance(instance));
    return i == null ? 0 : i.retainedBytes();
  }

  @Override
  public Optional<InstanceUsage> usage(String instance) {
    InstanceState i = instances.get(TetherStore.requireInstance(instance));
    return Optional.of(i == null ? new InstanceUsage(0, 0) : new InstanceUsage(i.snapshot().size(), i.retainedBytes()));
  }

  /** Waits currently pending on {@code instance}; for monitoring and tests. */
  public int pendingWaits(String instance) {
    InstanceState i = instances.get(TetherStore.requireInstance(instance));
    return i == null ? 0 : i.waiterCount();
  }

  /** Ready while open. */
  @Override
  public Readiness readiness() {
    return closed ? Readiness.notReady("the store is closed") : Readiness.yes();
  }

  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    for (String name : List.copyOf(instances.keySet())) {
      InstanceState i = instances.remove(name);
      if (i != null) {
        i.remove("was closed with the store");
      }
    }
    if (timer != null) {
      timer.close();
    }
  }

  /**
   * Configures a {@link MemoryTetherStore}. Each setter checks its value at once and throws an
   * {@link IllegalArgumentException} naming the setting. Not thread-safe.
   */
  public static final class Builder {
    private StoreSettings settings = StoreSettings.defaults();

    private Builder() {}

    /** How much of each instance's history is kept; default {@link Retention#defaults()}. */
    public Builder retention(Retention retention) {
      settings = settings.withRetention(Objects.requireNonNull(retention, "retention"));
      return this;
    }

    /**
     * The executor that completes every future the store hands out (waits, subscription events),
     * so that code a caller attaches never runs on the appending thread, the timer thread or
     * under the store's locks. Default {@link java.util.concurrent.ForkJoinPool#commonPool()}.
     * {@code Runnable::run} completes inline on the store's threads (for callers whose callbacks
     * are trivial and never call back into the store).
     */
    public Builder executor(Executor executor) {
      settings = settings.withExecutor(Objects.requireNonNull(executor, "executor"));
      return this;
    }

    /**
     * The payload bytes retained across all instances together. An append that would take the
     * store over this budget first evicts the oldest frame of whichever instance holds the most
     * bytes, repeatedly, but never the last frame an instance holds; if the frame still does not
     * fit, the append fails with a {@link dev.tether.api.TetherException} coded
     * {@link dev.tether.api.ErrorCode#STORE_FULL}. Default: no budget ({@link Long#MAX_VALUE}).
     *
     * @throws IllegalArgumentException when {@code maxTotalBytes < 1}
     */
    public Builder maxTotalBytes(long maxTotalBytes) {
      settings = settings.withMaxTotalBytes(maxTotalBytes);
      return this;
    }

    /**
     * The number of instances held at once. Creating one more (by append, wait or subscribe)
     * fails with a {@link dev.tether.api.TetherException} coded
     * {@link dev.tether.api.ErrorCode#TOO_MANY_INSTANCES}. Instances that hold no frame and have
     * no waits or subscriptions are freed and do not count. Default: no cap
     * ({@link Integer#MAX_VALUE}).
     *
     * @throws IllegalArgumentException when {@code maxInstances < 1}
     */
    public Builder maxInstances(int maxInstances) {
      settings = settings.withMaxInstances(maxInstances);
      return this;
    }

    /**
     * Given each instance's {@link FrameCounts} (appends, evictions, gaps served) when its state is
     * created and released, and told each wake latency; see {@link StoreListener} for its threads
     * and cost. Default {@link StoreListener#NONE}.
     */
    public Builder listener(StoreListener listener) {
      settings = settings.withListener(Objects.requireNonNull(listener, "listener"));
      return this;
    }

    public MemoryTetherStore build() {
      return new MemoryTetherStore(settings, null);
    }

    StoreSettings settings() {
      return settings;
    }
  }

  /** For {@link CancellationException} messages. */
  @Override
  public String toString() {
    return "MemoryTetherStore" + retention;
  }
}
