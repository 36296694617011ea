package dev.tether.mcp;

import dev.tether.api.SessionKey;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One {@code tether_read}: which session's egress to read, from where, how much, and how long to
 * wait. Immutable.
 *
 * @param sessionId the session on the {@code host} channel
 * @param afterSeq return frames with {@code seq > afterSeq}; 0 reads from the oldest retained
 * @param limit at most this many frames, {@value #MIN_LIMIT}..{@value #MAX_LIMIT}
 * @param waitMs how long to wait when nothing matches yet, 0..{@value #MAX_WAIT_MS}; 0 returns at once
 * @param types frame types to return; empty means all
 * @param replyToMsgId only frames answering this {@code msg_id}
 */
public record ReadRequest(
    String sessionId, long afterSeq, int limit, long waitMs, List<String> types, Optional<String> replyToMsgId) {
  public static final int DEFAULT_LIMIT = 50;
  public static final int MIN_LIMIT = 1;
  public static final int MAX_LIMIT = 200;
  public static final long MAX_WAIT_MS = 30_000;

  public ReadRequest {
    Objects.requireNonNull(sessionId, "sessionId");
    if (afterSeq < 0) {
      throw new IllegalArgumentException("afterSeq must be >= 0 but was " + afterSeq);
    }
    if (limit < MIN_LIMIT || limit > MAX_LIMIT) {
      throw new IllegalArgumentException("limit must be in 1..200 but was " + limit);
    }
    if (waitMs < 0 || waitMs > MAX_WAIT_MS) {
      throw new IllegalArgumentException("waitMs must be in 0..30000 but was " + waitMs);
    }
    types = List.copyOf(types);
    Objects.requireNonNull(replyToMsgId, "replyToMsgId");
  }

  /** Everything in the {@code default} session after {@code afterSeq}, no waiting. */
  public static ReadRequest after(long afterSeq) {
    return new ReadRequest(SessionKey.DEFAULT_ID, afterSeq, DEFAULT_LIMIT, 0, List.of(), Optional.empty());
  }

  /** {@code limit} clamped into 1..200, as the poll endpoint does. */
  public static int clampLimit(long limit) {
    return (int) Math.max(MIN_LIMIT, Math.min(MAX_LIMIT, limit));
  }

  /** {@code waitMs} clamped into 0..30000, as the poll endpoint does. */
  public static long clampWaitMs(long waitMs) {
    return Math.max(0, Math.min(MAX_WAIT_MS, waitMs));
  }

  /** The session this request reads. */
  public SessionKey session() {
    return SessionKey.host(sessionId);
  }
}
