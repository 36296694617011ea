package dev.tether.store;

import dev.tether.api.Frame;
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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
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
 * commit, so nobody ever sees a frame (or a seq) that a crash could take back. With
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
 * <p>Thread-safe. One writer thread owns the SQLite connection.
 */
public final class DurableTetherStore implements TetherStore {
  /** SQLite's {@code synchronous} setting for the journal. */
  public enum Sync {
    /** fsync on every commit: an acknowledged append survives power loss. */
    FULL,
    /** No fsync per commit in WAL mode: faster; power loss may drop the latest appends. */
    NORMAL
  }

  private final MemoryTetherStore memory;
  private final SqliteJournal journal;
  private final Retention retention;
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition work = lock.newCondition();
  private List<Op> queue = new ArrayList<>();
  private final Map<String, long[]> nextSeq = new HashMap<>(); // guarded by lock
  private final Map<String, RetentionLedger> ledgers = new HashMap<>(); // writer thread only
  private final Thread writer;
  private boolean closing;
  private IOException failure;

  /** An append or a removal waiting for the writer. */
  private record Op(String instance, Frame stored, CompletableFuture<Long> done) {}

  private DurableTetherStore(SqliteJournal journal, StoreSettings settings) {
    this.journal = journal;
    this.retention = settings.retention();
    this.memory = MemoryTetherStore.create(settings, null);
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
      Instance i = memory.instance(r.instance());
      i.restore(r.frames(), r.highSeq());
      nextSeq.put(r.instance(), new long[] {r.highSeq()});
      RetentionLedger ledger = ledger(r.instance());
      for (Frame f : r.frames()) {
        ledger.add(f.seq(), f.payload().size());
      }
    }
  }

  private RetentionLedger ledger(String instance) {
    return ledgers.computeIfAbsent(instance, n -> new RetentionLedger(retention));
  }

  public Retention retention() {
    return retention;
  }

  @Override
  public long append(String instance, Frame frame) {
    TetherStore.requireInstance(instance);
    Objects.requireNonNull(frame, "frame");
    return await(enqueue(instance, frame));
  }

  /** See {@link TetherStore#appendAsync}; completes on the journal's writer thread. */
  @Override
  public CompletableFuture<Long> appendAsync(String instance, Frame frame) {
    TetherStore.requireInstance(instance);
    Objects.requireNonNull(frame, "frame");
    return enqueue(instance, frame);
  }

  private CompletableFuture<Long> enqueue(String instance, Frame frame) {
    CompletableFuture<Long> done = new CompletableFuture<>();
    lock.lock();
    try {
      checkWritable();
      Frame stored = null;
      if (frame != null) {
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
      throw new UncheckedIOException("the journal failed earlier; reopen the store", failure);
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

  private void commitAndPublish(List<Op> batch) {
    try {
      writeBatch(batch);
    } catch (SQLException | RuntimeException e) {
      journal.rollback();
      IOException io = new IOException("journal commit failed: " + e.getMessage(), e);
      lock.lock();
      try {
        failure = io; // fail-stop: the ledgers no longer match the file
      } finally {
        lock.unlock();
      }
      for (Op op : batch) {
        op.done().completeExceptionally(new UncheckedIOException(io));
      }
      return;
    }
    // Committed: publish in seq order, then acknowledge.
    List<Frame> run = new ArrayList<>();
    String runInstance = null;
    for (Op op : batch) {
      if (op.stored() == null) {
        publish(runInstance, run);
        memory.remove(op.instance());
        continue;
      }
      if (!op.instance().equals(runInstance)) {
        publish(runInstance, run);
        runInstance = op.instance();
      }
      run.add(op.stored());
    }
    publish(runInstance, run);
    for (Op op : batch) {
      op.done().complete(op.stored() == null ? 0L : op.stored().seq());
    }
  }

  private void publish(String instance, List<Frame> run) {
    if (run.isEmpty()) {
      return;
    }
    // Only this thread removes instances of a durable store, so the instance stays.
    if (!memory.instance(instance).publish(run)) {
      throw new IllegalStateException("instance " + instance + " vanished during publish");
    }
    run.clear();
  }

  private void writeBatch(List<Op> batch) throws SQLException {
    Map<String, long[]> touched = new HashMap<>(); // instance -> {maxSeq, maxEvicted}
    for (Op op : batch) {
      String name = op.instance();
      if (op.stored() == null) {
        journal.deleteInstance(name);
        ledger(name).clear();
        long[] t = touched.get(name);
        if (t != null) {
          t[1] = 0; // everything is gone already
        }
        continue;
      }
      Frame f = op.stored();
      long[] t = touched.computeIfAbsent(name, n -> new long[2]);
      t[0] = f.seq();
      RetentionLedger ledger = ledger(name);
      if (ledger.retains(f.type())) {
        long evicted = ledger.add(f.seq(), f.payload().size());
        if (evicted >= f.seq()) {
          throw new IllegalStateException("the newest frame must never be evicted");
        }
        journal.insert(name, f);
        if (evicted > 0) {
          t[1] = Math.max(t[1], evicted);
        }
      }
    }
    for (Map.Entry<String, long[]> e : touched.entrySet()) {
      if (e.getValue()[1] > 0) {
        journal.evictThrough(e.getKey(), e.getValue()[1]);
      }
      journal.highWater(e.getKey(), e.getValue()[0]);
    }
    journal.commit();
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
    boolean existed = memory.existing(instance) != null;
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
    public Builder executor(java.util.concurrent.Executor executor) {
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
      DurableTetherStore store = new DurableTetherStore(journal, memory.settings());
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
