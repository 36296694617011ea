package dev.tether.mcp;

import dev.tether.api.FrameTypes;
import io.modelcontextprotocol.server.McpAsyncServerExchange;
import io.modelcontextprotocol.spec.McpSchema.ProgressNotification;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.locks.ReentrantLock;
import reactor.core.publisher.Mono;

/**
 * The progress notifications of one {@code tether_send_stream} call, in order, at the pace the
 * client takes them.
 *
 * <p>Design. At most one notification is in flight (its send is the transport's, a {@code Mono});
 * events offered meanwhile queue up, and an event of the same kind as the queue's last one is
 * merged into it (delta texts are joined, a presence replaces the previous presence), so a fast
 * agent and a slow client make fewer, larger notifications rather than an unbounded backlog of
 * small ones: the queue holds at most one entry per change of kind. The next send starts from the
 * completion of the previous one. {@code progress} counts the events reported so far, so it only
 * grows, as MCP requires. {@link #drained()} completes when everything offered before it was sent
 * (or failed: a notification that cannot be sent is dropped, the call goes on), so the tool result
 * follows its notifications. Without a progress token nothing is sent. Thread-safe: one lock
 * guards the queue and is never held while sending.
 */
final class ProgressStream {
  private static final System.Logger LOG = System.getLogger(ProgressStream.class.getName());
  /** How long a notification may take the client before the stream stops waiting for it. */
  private static final Duration SEND_TIMEOUT = Duration.ofSeconds(30);

  /** One event to report: its frame type and its text (a delta) or state (a presence). */
  private record Event(String type, String value, int count) {}

  private final McpAsyncServerExchange exchange;
  private final Object token;
  private final ReentrantLock lock = new ReentrantLock();
  private final ArrayDeque<Event> queue = new ArrayDeque<>();
  private final ArrayDeque<CompletableFuture<Void>> drainWaiters = new ArrayDeque<>();
  private boolean sending;
  private long reported;

  /** @param token the call's progress token, or null for none (then nothing is sent) */
  ProgressStream(McpAsyncServerExchange exchange, Object token) {
    this.exchange = exchange;
    this.token = token;
  }

  /** Reports a {@code status.presence} with {@code state}. */
  void presence(String state) {
    offer(new Event(FrameTypes.STATUS_PRESENCE, state, 1));
  }

  /** Reports a delta ({@code assistant.delta} or {@code reasoning.delta}) of {@code text}. */
  void delta(String type, String text) {
    offer(new Event(type, text, 1));
  }

  private void offer(Event event) {
    if (token == null || exchange == null) {
      return;
    }
    lock.lock();
    try {
      Event last = queue.peekLast();
      if (last != null && last.type().equals(event.type())) {
        queue.pollLast();
        boolean presence = event.type().equals(FrameTypes.STATUS_PRESENCE);
        queue.addLast(new Event(event.type(), presence ? event.value() : last.value() + event.value(),
            last.count() + event.count()));
      } else {
        queue.addLast(event);
      }
      if (sending) {
        return;
      }
      sending = true;
    } finally {
      lock.unlock();
    }
    sendNext();
  }

  /** Completes when every event offered so far has been sent (or dropped). */
  CompletableFuture<Void> drained() {
    lock.lock();
    try {
      if (!sending && queue.isEmpty()) {
        return CompletableFuture.completedFuture(null);
      }
      CompletableFuture<Void> waiter = new CompletableFuture<>();
      drainWaiters.add(waiter);
      return waiter;
    } finally {
      lock.unlock();
    }
  }

  private void sendNext() {
    Event event;
    long progress;
    List<CompletableFuture<Void>> done = List.of();
    lock.lock();
    try {
      event = queue.pollFirst();
      if (event == null) {
        sending = false;
        done = new ArrayList<>(drainWaiters);
        drainWaiters.clear();
      }
      reported += event == null ? 0 : event.count();
      progress = reported;
    } finally {
      lock.unlock();
    }
    if (event == null) {
      done.forEach(w -> w.complete(null)); // outside the lock: callers' code never runs under it
      return;
    }
    ProgressNotification note = new ProgressNotification(token, (double) progress, null, message(event));
    exchange.progressNotification(note)
        .timeout(SEND_TIMEOUT)
        .doOnError(e -> LOG.log(System.Logger.Level.DEBUG, "a progress notification was not sent: " + e))
        .onErrorResume(e -> Mono.empty())
        .doFinally(signal -> sendNext())
        .subscribe();
  }

  private static String message(Event event) {
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("type", event.type());
    body.put(event.type().equals(FrameTypes.STATUS_PRESENCE) ? "state" : "text", event.value());
    return McpJson.write(body);
  }
}
