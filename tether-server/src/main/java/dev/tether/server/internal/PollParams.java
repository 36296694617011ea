package dev.tether.server.internal;

import dev.tether.api.SessionKey;
import dev.tether.store.FrameQuery;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Function;

/**
 * The query parameters of {@code GET .../tether/poll} and {@code .../tether/stream}, parsed into a
 * {@link FrameQuery} and a wait.
 *
 * <p>Parameters: {@code channel} (default {@code host}), {@code session_id} (default
 * {@code default}); {@code *} for either means any. {@code after_seq} (default 0), {@code limit}
 * (default 50, clamped to 1..200), {@code wait_ms} (default 0, clamped to 0..30000), {@code types}
 * (comma-separated and/or repeated; default all) and {@code reply_to_msg_id}. A number that does
 * not parse is an {@link IllegalArgumentException} naming the parameter and value. Immutable.
 *
 * @param query the store query
 * @param waitMs the long-poll wait after clamping
 * @param afterSeqGiven whether {@code after_seq} was in the request
 */
record PollParams(FrameQuery query, long waitMs, boolean afterSeqGiven) {
  static final long MAX_WAIT_MS = 30_000;
  static final String ANY = "*";

  /**
   * Parses parameters from {@code values}, which returns every value of a parameter (empty when
   * absent).
   *
   * @param defaultChannel the channel when none is given; null for any
   * @param defaultSession the session id when none is given; null for any
   */
  static PollParams parse(Function<String, List<String>> values, String defaultChannel, String defaultSession) {
    FrameQuery.Builder q = FrameQuery.builder()
        .channel(filter(last(values, "channel"), defaultChannel))
        .sessionId(filter(last(values, "session_id"), defaultSession));
    String after = last(values, "after_seq");
    long afterSeq = after == null ? 0 : parseLong("after_seq", after);
    if (afterSeq < 0) {
      throw new IllegalArgumentException("after_seq must be >= 0 but was " + after);
    }
    q.afterSeq(afterSeq);
    String limit = last(values, "limit");
    if (limit != null) {
      long l = parseLong("limit", limit);
      // As the reference daemon: absent, 0 or negative means the default.
      q.limit(l <= 0 ? FrameQuery.DEFAULT_LIMIT : (int) Math.min(FrameQuery.MAX_LIMIT, l));
    }
    String before = last(values, "before_seq");
    if (before != null) {
      long b = parseLong("before_seq", before);
      if (b < 0) {
        throw new IllegalArgumentException("before_seq must be >= 0 but was " + before);
      }
      q.beforeSeq(b);
    }
    String wait = last(values, "wait_ms");
    long waitMs = wait == null ? 0 : Math.max(0, Math.min(MAX_WAIT_MS, parseLong("wait_ms", wait)));
    Set<String> types = new LinkedHashSet<>();
    List<String> typeValues = values.apply("types");
    for (String v : typeValues == null ? List.<String>of() : typeValues) {
      for (String t : v.split(",")) {
        if (!t.isBlank()) {
          types.add(t.trim());
        }
      }
    }
    q.types(types);
    String reply = last(values, "reply_to_msg_id");
    q.replyToMsgId(reply == null || reply.isEmpty() ? null : reply);
    return new PollParams(q.build(), waitMs, after != null);
  }

  /** Defaults for host agents: channel {@code host}, session {@code default}. */
  static PollParams parseForPoll(Function<String, List<String>> values) {
    return parse(values, SessionKey.HOST_CHANNEL, SessionKey.DEFAULT_ID);
  }

  private static String filter(String given, String fallback) {
    if (given == null || given.isEmpty()) {
      return fallback;
    }
    return ANY.equals(given) ? null : given;
  }

  private static String last(Function<String, List<String>> values, String name) {
    List<String> all = values.apply(name);
    return all == null || all.isEmpty() ? null : all.get(all.size() - 1);
  }

  private static long parseLong(String name, String value) {
    try {
      return Long.parseLong(value.trim());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(name + " must be an integer but was '" + value + "'");
    }
  }
}
