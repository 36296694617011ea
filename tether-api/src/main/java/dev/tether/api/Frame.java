package dev.tether.api;

import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * One tether frame: the envelope {@code {v, type, ts, session, msg_id, seq, payload}} with the
 * payload held as raw JSON.
 *
 * <p>Frames are immutable and thread-safe. Intermediate layers (stores, journals, HTTP) pass the
 * payload along as bytes; {@link #payloadView()} parses a typed view only when a consumer asks.
 * Fields that a frame read from the wire did not have stay absent when it is written again, and
 * envelope fields this SDK does not know are kept in {@link #extensions()}, so a read-modify-write
 * round trip loses nothing.
 */
public final class Frame {
  /** The protocol version this SDK writes. */
  public static final int VERSION = 1;

  static final Set<String> ENVELOPE_FIELDS = Set.of("v", "type", "ts", "session", "msg_id", "seq", "payload");

  private final String type;
  private final Instant ts;
  private final SessionKey session;
  private final String msgId;
  private final long seq;
  private final RawJson payload;
  private final Map<String, RawJson> extensions;
  private final Map<String, RawJson> sessionExtensions;

  private Frame(Builder b) {
    this.type = b.type;
    this.ts = b.ts;
    this.session = b.session;
    this.msgId = b.msgId;
    this.seq = b.seq;
    this.payload = b.payload;
    this.extensions = b.extensions.isEmpty() ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(b.extensions));
    this.sessionExtensions = b.sessionExtensions.isEmpty()
        ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(b.sessionExtensions));
  }

  /**
   * A frame carrying {@code payload}, of the payload's type, stamped with version 1 and the
   * current time. The payload is serialised canonically.
   */
  public static Frame of(SessionKey session, String msgId, Payload payload) {
    return builder(payload.frameType())
        .version(VERSION)
        .ts(Instant.now())
        .session(session)
        .msgId(msgId)
        .payload(payload)
        .build();
  }

  /** A builder for a frame of {@code type}, for example {@code user.message}. */
  public static Builder builder(String type) {
    return new Builder(type);
  }

  /** A builder holding this frame's fields. */
  public Builder toBuilder() {
    Builder b = new Builder(type);
    b.ts = ts;
    b.session = session;
    b.msgId = msgId;
    b.seq = seq;
    b.payload = payload;
    b.extensions.putAll(extensions);
    b.sessionExtensions.putAll(sessionExtensions);
    return b;
  }

  private Frame(Frame other, long seq) {
    this.type = other.type;
    this.ts = other.ts;
    this.session = other.session;
    this.msgId = other.msgId;
    this.seq = seq;
    this.payload = other.payload;
    this.extensions = other.extensions; // already unmodifiable
    this.sessionExtensions = other.sessionExtensions;
  }

  /**
   * This frame with {@code seq} set; the payload bytes are shared, not copied.
   *
   * @throws IllegalArgumentException when {@code seq} is negative
   */
  public Frame withSeq(long seq) {
    if (seq < 0) {
      throw new IllegalArgumentException("seq must be >= 0 but was " + seq);
    }
    // Stores call this on every append: copy the fields directly, without a builder and its map.
    return new Frame(this, seq);
  }

  /**
   * The protocol version {@code v}: always {@link #VERSION}. The codec refuses frames without
   * {@code v} ({@code MALFORMED_FRAME}) or with another number ({@code UNSUPPORTED_VERSION}), and
   * the writer always writes it.
   */
  public int version() {
    return VERSION;
  }

  /**
   * Always true: every frame is written with {@code v}.
   *
   * @deprecated {@code v} is mandatory on the wire; kept for source compatibility
   */
  @Deprecated
  public boolean hasVersion() {
    return true;
  }

  public String type() {
    return type;
  }

  public Optional<Instant> ts() {
    return Optional.ofNullable(ts);
  }

  public Optional<SessionKey> session() {
    return Optional.ofNullable(session);
  }

  public Optional<String> msgId() {
    return Optional.ofNullable(msgId);
  }

  /** The store-assigned sequence number; 0 when the frame has not been stored. */
  public long seq() {
    return seq;
  }

  /** The payload as raw JSON; the empty object when the frame had none. */
  public RawJson payload() {
    return payload == null ? RawJson.EMPTY_OBJECT : payload;
  }

  /** Whether the frame has a {@code payload} field. */
  public boolean hasPayload() {
    return payload != null;
  }

  /**
   * Fields of {@code session} other than {@code channel} and {@code id}, by name, in their
   * original order. They are written back inside {@code session} (when the frame has one), so
   * a read-modify-write round trip keeps them like {@link #extensions()}. They are not part of
   * the {@link SessionKey}: two frames of the same session may carry different ones.
   */
  public Map<String, RawJson> sessionExtensions() {
    return sessionExtensions;
  }

  /** Envelope fields this SDK does not model, by name, in their original order. */
  public Map<String, RawJson> extensions() {
    return extensions;
  }

  /** True for frames that flow from host to guest ({@code user.*} and {@code control.*}). */
  public boolean isHostToGuest() {
    return FrameTypes.isHostToGuest(type);
  }

  /**
   * Parses the payload into its typed view. Each call parses again; callers that need the view
   * more than once keep it.
   *
   * @throws TetherException when the payload does not fit its type, for example a
   *     {@code user.message} without {@code text} or an {@code assistant.delta} with images
   */
  public Payload payloadView() {
    return PayloadJson.read(type, payload());
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Frame f
        && type.equals(f.type)
        && Objects.equals(ts, f.ts)
        && Objects.equals(session, f.session)
        && Objects.equals(msgId, f.msgId)
        && seq == f.seq
        && Objects.equals(payload, f.payload)
        && extensions.equals(f.extensions)
        && sessionExtensions.equals(f.sessionExtensions);
  }

  @Override
  public int hashCode() {
    return Objects.hash(type, ts, session, msgId, seq, payload, extensions, sessionExtensions);
  }

  @Override
  public String toString() {
    return "Frame{type=" + type + ", seq=" + seq + ", session=" + session + ", msgId=" + msgId
        + ", payload=" + payload().size() + " bytes}";
  }

  /** Builds a {@link Frame}. Not thread-safe. */
  public static final class Builder {
    private final String type;
    private Instant ts;
    private SessionKey session;
    private String msgId;
    private long seq;
    private RawJson payload;
    private final Map<String, RawJson> extensions = new LinkedHashMap<>();
    private final Map<String, RawJson> sessionExtensions = new LinkedHashMap<>();

    private Builder(String type) {
      Objects.requireNonNull(type, "type");
      if (type.isEmpty()) {
        throw new IllegalArgumentException("type must not be empty");
      }
      this.type = type;
    }

    /**
     * The protocol version; only {@link Frame#VERSION} exists, and frames carry it by default.
     *
     * @throws IllegalArgumentException for any other number
     */
    public Builder version(int version) {
      if (version != VERSION) {
        throw new IllegalArgumentException("version must be " + VERSION + " but was " + version);
      }
      return this;
    }

    /** The timestamp, or null for none; its UTC year must have four digits (RFC 3339). */
    public Builder ts(Instant ts) {
      if (ts != null && !Timestamps.writable(ts)) {
        throw new IllegalArgumentException("ts must be within years 0000-9999 (RFC 3339) but was " + ts);
      }
      this.ts = ts;
      return this;
    }

    /** The session, or null for none. */
    public Builder session(SessionKey session) {
      this.session = session;
      return this;
    }

    /** The message id, or null for none. */
    public Builder msgId(String msgId) {
      this.msgId = msgId;
      return this;
    }

    /** The sequence number; 0 means not stored. */
    public Builder seq(long seq) {
      if (seq < 0) {
        throw new IllegalArgumentException("seq must be >= 0 but was " + seq);
      }
      this.seq = seq;
      return this;
    }

    /** The payload as raw JSON; it must be a JSON object. */
    public Builder payload(RawJson payload) {
      Objects.requireNonNull(payload, "payload");
      if (!payload.isObject()) {
        throw new IllegalArgumentException("payload must be a JSON object but was " + payload);
      }
      this.payload = payload;
      return this;
    }

    /** The payload serialised canonically from its typed view, which must match the frame type. */
    public Builder payload(Payload payload) {
      if (!payload.frameType().equals(type)) {
        throw new IllegalArgumentException(
            "payload is for " + payload.frameType() + " but the frame type is " + type);
      }
      this.payload = PayloadJson.write(payload);
      return this;
    }

    /** An envelope field this SDK does not model; {@code name} must not be one it does. */
    public Builder extension(String name, RawJson value) {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(value, "value");
      if (ENVELOPE_FIELDS.contains(name)) {
        throw new IllegalArgumentException("'" + name + "' is an envelope field; use its setter");
      }
      extensions.put(name, value);
      return this;
    }

    /**
     * A field of {@code session} this SDK does not model; written only when the frame has a
     * session. {@code name} must not be {@code channel} or {@code id}.
     */
    public Builder sessionExtension(String name, RawJson value) {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(value, "value");
      if (name.equals("channel") || name.equals("id")) {
        throw new IllegalArgumentException("'" + name + "' is a session field; use session(SessionKey)");
      }
      sessionExtensions.put(name, value);
      return this;
    }

    public Frame build() {
      return new Frame(this);
    }
  }
}
