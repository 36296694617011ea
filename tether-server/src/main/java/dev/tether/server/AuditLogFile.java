package dev.tether.server;

import dev.tether.server.internal.AuditLines;
import dev.tether.server.internal.RotatingFile;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Objects;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The audit log of {@code tether serve --audit-log FILE}: a {@link ServerListener} that writes each
 * {@link AuditEvent} as one line of JSON ({@code time}, {@code token_id}, {@code instance},
 * {@code channel}, {@code session_id}, {@code msg_id}, {@code type}, {@code route}, {@code method},
 * {@code status}, {@code code}, {@code bytes_in}, {@code bytes_out}; absent values left out, strings
 * cut to 256 characters; never a token's value) to {@code FILE}, rotated by size into {@code FILE.1} ... {@code FILE.keep}, so the log
 * takes at most {@code (keep + 1) * maxBytes} on disk. Bind it with
 * {@link TetherServer.Builder#listener} (with {@link ServerListener#all} beside another listener).
 *
 * <p>Design: {@link #audited} only offers the event to a bounded queue ({@value #QUEUE} events),
 * so a request thread never waits for the disk; one writer thread formats and writes, batching
 * what is queued and writing it before it waits again. When the queue is full (a disk slower than
 * the requests) the event is dropped and counted ({@link #dropped()}), logged once at WARNING; a
 * write that fails (a full disk) drops its batch, logged at WARNING once per run of failures.
 * Files: each created 0600 with {@code O_EXCL}, a symbolic link, FIFO or
 * directory at {@code FILE} refused, an earlier run's log rotated to {@code FILE.1} at
 * {@link #open}). {@link #close()} writes what is queued (waiting up to 5 s) and closes the file.
 * Thread-safe.
 */
public final class AuditLogFile implements ServerListener, AutoCloseable {
  /** The default largest size of one file: 64 MiB. */
  public static final long DEFAULT_MAX_BYTES = 64L << 20;
  /** The default number of rotated files kept beside {@code FILE}. */
  public static final int DEFAULT_KEEP = 4;
  /** The smallest {@code maxBytes} accepted (a line is under 4 KiB). */
  public static final long MIN_MAX_BYTES = 4096;
  static final int QUEUE = 8192;
  private static final int BATCH_BYTES = 64 * 1024;
  private static final System.Logger LOG = System.getLogger(AuditLogFile.class.getName());
  private static final AuditEvent STOP = new AuditEvent(Instant.EPOCH, null, null, null, null, null, null, "", "", 0,
      null, 0, 0);

  private final Path path;
  private final RotatingFile file;
  private final BlockingQueue<AuditEvent> queue = new ArrayBlockingQueue<>(QUEUE);
  private final AtomicLong dropped = new AtomicLong();
  private final Thread writer;
  private volatile boolean closed;

  private AuditLogFile(Path path, RotatingFile file) {
    this.path = path;
    this.file = file;
    this.writer = new Thread(this::drain, "tether-audit-log");
    writer.setDaemon(true);
    writer.start();
  }

  /**
   * Opens the log at {@code file} with {@code maxBytes} per file and {@code keep} rotated files.
   *
   * @throws IllegalArgumentException when maxBytes is below {@link #MIN_MAX_BYTES} or keep is negative
   * @throws IOException with a one-sentence message when {@code file} is not a regular file (a
   *     symbolic link, FIFO, directory), its directory is missing, or it cannot be created
   */
  public static AuditLogFile open(Path file, long maxBytes, int keep) throws IOException {
    Objects.requireNonNull(file, "file");
    if (maxBytes < MIN_MAX_BYTES) {
      throw new IllegalArgumentException("maxBytes must be >= " + MIN_MAX_BYTES + " but was " + maxBytes);
    }
    if (keep < 0) {
      throw new IllegalArgumentException("keep must be >= 0 but was " + keep);
    }
    return new AuditLogFile(file, RotatingFile.open(file, maxBytes, keep));
  }

  /** As {@link #open(Path, long, int)} with {@link #DEFAULT_MAX_BYTES} and {@link #DEFAULT_KEEP}. */
  public static AuditLogFile open(Path file) throws IOException {
    return open(file, DEFAULT_MAX_BYTES, DEFAULT_KEEP);
  }

  @Override
  public void audited(AuditEvent event) {
    if (closed || !queue.offer(event)) {
      if (dropped.getAndIncrement() == 0) {
        LOG.log(System.Logger.Level.WARNING, "audit log " + path + ": " + (closed ? "closed" : "the writer is behind (" + QUEUE
            + " events queued)") + "; dropping events (counted; this is logged once)");
      }
    }
  }

  /** Events not written: dropped on a full queue, after close, or by a failed write. */
  public long dropped() {
    return dropped.get();
  }

  private void drain() {
    ByteArrayOutputStream batch = new ByteArrayOutputStream(BATCH_BYTES);
    boolean failing = false;
    boolean stop = false;
    while (!stop) {
      AuditEvent e;
      try {
        e = queue.take();
      } catch (InterruptedException x) {
        break;
      }
      int events = 0;
      while (e != null) {
        if (e == STOP) {
          stop = true;
          break;
        }
        AuditLines.write(e, batch);
        events++;
        if (batch.size() >= BATCH_BYTES) {
          failing = flush(batch, events, failing);
          events = 0;
        }
        e = queue.poll();
      }
      failing = flush(batch, events, failing);
    }
    try {
      file.close();
    } catch (IOException x) {
      LOG.log(System.Logger.Level.WARNING, "audit log " + path + ": closing failed: " + x.getMessage());
    }
  }

  /** Writes the batch one line at a time (a file rotates only between lines). Returns whether it failed. */
  private boolean flush(ByteArrayOutputStream batch, int events, boolean failing) {
    if (batch.size() == 0) {
      return failing;
    }
    byte[] bytes = batch.toByteArray();
    batch.reset();
    try {
      int start = 0;
      for (int i = 0; i < bytes.length; i++) {
        if (bytes[i] == '\n') {
          file.write(bytes, start, i + 1 - start);
          start = i + 1;
        }
      }
      return false;
    } catch (IOException x) {
      dropped.addAndGet(events);
      if (!failing) {
        LOG.log(System.Logger.Level.WARNING, "audit log " + path + ": writing failed (" + x.getMessage() + "); dropping events until a write succeeds");
      }
      return true;
    }
  }

  /** Writes what is queued (up to 5 s), then closes the file; later events are dropped. Idempotent. */
  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    try {
      if (!queue.offer(STOP, 5, TimeUnit.SECONDS)) {
        writer.interrupt();
      }
      writer.join(5000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    if (writer.isAlive()) {
      writer.interrupt();
    }
  }

  @Override
  public String toString() {
    return "AuditLogFile[" + path + "]";
  }
}
