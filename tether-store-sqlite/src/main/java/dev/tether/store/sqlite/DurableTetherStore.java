package dev.tether.store.sqlite;

import dev.tether.store.InstanceUsage;
import dev.tether.store.Readiness;
import dev.tether.store.StoreListener;
import dev.tether.store.internal.RetentionLedger;
import dev.tether.store.FrameQuery;
import dev.tether.store.MemoryTetherStore;
import dev.tether.store.QueryResult;
import dev.tether.store.Retention;
import dev.tether.store.Subscription;
import dev.tether.store.TetherStore;
import dev.tether.store.internal.Handoff;
import dev.tether.api.Frame;
import dev.tether.store.internal.StoreInternals;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import dev.tether.api.ErrorCode;
import dev.tether.api.SessionKey;
import dev.tether.api.TetherException;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A {@link TetherStore} whose frames survive restarts: the in-memory rings of
 * {@link MemoryTetherStore}, written through to a SQLite journal (WAL mode).
 *
 * <p><b>Durability.</b> {@link #append} returns once the frame, the evictions it caused and the
 * instance's seq high-water mark are committed in one transaction. Appends that arrive while a
 * commit is running are grouped into the next transaction (group commit), so concurrent appenders
 * share one fsync. A frame becomes visible to queries, waiters and subscribers only after its
 * commit (a transient delta: after the commit of a high-water mark that covers its seq), so nobody
 * ever sees a frame (or a seq) that a crash could take back. With
 * {@link Sync#FULL} (the default) a committed append survives power loss; with {@link Sync#NORMAL}
 * SQLite skips the fsync of each WAL commit, so a power loss (not a process crash) may lose the
 * last appends acknowledged before it, but never corrupts the file. Because the seq high-water
 * mark commits with the frames, a lost tail can make seqs repeat after such a power loss; use
 * NORMAL only where that is acceptable.
 *
 * <p><b>Restart.</b> {@link #open} rebuilds each instance's ring from the newest journalled frames
 * that fit the retention (dropping older rows), and seq continues after the stored high-water
 * mark, also for an instance whose frames were all evicted or removed. Restoring writes no frame.
 * A file that is not a tether journal, has another version or is corrupt fails with an
 * {@link IOException}; it is never reset.
 *
 * <p><b>Files.</b> The journal and its {@code -wal} and {@code -shm} files hold every frame, so on
 * POSIX file systems they are the owner's only ({@code 0600}) whatever the umask and the mode of
 * their directory; an existing journal readable by others is restricted at open. The directory is
 * the caller's: it must exist.
 *
 * <p><b>Transient deltas</b> (the {@link Retention} default) are never journalled and do not
 * survive a restart. Their seqs must not be reused after one, so a delta whose seq is above the
 * journalled high-water mark raises the mark {@value #TRANSIENT_SEQ_RESERVE} above its seq in one
 * commit; the deltas that follow under the mark commit nothing (no fsync) and are published in seq
 * order behind the frames queued before them. After a restart seq continues above the mark, so it
 * may skip up to that many seqs, but never hands out one a reader may have seen.
 *
 * <p><b>Payloads in SQLite.</b> Frames (image payloads up to the 28 MiB wire limit included) are
 * stored as blobs in the database, not as side files. Measured (LargePayloadJournalBenchmark, see
 * BENCHMARKS.md): a durable 5 MiB append costs 32-37 ms in SQLite against 22-31 ms for the mere
 * floor of the side-file design (write, fsync, rename, fsync directory), which would still need a
 * SQLite commit for the referencing row and its own rules for orphaned and missing files after a
 * crash. SQLite was 1.1-1.7x that floor across three runs (it writes the bytes twice: WAL, then
 * checkpoint), so side files might save a third of a large append at most, for a second storage
 * path with its own crash rules. The simpler design stays: one atomic transaction covers frame,
 * evictions and high-water mark.
 *
 * <p><b>Faults.</b> A commit that fails (or an {@link Error} on the writer thread) makes the store
 * fail-stop: the journal rolls back, the failure is logged once, the batch and every append queued
 * behind it fail, nothing later is committed, and every later append throws an
 * {@link IllegalStateException} naming the original cause. Reopen the store to continue.
 * Eviction high-water marks (instance-wide and per session) are journalled with the evictions,
 * so {@code gap} and {@code oldest_seq} answer the same after a restart.
 *
 * <p><b>Budget.</b> {@link Builder#maxTotalBytes} is enforced by the writer on the journal's
 * ledgers with the rule of {@link MemoryTetherStore}; the rings mirror its evictions after the
 * commit. A refused append fails with {@code STORE_FULL}; its seq is used up. A journal reopened
 * with a smaller budget than it was written under is trimmed to the budget at open, by the same
 * rule.
 *
 * <p>Thread-safe. One writer thread owns the SQLite connection; it never runs caller code.
 */
public final class DurableTetherStore implements TetherStore {
  /** SQLite's {@code synchronous} setting for the journal. */
  public enum Sync {
    /** fsync on every commit: an acknowledged append survives power loss. */
    FULL,
    /** No fsync per commit in WAL mode: faster; power loss may drop the latest appends. */
    NORMAL
  }

  private static final System.Logger LOG = System.getLogger(DurableTetherStore.class.getName());

  private final MemoryTetherStore memory;
  private final SqliteJournal journal;
  private final Path file;
  private final StoreListener listener;
  private final Retention retention;
  private final Executor executor;
  private final long maxTotalBytes;
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition work = lock.newCondition();
  private List<Op> queue = new ArrayList<>();
  private final Map<String, long[]> nextSeq = new HashMap<>(); // guarded by lock
  private final Map<String, RetentionLedger> ledgers = new HashMap<>(); // writer thread only
  private long ledgerBytes; // writer thread only: the payload bytes all ledgers hold
  private volatile long committedBytes; // ledgerBytes as of the last commit, for monitoring
  private final Thread writer;
  private boolean closing;
  private Throwable failure; // guarded by lock; set once, the store is then fail-stop

  /** An append or a removal ({@code stored} null) waiting for the writer. */
  private static final class Op {
    final String instance;
    final Frame stored;
    final CompletableFuture<Long> done;
    TetherException refused; // writer thread only: the budget refused this append

    Op(String instance, Frame stored, CompletableFuture<Long> done) {
      this.instance = instance;
      this.stored = stored;
      this.done = done;
    }
  }

  private DurableTetherStore(SqliteJournal journal, Path file, MemoryTetherStore.Builder settings) {
    this.journal = journal;
    this.file = file.toAbsolutePath();
    this.listener = StoreInternals.listener(settings);
    this.retention = StoreInternals.retention(settings);
    this.executor = StoreInternals.executor(settings);
    this.maxTotalBytes = StoreInternals.maxTotalBytes(settings);
    // The writer enforces the byte budget on the ledgers (so journal and rings agree); the rings
    // only mirror its decisions.
    this.memory = StoreInternals.mirror(settings);
    this.writer = new Thread(this::writeLoop, "tether-journal-writer");
    writer.setDaemon(true);
  }

  /**
   * Opens (or creates) the journal at {@code file} with the default retention and
   * {@link Sync#FULL}.
   *
   * @throws IOException when the file is not a tether journal or cannot be read
   */
  public static DurableTetherStore open(Path file) throws IOException {
    return builder(file).open();
  }

  public static Builder builder(Path file) {
    return new Builder(file);
  }

  private void restore() throws IOException {
    for (SqliteJournal.Restored r : journal.restore(retention)) {
      StoreInternals.restore(memory, r.instance(), r.frames(), r.highSeq(), r.evictedSeq(), r.sessionEvicted());
      nextSeq.put(r.instance(), new long[] {r.highSeq()});
      journalledHigh.put(r.instance(), r.highSeq());
      RetentionLedger ledger = ledger(r.instance());
      for (Frame f : r.frames()) {
        ledger.add(f.seq(), f.payload().size(), f.session().orElse(null));
      }
      ledgerBytes += ledger.bytes();
    }
    committedBytes = ledgerBytes;
    trimToBudget();
  }

  private RetentionLedger ledger(String instance) {
    return ledgers.computeIfAbsent(instance, n -> new RetentionLedger(retention));
  }

  public Retention retention() {
    return retention;
  }

  /**
   * See {@link TetherStore#append}. A frame the byte budget cannot take fails with a
   * {@link TetherException} coded {@link ErrorCode#STORE_FULL}; its seq is used up, never
   * reused.
   *
   * @throws IllegalStateException when the store is closed, or failed earlier (then the message
   *     names the original failure and every later append fails the same way)
   */
  @Override
  public long append(String instance, Frame frame) {
    TetherStore.requireInstance(instance);
    Objects.requireNonNull(frame, "frame");
    // Only this thread waits on the future, so the writer may complete it directly.
    return await(enqueue(instance, frame));
  }

  /**
   * See {@link TetherStore#appendAsync}. The future completes on the store's executor, never on
   * the journal's writer thread, so code attached to it may append and block.
   */
  @Override
  public CompletableFuture<Long> appendAsync(String instance, Frame frame) {
    TetherStore.requireInstance(instance);
    Objects.requireNonNull(frame, "frame");
    CompletableFuture<Long> done = enqueue(instance, frame);
    CompletableFuture<Long> out = new CompletableFuture<>();
    done.whenComplete((seq, e) -> Handoff.run(executor, () -> {
      if (e != null) {
        out.completeExceptionally(e);
      } else {
        out.complete(seq);
      }
    }));
    return out;
  }

  private CompletableFuture<Long> enqueue(String instance, Frame frame) {
    CompletableFuture<Long> done = new CompletableFuture<>();
    lock.lock();
    try {
      checkWritable();
      Frame stored = null;
      if (frame != null) {
        if (!nextSeq.containsKey(instance) && !StoreInternals.canCreate(memory, instance)) {
          StoreInternals.create(memory, instance); // throws TOO_MANY_INSTANCES, or creates it in a race
        }
        long[] counter = nextSeq.computeIfAbsent(instance, n -> new long[1]);
        stored = frame.withSeq(++counter[0]);
      }
      queue.add(new Op(instance, stored, done));
      work.signal();
    } finally {
      lock.unlock();
    }
    return done;
  }

  private void checkWritable() {
    if (closing) {
      throw new IllegalStateException("the store is closed");
    }
    if (failure != null) {
      throw new IllegalStateException("the journal failed earlier (" + failure
          + "); nothing more is written: fix the cause and reopen the store", failure);
    }
  }

  private static long await(CompletableFuture<Long> done) {
    boolean interrupted = false;
    try {
      while (true) {
        try {
          return done.get();
        } catch (InterruptedException e) {
          // The commit is already under way; its outcome decides the result.
          interrupted = true;
        } catch (ExecutionException e) {
          if (e.getCause() instanceof RuntimeException r) {
            throw r;
          }
          throw new IllegalStateException(e.getCause());
        }
      }
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  private void writeLoop() {
    while (true) {
      List<Op> batch;
      lock.lock();
      try {
        while (queue.isEmpty() && !closing) {
          work.awaitUninterruptibly();
        }
        if (queue.isEmpty()) {
          return;
        }
        batch = queue;
        queue = new ArrayList<>();
      } finally {
        lock.unlock();
      }
      commitAndPublish(batch);
    }
  }

  /**
   * How far above a transient delta's seq the journal's high-water mark is raised when the delta
   * is not yet covered by it. The deltas that follow under the mark commit nothing (no fsync);
   * after a restart seq continues above the mark, so it may skip up to this many seqs, never reuse
   * one.
   */
  static final long TRANSIENT_SEQ_RESERVE = 1024;

  /** Instance -> the high-water mark the journal holds (committed). Writer thread only. */
  private final Map<String, Long> journalledHigh = new HashMap<>();

  /** Budget evictions of one batch: instance -> highest seq evicted for the budget. */
  private final Map<String, Long> budgetEvicted = new HashMap<>(); // writer thread only

  private void commitAndPublish(List<Op> batch) {
    budgetEvicted.clear();
    try {
      writeBatch(batch);
    } catch (SQLException | RuntimeException | Error e) {
      failStop(batch, e);
      return;
    }
    committedBytes = ledgerBytes;
    try {
      // Committed: publish in seq order, then acknowledge.
      for (Map.Entry<String, Long> e : budgetEvicted.entrySet()) {
        StoreInternals.evictThrough(memory, e.getKey(), e.getValue());
      }
      List<Frame> run = new ArrayList<>();
      String runInstance = null;
      for (Op op : batch) {
        if (op.stored == null) {
          publish(runInstance, run);
          memory.remove(op.instance);
          continue;
        }
        if (op.refused != null) {
          continue;
        }
        if (!op.instance.equals(runInstance)) {
          publish(runInstance, run);
          runInstance = op.instance;
        }
        run.add(op.stored);
      }
      publish(runInstance, run);
    } catch (RuntimeException | Error e) {
      // Committed but not all visible: the rings no longer match the file.
      failStop(batch, e);
      return;
    }
    for (Op op : batch) {
      if (op.refused != null) {
        op.done.completeExceptionally(op.refused);
      } else {
        op.done.complete(op.stored == null ? 0L : op.stored.seq());
      }
    }
  }

  /**
   * Makes the store fail-stop after {@code e}: rolls back, logs once, fails this batch and
   * everything queued behind it (none of it is committed, so nothing commits out of order), and
   * rebuilds the ledgers from the rings, which hold exactly the committed frames.
   */
  private void failStop(List<Op> batch, Throwable e) {
    journal.rollback();
    List<Op> queued;
    lock.lock();
    try {
      failure = e;
      queued = queue;
      queue = new ArrayList<>();
    } finally {
      lock.unlock();
    }
    LOG.log(System.Logger.Level.ERROR, "the journal commit failed; the store accepts no more "
        + "appends until it is reopened", e);
    rebuildLedgers();
    IOException io = new IOException("journal commit failed: " + e, e);
    for (List<Op> ops : List.of(batch, queued)) {
      for (Op op : ops) {
        op.done.completeExceptionally(e instanceof Error
            ? new IllegalStateException("the journal writer failed: " + e, e)
            : new UncheckedIOException(io));
      }
    }
  }

  private void rebuildLedgers() {
    try {
      ledgerBytes = 0;
      for (Map.Entry<String, RetentionLedger> e : ledgers.entrySet()) {
        RetentionLedger l = e.getValue();
        l.clear();
        for (Frame f : memory.retained(e.getKey())) {
          l.add(f.seq(), f.payload().size(), f.session().orElse(null));
        }
        l.drainSessionMarks();
        ledgerBytes += l.bytes();
      }
    } catch (RuntimeException | Error e) {
      ledgers.clear(); // nothing is written any more; only the bookkeeping is lost
    }
  }

  /** The retention ledger's frame count for {@code instance}; for tests. */
  int ledgerSize(String instance) {
    RetentionLedger l = ledgers.get(instance);
    return l == null ? 0 : l.size();
  }

  /** The commit hook of the journal; for fault-injection tests. */
  void beforeCommit(SqliteJournal.CommitHook hook) {
    journal.beforeCommit = hook;
  }

  private void publish(String instance, List<Frame> run) {
    if (run.isEmpty()) {
      return;
    }
    // An instance that held nothing may be freed concurrently; publishing recreates it.
    while (!StoreInternals.publish(memory, instance, run)) {
      Thread.onSpinWait();
    }
    run.clear();
  }

  private void writeBatch(List<Op> batch) throws SQLException {
    Map<String, long[]> touched = new HashMap<>(); // instance -> {high-water mark to journal, maxEvicted}
    boolean wrote = false;
    for (Op op : batch) {
      String name = op.instance;
      if (op.stored == null) {
        wrote = true;
        journal.deleteInstance(name);
        journal.clearEvictedMarks(name);
        RetentionLedger l = ledger(name);
        ledgerBytes -= l.bytes();
        l.clear();
        budgetEvicted.remove(name);
        long[] t = touched.get(name);
        if (t != null) {
          t[1] = 0; // everything is gone already
        }
        continue;
      }
      Frame f = op.stored;
      RetentionLedger ledger = ledger(name);
      if (!ledger.retains(f.type())) {
        // A transient delta: no row. Its seq only has to stay above every seq a restart hands
        // out, so the mark is raised ahead by a reserve once and the deltas under it commit nothing.
        if (f.seq() > journalledHigh.getOrDefault(name, 0L)) {
          long[] t = touched.computeIfAbsent(name, n -> new long[2]);
          t[0] = Math.max(t[0], f.seq() + TRANSIENT_SEQ_RESERVE);
        }
        continue;
      }
      long[] t = touched.computeIfAbsent(name, n -> new long[2]);
      t[0] = Math.max(t[0], f.seq());
      long size = f.payload().size();
      if (!makeRoom(op, size, touched)) {
        continue;
      }
      long before = ledger.bytes();
      long evicted = ledger.add(f.seq(), size, f.session().orElse(null));
      ledgerBytes += ledger.bytes() - before;
      if (evicted >= f.seq()) {
        throw new IllegalStateException("the newest frame must never be evicted");
      }
      journal.insert(name, f);
      if (evicted > 0) {
        t[1] = Math.max(t[1], evicted);
      }
    }
    journalTouched(touched);
    if (!wrote && touched.isEmpty()) {
      return; // only deltas under the journalled mark: nothing to commit, no fsync
    }
    if (listener == StoreListener.NONE) {
      journal.commit();
    } else {
      long start = System.nanoTime();
      journal.commit();
      listener.committed("sqlite", batch.size(), System.nanoTime() - start);
    }
    for (Map.Entry<String, long[]> e : touched.entrySet()) {
      journalledHigh.merge(e.getKey(), e.getValue()[0], Math::max);
    }
  }

  /**
   * Writes what a batch changed per instance ({@code {high-water mark, highest evicted seq}}):
   * the marks, the evicted rows and the per-session eviction marks. Not committed here.
   */
  private void journalTouched(Map<String, long[]> touched) throws SQLException {
    for (Map.Entry<String, long[]> e : touched.entrySet()) {
      String name = e.getKey();
      long[] t = e.getValue();
      if (t[0] > 0) {
        journal.highWater(name, t[0]);
      }
      if (t[1] > 0) {
        journal.evictThrough(name, t[1]);
      }
      RetentionLedger l = ledgers.get(name);
      Map<SessionKey, Long> marks = l == null ? Map.of() : l.drainSessionMarks();
      if (t[1] > 0 || !marks.isEmpty()) {
        journal.evictedMarks(name, t[1], marks);
      }
    }
  }

  /**
   * A journal written under a larger budget than this store's: evicts down to the budget at
   * open, by the rule appends follow (the oldest frame of the instance holding the most bytes,
   * never an instance's last frame), and commits the eviction. So the store's memory is bounded
   * from the start, not from its first append. Runs before the writer starts.
   */
  private void trimToBudget() throws IOException {
    if (ledgerBytes <= maxTotalBytes) {
      return;
    }
    budgetEvicted.clear();
    Map<String, long[]> touched = new HashMap<>();
    makeRoom(new Op("(restore)", null, new CompletableFuture<>()), 0, touched);
    try {
      journalTouched(touched);
      journal.commit();
    } catch (SQLException e) {
      journal.rollback();
      throw new IOException("cannot trim the journal to the budget of " + maxTotalBytes + " bytes: " + e, e);
    }
    for (Map.Entry<String, Long> e : budgetEvicted.entrySet()) {
      StoreInternals.evictThrough(memory, e.getKey(), e.getValue());
    }
    budgetEvicted.clear();
    committedBytes = ledgerBytes;
  }

  /**
   * Frees room for {@code size} bytes under the store-wide budget by evicting the oldest frame
   * of the instance holding the most bytes (never an instance's last frame), as
   * {@link MemoryTetherStore} does. Marks {@code op} refused and returns false when it cannot.
   */
  private boolean makeRoom(Op op, long size, Map<String, long[]> touched) {
    if (maxTotalBytes == Long.MAX_VALUE) {
      return true;
    }
    while (ledgerBytes + size > maxTotalBytes) {
      String victim = null;
      long most = -1;
      for (Map.Entry<String, RetentionLedger> e : ledgers.entrySet()) {
        RetentionLedger l = e.getValue();
        if (l.size() > 1 && l.bytes() > most) {
          most = l.bytes();
          victim = e.getKey();
        }
      }
      if (victim == null || size > maxTotalBytes) {
        op.refused = TetherException.of(ErrorCode.STORE_FULL, "the store's budget of " + maxTotalBytes
            + " bytes is used up by the newest frames of its instances; cannot store " + size
            + " more bytes for instance " + op.instance + "; retry later or remove instances");
        return false;
      }
      RetentionLedger l = ledgers.get(victim);
      long before = l.bytes();
      long seq = l.evictOneForBudget();
      ledgerBytes -= before - l.bytes();
      budgetEvicted.merge(victim, seq, Math::max);
      long[] t = touched.computeIfAbsent(victim, n -> new long[2]);
      t[1] = Math.max(t[1], seq);
      if (t[0] == 0) {
        t[0] = nextSeqSnapshot(victim);
      }
    }
    return true;
  }

  /** The victim's high-water mark for the journal row (at least its newest retained seq). */
  private long nextSeqSnapshot(String instance) {
    lock.lock();
    try {
      long[] c = nextSeq.get(instance);
      return c == null ? 0 : c[0];
    } finally {
      lock.unlock();
    }
  }

  /** Payload bytes retained across all instances as of the last commit. */
  public long totalBytes() {
    return committedBytes;
  }

  @Override
  public QueryResult query(String instance, FrameQuery query) {
    return memory.query(instance, query);
  }

  @Override
  public CompletableFuture<QueryResult> waitForFrames(String instance, FrameQuery query, Duration timeout) {
    return memory.waitForFrames(instance, query, timeout);
  }

  @Override
  public Subscription subscribe(String instance, int bufferFrames) {
    return memory.subscribe(instance, bufferFrames);
  }

  /** Removes the instance's frames from memory and from the journal; its seq high-water mark stays. */
  @Override
  public boolean remove(String instance) {
    TetherStore.requireInstance(instance);
    boolean existed = StoreInternals.exists(memory, instance);
    await(enqueue(instance, null));
    return existed;
  }

  @Override
  public long lastSeq(String instance) {
    return memory.lastSeq(instance);
  }

  /** The instance's retained frames, oldest first (a copy). */
  public List<Frame> retained(String instance) {
    return memory.retained(instance);
  }

  /** The payload bytes the instance retains. */
  public long retainedBytes(String instance) {
    return memory.retainedBytes(instance);
  }

  @Override
  public Optional<InstanceUsage> usage(String instance) {
    return memory.usage(instance);
  }

  /**
   * Ready while open, no commit has failed, the journal file is still at its path and its
   * directory takes a new file (a probe file is created and deleted, so this touches the disk:
   * call it from a probe, not a hot path). Never throws.
   */
  @Override
  public Readiness readiness() {
    lock.lock();
    try {
      if (closing) {
        return Readiness.notReady("the journal is closed");
      }
      if (failure != null) {
        return Readiness.notReady("a journal commit failed (" + failure
            + "); the store accepts no appends until it is reopened");
      }
    } finally {
      lock.unlock();
    }
    return JournalProbe.check(file);
  }

  /** Commits what is queued, stops the writer, closes the file and ends all waits. Idempotent. */
  @Override
  public void close() {
    lock.lock();
    try {
      if (closing) {
        return;
      }
      closing = true;
      work.signal();
    } finally {
      lock.unlock();
    }
    boolean interrupted = false;
    while (writer.isAlive()) {
      try {
        writer.join();
      } catch (InterruptedException e) {
        interrupted = true;
      }
    }
    memory.close();
    try {
      journal.close();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /** Configures and opens a {@link DurableTetherStore}. Not thread-safe. */
  public static final class Builder {
    private final Path file;
    private Retention retention = Retention.defaults();
    private Sync sync = Sync.FULL;
    private final MemoryTetherStore.Builder memory = MemoryTetherStore.builder();

    private Builder(Path file) {
      this.file = Objects.requireNonNull(file, "file");
    }

    public Builder retention(Retention retention) {
      this.retention = Objects.requireNonNull(retention, "retention");
      memory.retention(retention);
      return this;
    }

    /** See {@link MemoryTetherStore.Builder#executor}; also completes {@link #appendAsync} futures. */
    public Builder executor(Executor executor) {
      memory.executor(executor);
      return this;
    }

    /**
     * See {@link MemoryTetherStore.Builder#maxTotalBytes}; the journal keeps the same frames, so
     * the budget bounds the file's frame rows too.
     */
    public Builder maxTotalBytes(long maxTotalBytes) {
      memory.maxTotalBytes(maxTotalBytes);
      return this;
    }

    /**
     * See {@link MemoryTetherStore.Builder#listener}; also told the latency of each journal commit
     * ({@code committed("sqlite", frames, nanos)}, on the writer thread).
     */
    public Builder listener(StoreListener listener) {
      memory.listener(listener);
      return this;
    }

    /** See {@link MemoryTetherStore.Builder#maxInstances}. */
    public Builder maxInstances(int maxInstances) {
      memory.maxInstances(maxInstances);
      return this;
    }

    public Builder sync(Sync sync) {
      this.sync = Objects.requireNonNull(sync, "sync");
      return this;
    }

    /**
     * Opens the journal, restores the rings and starts the writer.
     *
     * @throws IOException when the file is not a tether journal, has another version, is corrupt
     *     or cannot be opened
     */
    public DurableTetherStore open() throws IOException {
      SqliteJournal journal = SqliteJournal.open(file, sync);
      DurableTetherStore store = new DurableTetherStore(journal, file, memory);
      try {
        store.restore();
      } catch (IOException | RuntimeException e) {
        store.memory.close();
        journal.close();
        throw e;
      }
      store.writer.start();
      return store;
    }
  }
}
