package dev.tether.client;

import java.util.Objects;
import java.util.Set;

/**
 * What to poll: a channel and session (null for any), a cursor, a page size, a wait, and optional
 * type and reply filters. Immutable; the compact constructor fails fast on out-of-range values.
 *
 * @param channel the session channel, or null for any
 * @param sessionId the session id, or null for any
 * @param afterSeq return frames with {@code seq > afterSeq}
 * @param limit at most this many frames, 1..{@value #MAX_LIMIT}
 * @param waitMs how long to wait when nothing matches yet, 0..{@value #MAX_WAIT_MS}
 * @param types frame types to return; empty means all
 * @param replyToMsgId only frames answering this {@code msg_id}, or null
 */
public record PollRequest(
    String channel, String sessionId, long afterSeq, int limit, long waitMs, Set<String> types, String replyToMsgId) {
  public static final int DEFAULT_LIMIT = 50;
  public static final int MAX_LIMIT = 200;
  public static final long MAX_WAIT_MS = 30_000;

  public PollRequest {
    if (afterSeq < 0) {
      throw new IllegalArgumentException("afterSeq must be >= 0 but was " + afterSeq);
    }
    if (limit < 1 || limit > MAX_LIMIT) {
      throw new IllegalArgumentException("limit must be in 1..200 but was " + limit);
    }
    if (waitMs < 0 || waitMs > MAX_WAIT_MS) {
      throw new IllegalArgumentException("waitMs must be in 0..30000 but was " + waitMs);
    }
    types = Set.copyOf(Objects.requireNonNull(types, "types"));
  }

  /** Every frame of a channel (any session) after {@code afterSeq}, waiting up to {@code waitMs}. */
  public static PollRequest channel(String channel, long afterSeq, long waitMs) {
    return new PollRequest(Objects.requireNonNull(channel, "channel"), null, afterSeq, DEFAULT_LIMIT, waitMs, Set.of(), null);
  }

  /** This request with another cursor. */
  public PollRequest after(long seq) {
    return new PollRequest(channel, sessionId, seq, limit, waitMs, types, replyToMsgId);
  }

  /** This request with other types. */
  public PollRequest types(Set<String> newTypes) {
    return new PollRequest(channel, sessionId, afterSeq, limit, waitMs, newTypes, replyToMsgId);
  }
}
