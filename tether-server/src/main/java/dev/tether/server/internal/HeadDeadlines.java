package dev.tether.server.internal;

import java.time.Duration;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.io.Connection;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.util.thread.Scheduler;

/**
 * A total deadline for every request head, and a cap on the connections still in theirs.
 *
 * <p>Jetty's connector idle timeout is an idle timeout: a client that sends one header line every
 * few seconds keeps its connection for as long as it likes, and enough such connections fill
 * {@code maxConnections} so that no whole request gets in. Here a connection is "in its head" from
 * when it opens, or its last request completed, until Jetty has parsed the next request's whole
 * head; that span has a total {@code deadline} however slowly the bytes come, after which the
 * connection is closed. At most {@code maxInHead} connections are in their head at once: one more
 * closes the connection that has been in its head longest, so connections that send a whole head
 * promptly (every real client) always get in, and trickling ones cannot hold more than
 * {@code maxInHead} of the {@code maxConnections} (keep it below, to leave room for requests).
 *
 * <p>Mechanism (only Jetty's public API; {@code HttpConnection} is not exported): a
 * {@link Connection.Listener} on each connector sees connections open and close; a
 * {@link HttpConfiguration.Customizer} runs for each request once its head is parsed and adds a
 * completion listener, when the connection goes back to waiting for a head. Whether a head was
 * parsed in the meantime (but not yet dispatched to a thread) is read from the connection's
 * {@link Connection#getMessagesIn()}, which Jetty counts when a head completes, so a busy thread
 * pool never makes a parsed head look slow.
 *
 * <p>Concurrency: one scheduler task per connection in its head, cancelled when the head
 * completes (no polling); the set of connections in their head, ordered by when their head began,
 * is guarded by one lock held only for set and scheduler calls; connections are closed outside it.
 * A deadline that fires for a head that completed in between sees that and does nothing.
 * Thread-safe.
 */
final class HeadDeadlines implements Connection.Listener, HttpConfiguration.Customizer {
  private final long deadlineNanos;
  private final int maxInHead;
  private final Supplier<Scheduler> scheduler;
  private final ReentrantLock lock = new ReentrantLock();
  private final LinkedHashSet<Head> inHead = new LinkedHashSet<>(); // oldest head first; guarded by lock
  private final Map<Connection, Head> open = new ConcurrentHashMap<>();

  /** One open connection. */
  private final class Head {
    final Connection connection;
    final AtomicInteger requests = new AtomicInteger(); // being handled now
    long messagesAtArm; // guarded by lock
    Scheduler.Task task; // guarded by lock; null when not in its head

    Head(Connection connection) {
      this.connection = connection;
    }

    boolean headParsedSinceArmed() {
      return connection.getMessagesIn() > messagesAtArm;
    }
  }

  /**
   * @param deadline the longest a connection may be in its head
   * @param maxInHead connections in their head at once
   * @param scheduler the server's scheduler (read when the first connection opens)
   */
  HeadDeadlines(Duration deadline, int maxInHead, Supplier<Scheduler> scheduler) {
    if (deadline.toMillis() < 1) {
      throw new IllegalArgumentException("deadline must be at least 1 ms but was " + deadline);
    }
    if (maxInHead < 1) {
      throw new IllegalArgumentException("maxInHead must be >= 1 but was " + maxInHead);
    }
    this.deadlineNanos = deadline.toNanos();
    this.maxInHead = maxInHead;
    this.scheduler = scheduler;
  }

  @Override
  public void onOpened(Connection connection) {
    Head h = new Head(connection);
    open.put(connection, h);
    arm(h);
  }

  @Override
  public void onClosed(Connection connection) {
    Head h = open.remove(connection);
    if (h != null) {
      disarm(h);
    }
  }

  /** A request's head is parsed: its connection is out of its head until the request completes. */
  @Override
  public Request customize(Request request, HttpFields.Mutable responseHeaders) {
    Head h = open.get(request.getConnectionMetaData().getConnection());
    if (h != null) {
      h.requests.incrementAndGet();
      disarm(h);
      Request.addCompletionListener(request, failure -> {
        if (h.requests.decrementAndGet() == 0 && open.containsKey(h.connection)) {
          arm(h); // waiting for the next head now
        }
      });
    }
    return request;
  }

  /** Connections in their head now, for tests. */
  int inHead() {
    lock.lock();
    try {
      return inHead.size();
    } finally {
      lock.unlock();
    }
  }

  private void arm(Head h) {
    Head evicted = null;
    lock.lock();
    try {
      if (h.task != null) {
        h.task.cancel();
      }
      h.messagesAtArm = h.connection.getMessagesIn();
      h.task = scheduler.get().schedule(() -> expire(h), deadlineNanos, TimeUnit.NANOSECONDS);
      inHead.remove(h);
      inHead.add(h);
      if (inHead.size() > maxInHead) {
        evicted = oldestStillInHead(h);
      }
    } finally {
      lock.unlock();
    }
    if (evicted != null) {
      evicted.connection.close(); // the longest in its head makes room for the newest
    }
  }

  /** Takes the oldest connection whose head has not been parsed, other than {@code newest}, out of the set. */
  private Head oldestStillInHead(Head newest) {
    for (Iterator<Head> it = inHead.iterator(); it.hasNext();) {
      Head o = it.next();
      if (o == newest) {
        continue;
      }
      it.remove();
      if (o.task != null) {
        o.task.cancel();
        o.task = null;
      }
      if (!o.headParsedSinceArmed()) {
        return o;
      }
      // Parsed but not yet dispatched: out of its head already; the customizer will see it.
      if (inHead.size() <= maxInHead) {
        return null;
      }
    }
    return null;
  }

  private void disarm(Head h) {
    lock.lock();
    try {
      inHead.remove(h);
      if (h.task != null) {
        h.task.cancel();
        h.task = null;
      }
    } finally {
      lock.unlock();
    }
  }

  private void expire(Head h) {
    boolean close;
    lock.lock();
    try {
      close = inHead.contains(h) && h.requests.get() == 0 && !h.headParsedSinceArmed();
      if (close) {
        inHead.remove(h);
        h.task = null;
      }
    } finally {
      lock.unlock();
    }
    if (close) {
      h.connection.close(); // a head that is not whole by its deadline is not waited for
    }
  }
}
