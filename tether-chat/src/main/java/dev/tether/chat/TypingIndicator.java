package dev.tether.chat;

import java.io.IOException;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Shows "typing..." in the chats whose agent is working: {@link ChatSender#showTyping} when the
 * agent reports {@code thinking}, repeated every interval (Telegram shows an action for 5 seconds)
 * until the answer or {@code idle} arrives, and for at most {@link #MAX_TYPING} in any case.
 *
 * <p>The first action is sent on the thread that reports {@code thinking} (the egress thread), the
 * repeats from the bridge's scheduler thread, one attempt each: a lost "typing" is not worth a
 * retry. An action is never sent after {@link #stop} has returned for its chat, so "typing" cannot
 * follow the answer: {@code show} and {@code stop} share one lock, and a stop waits for an action
 * in flight (at most one request timeout). Thread-safe.
 *
 * @param <C> the channel's chat
 */
public final class TypingIndicator<C> {
  /** The longest "typing" one {@code thinking} shows. */
  public static final Duration MAX_TYPING = Duration.ofMinutes(5);

  private final ChatSender<C> sender;
  private final ChatLog log;
  private final Map<C, Long> working = new ConcurrentHashMap<>();
  private final ReentrantLock sending = new ReentrantLock();

  /** Schedules the repeats on {@code scheduler} every {@code interval} (at least 100 ms). */
  public TypingIndicator(ChatSender<C> sender, ChatLog log, ScheduledExecutorService scheduler, Duration interval) {
    this.sender = Objects.requireNonNull(sender, "sender");
    this.log = Objects.requireNonNull(log, "log");
    Objects.requireNonNull(scheduler, "scheduler");
    long ms = Math.max(100, interval.toMillis());
    scheduler.scheduleWithFixedDelay(this::refresh, ms, ms, TimeUnit.MILLISECONDS);
  }

  /** The agent of {@code chat} started working. */
  public void start(C chat) {
    if (working.put(chat, System.nanoTime() + MAX_TYPING.toNanos()) == null) {
      show(chat);
    }
  }

  /** The agent of {@code chat} answered or went idle; no action is sent for it after this returns. */
  public void stop(C chat) {
    sending.lock();
    try {
      working.remove(chat);
    } finally {
      sending.unlock();
    }
  }

  private void refresh() {
    long now = System.nanoTime();
    working.forEach((chat, until) -> {
      if (now - until > 0) {
        working.remove(chat, until);
      } else {
        show(chat);
      }
    });
  }

  private void show(C chat) {
    sending.lock();
    try {
      if (!working.containsKey(chat)) {
        return;
      }
      try {
        sender.showTyping(chat);
      } catch (IOException e) {
        log.info("typing in " + chat + " not shown: " + e.getMessage());
      }
    } finally {
      sending.unlock();
    }
  }
}
