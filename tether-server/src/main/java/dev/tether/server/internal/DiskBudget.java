package dev.tether.server.internal;

import dev.tether.api.ErrorCode;
import dev.tether.api.TetherException;
import java.io.IOException;
import java.util.Objects;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The disk budget of every instance: the bytes the server keeps on disk for one instance
 * (attachments with their manifests, blobs) may not pass {@link #maxBytes()}. An upload that would
 * pass it is refused with {@code INSUFFICIENT_STORAGE} (507) naming the bytes in use, the upload and
 * the budget, before anything is written.
 *
 * <p>Design: nothing is counted here. What an instance uses is asked of {@link Usage} (the file
 * layer, which knows where an instance's files are) under a per-instance lock, and the write runs
 * under the same lock: two uploads to one instance cannot both see room that only one of them
 * fits, and the count can never drift from the files (a guest that deletes or adds files in its
 * workspace is seen at the next upload). Deletes take no lock: they only make room. An upload is
 * admitted when the bytes in use plus its own and an upper bound of what it writes beside them (its
 * manifest entry) fit, so the files never pass the budget. Writes of different instances run in parallel (one of
 * {@value #STRIPES} striped locks per instance id). Thread-safe.
 */
final class DiskBudget {
  /** The default budget per instance: 256 MiB. */
  static final long DEFAULT_BYTES = 256L << 20;
  static final int STRIPES = 64;

  /** What an instance's files take on disk now. */
  @FunctionalInterface
  interface Usage {
    /** The bytes of every file the server keeps for {@code entry} (attachments, manifests, blobs). */
    long bytes(InstanceRegistry.Entry entry) throws IOException;
  }

  /** A write that may add up to the bytes it was admitted with. */
  @FunctionalInterface
  interface Write<T> {
    T run() throws IOException;
  }

  private final long maxBytes;
  private final Usage usage;
  private final ReentrantLock[] locks = new ReentrantLock[STRIPES];

  /**
   * A budget of {@code maxBytes} per instance, 0 for none (every write admitted, nothing asked of
   * {@code usage}).
   */
  DiskBudget(long maxBytes, Usage usage) {
    if (maxBytes < 0) {
      throw new IllegalArgumentException("maxBytes must be >= 0 (0: no budget) but was " + maxBytes);
    }
    this.maxBytes = maxBytes;
    this.usage = Objects.requireNonNull(usage, "usage");
    for (int i = 0; i < STRIPES; i++) {
      locks[i] = new ReentrantLock();
    }
  }

  /** The budget per instance in bytes; 0: none. */
  long maxBytes() {
    return maxBytes;
  }

  /**
   * Runs {@code write}, which adds at most {@code bytes} plus {@code overhead} (what it writes
   * beside the upload, a manifest entry) to what {@code entry} keeps, when they fit in its budget;
   * serialised with every other write of the instance.
   *
   * @throws TetherException {@code INSUFFICIENT_STORAGE} when they do not fit (nothing was run)
   */
  <T> T write(InstanceRegistry.Entry entry, long bytes, long overhead, Write<T> write) throws IOException {
    if (maxBytes == 0) {
      return write.run();
    }
    ReentrantLock lock = locks[Math.floorMod(entry.id().hashCode(), STRIPES)];
    lock.lock();
    try {
      long used = usage.bytes(entry);
      if (used > maxBytes - bytes - overhead) {
        throw TetherException.of(ErrorCode.INSUFFICIENT_STORAGE, "instance '" + entry.id() + "' keeps " + used
            + " bytes on disk; this upload of " + bytes + " bytes" + (overhead > 0 ? " (and up to " + overhead
            + " bytes of its manifest entry)" : "") + " would pass its disk budget of " + maxBytes + " bytes ("
            + (maxBytes >> 20) + " MiB). Delete attachments (DELETE /v1/instances/{id}/attachments/{name}) first");
      }
      return write.run();
    } finally {
      lock.unlock();
    }
  }
}
