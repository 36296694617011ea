package dev.tether.store;

import dev.tether.api.Frame;
import dev.tether.api.SessionKey;
import java.util.Objects;
import java.util.Set;

/**
 * What a {@link TetherStore#query query} or {@link TetherStore#waitForFrames wait} asks for.
 *
 * <p>A frame matches when every given filter holds: its session's channel equals {@code channel},
 * its session's id equals {@code sessionId}, its type is one of {@code types} (any type when
 * empty), and its {@code msg_id} equals {@code replyToMsgId} (a reply carries the msg_id of the
 * message it answers). A null filter matches every frame. Queries that name both channel and
 * session id are answered from a per-session index; others scan the instance's ring.
 *
 * <p>Forward pages return the oldest matching frames with {@code seq > afterSeq}. When
 * {@code beforeSeq > 0} the query is a backward page: the newest matching frames with
 * {@code afterSeq < seq < beforeSeq}, still in ascending seq order.
 *
 * <p>{@code limit} is clamped to {@code 1..200}; 0 means the default of 50. Immutable.
 *
 * @param channel the session channel, or null for any
 * @param sessionId the session id, or null for any
 * @param afterSeq only frames with a greater seq; 0 for all
 * @param beforeSeq 0 for a forward page, else only frames with a smaller seq (backward page)
 * @param types the frame types to return; empty for all
 * @param replyToMsgId only frames whose msg_id equals this, or null for any
 * @param limit the page size after clamping
 */
public record FrameQuery(
    String channel, String sessionId, long afterSeq, long beforeSeq, Set<String> types,
    String replyToMsgId, int limit) {
  public static final int DEFAULT_LIMIT = 50;
  public static final int MAX_LIMIT = 200;

  /**
   * @throws IllegalArgumentException when a seq is negative
   */
  public FrameQuery {
    if (afterSeq < 0) {
      throw new IllegalArgumentException("afterSeq must be >= 0 but was " + afterSeq);
    }
    if (beforeSeq < 0) {
      throw new IllegalArgumentException("beforeSeq must be >= 0 but was " + beforeSeq);
    }
    types = types == null ? Set.of() : Set.copyOf(types);
    limit = clampLimit(limit);
  }

  /** {@code 0} becomes the default 50; other values are clamped to {@code 1..200}. */
  public static int clampLimit(int limit) {
    if (limit == 0) {
      return DEFAULT_LIMIT;
    }
    return Math.max(1, Math.min(MAX_LIMIT, limit));
  }

  /** Everything, from the start, 50 at a time. */
  public static FrameQuery all() {
    return builder().build();
  }

  /** One session's frames after {@code afterSeq}. */
  public static FrameQuery session(SessionKey key, long afterSeq) {
    return builder().session(key).afterSeq(afterSeq).build();
  }

  public static Builder builder() {
    return new Builder();
  }

  /** The same query with another {@code afterSeq}, as a poller advances. */
  public FrameQuery withAfterSeq(long afterSeq) {
    return new FrameQuery(channel, sessionId, afterSeq, beforeSeq, types, replyToMsgId, limit);
  }

  /** The session both filters name, or null when either is absent. */
  public SessionKey sessionKey() {
    return channel != null && sessionId != null ? new SessionKey(channel, sessionId) : null;
  }

  /** Whether this is a backward page. */
  public boolean backward() {
    return beforeSeq > 0;
  }

  /** Whether {@code frame} passes every filter except the seq bounds. */
  public boolean matches(Frame frame) {
    if (channel != null || sessionId != null) {
      SessionKey s = frame.session().orElse(null);
      if (s == null
          || (channel != null && !channel.equals(s.channel()))
          || (sessionId != null && !sessionId.equals(s.id()))) {
        return false;
      }
    }
    return matchesTypeAndReply(frame);
  }

  /** Whether {@code frame} passes the type and reply filters. */
  boolean matchesTypeAndReply(Frame frame) {
    if (!types.isEmpty() && !types.contains(frame.type())) {
      return false;
    }
    return replyToMsgId == null || replyToMsgId.equals(frame.msgId().orElse(null));
  }

  /** Builds a {@link FrameQuery}; not thread-safe. */
  public static final class Builder {
    private String channel;
    private String sessionId;
    private long afterSeq;
    private long beforeSeq;
    private Set<String> types = Set.of();
    private String replyToMsgId;
    private int limit;

    private Builder() {}

    public Builder channel(String channel) {
      this.channel = channel;
      return this;
    }

    public Builder sessionId(String sessionId) {
      this.sessionId = sessionId;
      return this;
    }

    /** Both channel and session id. */
    public Builder session(SessionKey key) {
      this.channel = key.channel();
      this.sessionId = key.id();
      return this;
    }

    public Builder afterSeq(long afterSeq) {
      this.afterSeq = afterSeq;
      return this;
    }

    public Builder beforeSeq(long beforeSeq) {
      this.beforeSeq = beforeSeq;
      return this;
    }

    public Builder types(Set<String> types) {
      this.types = Objects.requireNonNull(types, "types");
      return this;
    }

    public Builder types(String... types) {
      return types(Set.of(types));
    }

    public Builder replyToMsgId(String msgId) {
      this.replyToMsgId = msgId;
      return this;
    }

    public Builder limit(int limit) {
      this.limit = limit;
      return this;
    }

    /** @throws IllegalArgumentException when a seq is negative */
    public FrameQuery build() {
      return new FrameQuery(channel, sessionId, afterSeq, beforeSeq, types, replyToMsgId, limit);
    }
  }
}
