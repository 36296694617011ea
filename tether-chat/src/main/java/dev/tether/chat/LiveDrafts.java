package dev.tether.chat;

import java.io.IOException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * Optional live display of an answer while it streams: the first {@code assistant.delta} of an
 * answer sends a draft message, later deltas edit it ({@link ChatSender#editText}), at most one
 * edit per interval per {@link ChatSender#paceKey pace key}; deltas in between are shown by the
 * next edit or by the final answer.
 *
 * <p>Drafts are best effort: a failed send or edit is logged and not retried, and drafts do not
 * survive a restart (the final answer is then sent as a new message). Owned by the egress thread;
 * not thread-safe.
 *
 * @param <C> the channel's chat
 */
public final class LiveDrafts<C> {
  /** Draft of one answer: {@code msgId} of the request it answers in one chat. */
  private record Key(Object chat, String msgId) {}

  private static final class Draft {
    final StringBuilder text = new StringBuilder();
    long messageId;
    String shown = "";
  }

  private static final int MAX_ENTRIES = 1024;

  private final ChatSender<C> sender;
  private final ChatLog log;
  private final long intervalNanos;
  private final Map<Key, Draft> drafts = bounded();
  private final Map<Object, Long> lastEditByPace = bounded();

  public LiveDrafts(ChatSender<C> sender, ChatLog log, Duration interval) {
    this.sender = Objects.requireNonNull(sender, "sender");
    this.log = Objects.requireNonNull(log, "log");
    this.intervalNanos = interval.toNanos();
  }

  /** Adds {@code piece} to the draft of answer {@code msgId} in {@code chat}, and shows it when the pace allows. */
  public void delta(C chat, String msgId, String piece) {
    Draft d = drafts.computeIfAbsent(new Key(chat, msgId), k -> new Draft());
    d.text.append(piece);
    long now = System.nanoTime();
    Object pace = sender.paceKey(chat);
    Long last = lastEditByPace.get(pace);
    if (last != null && now - last < intervalNanos) {
      return;
    }
    int limit = sender.textLimit();
    String text = d.text.length() > limit ? d.text.substring(0, limit - 1) + "…" : d.text.toString();
    if (text.isBlank() || text.equals(d.shown)) {
      return;
    }
    lastEditByPace.put(pace, now);
    try {
      if (d.messageId == 0) {
        d.messageId = sender.sendText(chat, text);
      } else {
        sender.editText(chat, d.messageId, text);
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
  public long finish(C chat, String msgId) {
    Draft d = drafts.remove(new Key(chat, msgId));
    return d == null ? 0 : d.messageId;
  }

  /** Records an edit made outside this class, so the pace counts it. */
  public void edited(C chat) {
    lastEditByPace.put(sender.paceKey(chat), System.nanoTime());
  }

  /** Insertion-ordered and capped, so answers that never finish cannot grow it without bound. */
  private static <K, V> Map<K, V> bounded() {
    return new LinkedHashMap<>() {
      private static final long serialVersionUID = 1L;

      @Override
      protected boolean removeEldestEntry(Map.Entry<K, V> eldest) {
        return size() > MAX_ENTRIES;
      }
    };
  }
}
