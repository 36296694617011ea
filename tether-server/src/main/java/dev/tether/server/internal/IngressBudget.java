package dev.tether.server.internal;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Bytes of request bodies the server reads at once, across all requests. A body reserves what its
 * read buffer can peak at ({@link BodyReader}): its declared length plus the first buffer of at most
 * 1 MiB, or twice the frame limit when chunked (the buffer grows by doubling), before its first
 * byte is read and releases it when the request is done; a body that does not
 * fit is refused at once with 503 instead of pushing the heap past its budget. Lock-free and
 * thread-safe.
 */
final class IngressBudget {
  private final long maxBytes;
  private final AtomicLong reserved = new AtomicLong();

  IngressBudget(long maxBytes) {
    if (maxBytes < 1) {
      throw new IllegalArgumentException("maxBytes must be >= 1 but was " + maxBytes);
    }
    this.maxBytes = maxBytes;
  }

  /** The bytes to reserve for a body of {@code declared} bytes (-1: unknown), at most {@code maxFrameBytes}. */
  static long cost(long declared, int maxFrameBytes) {
    if (declared < 0) {
      return 2L * Math.max(maxFrameBytes, 1024);
    }
    long body = Math.max(Math.min(declared, maxFrameBytes), 1024);
    return body + Math.min(body, BodyReader.INITIAL_MAX);
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
}
