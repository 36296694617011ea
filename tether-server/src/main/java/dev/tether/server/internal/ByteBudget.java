package dev.tether.server.internal;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Bytes of heap the server may hold at once for one direction of traffic, across all requests:
 * request bodies being read (ingress, reserved with {@link BodyReader#reservation}) or answers
 * being written (egress: poll pages and stream lines). A request reserves before it holds its
 * first byte and releases when done; what does not fit is refused at once with 503 (or, for a
 * stream, retried shortly) instead of pushing the heap past its budget. One request alone always
 * fits. Lock-free and thread-safe.
 */
final class ByteBudget {
  private final long maxBytes;
  private final AtomicLong reserved = new AtomicLong();

  ByteBudget(long maxBytes) {
    if (maxBytes < 1) {
      throw new IllegalArgumentException("maxBytes must be >= 1 but was " + maxBytes);
    }
    this.maxBytes = maxBytes;
  }

  /** Reserves {@code bytes}; false when they do not fit (one request alone always fits). */
  boolean tryReserve(long bytes) {
    while (true) {
      long now = reserved.get();
      if (now > 0 && now + bytes > maxBytes) {
        return false;
      }
      if (reserved.compareAndSet(now, now + bytes)) {
        return true;
      }
    }
  }

  void release(long bytes) {
    reserved.addAndGet(-bytes);
  }

  long reserved() {
    return reserved.get();
  }

  long maxBytes() {
    return maxBytes;
  }
}
