package dev.tether.telegram.internal;

import dev.tether.telegram.TelegramChat;
import java.io.IOException;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Shows "typing..." in the chats whose agent is working: {@code sendChatAction typing} when the
 * agent reports {@code thinking}, repeated every interval (Telegram shows an action for 5 seconds)
 * until the answer or {@code idle} arrives, and for at most {@link #MAX_TYPING} in any case.
 *
 * <p>The first action is sent on the thread that reports {@code thinking} (the egress thread), the
 * repeats from the bridge's scheduler thread, one attempt each: a lost "typing" is not worth a
 * retry. An action is never sent after {@link #stop} has returned for its chat, so "typing" cannot
 * follow the answer: {@code show} and {@code stop} share one lock, and a stop waits for an action
 * in flight (at most one request timeout). Thread-safe.
 */
final class Typing {
  static final Duration MAX_TYPING = Duration.ofMinutes(5);

  private final BotApi api;
  private final BridgeLog log;
  private final Map<TelegramChat, Long> working = new ConcurrentHashMap<>();
  private final Object sending = new Object();

  Typing(BotApi api, BridgeLog log, ScheduledExecutorService scheduler, Duration interval) {
    this.api = Objects.requireNonNull(api, "api");
    this.log = Objects.requireNonNull(log, "log");
    Objects.requireNonNull(scheduler, "scheduler");
    long ms = Math.max(100, interval.toMillis());
    scheduler.scheduleWithFixedDelay(this::refresh, ms, ms, TimeUnit.MILLISECONDS);
  }

  void start(TelegramChat chat) {
    if (working.put(chat, System.nanoTime() + MAX_TYPING.toNanos()) == null) {
      show(chat);
    }
  }

  void stop(TelegramChat chat) {
    synchronized (sending) {
      working.remove(chat);
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

  private void show(TelegramChat chat) {
    synchronized (sending) {
      if (!working.containsKey(chat)) {
        return;
      }
      try {
        api.sendChatAction(chat, "typing");
      } catch (IOException e) {
        log.info("typing in " + chat + " not shown: " + e.getMessage());
      }
    }
  }
}
