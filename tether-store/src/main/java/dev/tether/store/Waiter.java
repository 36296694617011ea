package dev.tether.store;

import dev.tether.api.SessionKey;
import java.util.concurrent.CompletableFuture;

/**
 * One pending {@link TetherStore#waitForFrames} call: its query, its future and its place in an
 * intrusive list, so that removal on wake, timeout or cancellation is O(1). Guarded by the
 * owning {@link InstanceState}'s lock except for {@link #future}, which is thread-safe.
 */
final class Waiter {
  final FrameQuery query;
  /** True when only the store blocks on {@link #future}: it may complete inline. */
  final boolean internal;
  final CompletableFuture<QueryResult> future = new CompletableFuture<>();
  Runnable cancelTimeout;
  WaiterList list;
  Waiter prev;
  Waiter next;

  Waiter(FrameQuery query, boolean internal) {
    this.query = query;
    this.internal = internal;
  }

  boolean linked() {
    return list != null;
  }

  /** A doubly linked list of waiters sharing one session key (or none). */
  static final class WaiterList {
    final SessionKey key;
    Waiter head;
    int size;

    WaiterList(SessionKey key) {
      this.key = key;
    }

    void add(Waiter w) {
      w.list = this;
      w.next = head;
      if (head != null) {
        head.prev = w;
      }
      head = w;
      size++;
    }

    void unlink(Waiter w) {
      if (w.prev != null) {
        w.prev.next = w.next;
      } else {
        head = w.next;
      }
      if (w.next != null) {
        w.next.prev = w.prev;
      }
      w.prev = null;
      w.next = null;
      w.list = null;
      size--;
    }
  }
}
