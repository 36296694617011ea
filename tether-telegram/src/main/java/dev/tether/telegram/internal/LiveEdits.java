package dev.tether.telegram.internal;

import dev.tether.telegram.TelegramChat;
import java.io.IOException;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;

/**
 * Optional live display of an answer while it streams: the first {@code assistant.delta} of an
 * answer sends a draft message, later deltas edit it ({@code editMessageText}), at most one edit
 * per interval per chat; deltas in between are shown by the next edit or by the final answer.
 *
 * <p>Drafts are best effort: a failed send or edit is logged and not retried, and drafts do not
 * survive a restart (the final answer is then sent as a new message). Owned by the egress thread;
 * not thread-safe.
 */
final class LiveEdits {
  /** Draft of one answer: {@code msgId} of the request it answers in one chat. */
  private record Key(TelegramChat chat, String msgId) {}

  private static final class Draft {
    final StringBuilder text = new StringBuilder();
    long messageId;
    String shown = "";
  }

  private static final int MAX_ENTRIES = 1024;

  private final BotApi api;
  private final BridgeLog log;
  private final long intervalNanos;
  private final Map<Key, Draft> drafts = bounded();
  private final Map<Long, Long> lastEditByChat = bounded();

  LiveEdits(BotApi api, BridgeLog log, Duration interval) {
    this.api = Objects.requireNonNull(api, "api");
    this.log = Objects.requireNonNull(log, "log");
    this.intervalNanos = interval.toNanos();
  }

  void delta(TelegramChat chat, String msgId, String piece) {
    Draft d = drafts.computeIfAbsent(new Key(chat, msgId), k -> new Draft());
    d.text.append(piece);
    long now = System.nanoTime();
    Long last = lastEditByChat.get(chat.chatId());
    if (last != null && now - last < intervalNanos) {
      return;
    }
    String text = d.text.length() > TextSplitter.MESSAGE_LIMIT
        ? d.text.substring(0, TextSplitter.MESSAGE_LIMIT - 1) + "…"
        : d.text.toString();
    if (text.isBlank() || text.equals(d.shown)) {
      return;
    }
    lastEditByChat.put(chat.chatId(), now);
    try {
      if (d.messageId == 0) {
        d.messageId = api.sendMessage(chat, text).messageId();
      } else {
        api.editMessageText(chat, d.messageId, text);
      }
      d.shown = text;
    } catch (IOException e) {
      log.info("live edit in " + chat + " skipped: " + e.getMessage());
    }
  }

  /**
   * Ends the draft of an answer: the message id of its draft, or 0 when none was shown. The
   * interval is not checked for the final edit.
   */
  long finish(TelegramChat chat, String msgId) {
    Draft d = drafts.remove(new Key(chat, msgId));
    return d == null ? 0 : d.messageId;
  }

  /** Insertion-ordered and capped, so answers that never finish cannot grow it without bound. */
  private static <K, V> Map<K, V> bounded() {
    return new java.util.LinkedHashMap<>() {
      private static final long serialVersionUID = 1L;

      @Override
      protected boolean removeEldestEntry(Map.Entry<K, V> eldest) {
        return size() > MAX_ENTRIES;
      }
    };
  }

  /** Records an edit made outside this class, so the per-chat interval counts it. */
  void edited(TelegramChat chat) {
    lastEditByChat.put(chat.chatId(), System.nanoTime());
  }
}
