package dev.tether.store.jetstream;

/**
 * Whether a {@link JetStreamTetherStore} is still open: every part of the store checks it before
 * it starts work, so a call after {@link JetStreamTetherStore#close()} fails fast.
 *
 * <p>Thread-safe: one volatile flag, set once and never cleared. Closing is a check and then a set,
 * not atomic: two concurrent closes may both go on, and each step of the store's close tolerates
 * running twice.
 */
final class Lifecycle {
  private volatile boolean closed;

  boolean closed() {
    return closed;
  }

  /** @throws IllegalStateException when the store is closed */
  void checkOpen() {
    if (closed) {
      throw new IllegalStateException("the store is closed");
    }
  }

  /** Marks the store closed; false when it already was. */
  boolean markClosed() {
    if (closed) {
      return false;
    }
    closed = true;
    return true;
  }
}
