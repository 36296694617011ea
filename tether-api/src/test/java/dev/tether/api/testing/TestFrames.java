package dev.tether.api.testing;

import dev.tether.api.Frame;
import dev.tether.api.RawJson;
import dev.tether.api.SessionKey;

/** Small frame factories for the store tests. */
public final class TestFrames {
  private TestFrames() {}

  public static Frame frame(String type, SessionKey session, String msgId, String text) {
    Frame.Builder b = Frame.builder(type).version(1).session(session)
        .payload(RawJson.of("{\"text\":\"" + text + "\"}"));
    if (msgId != null) {
      b.msgId(msgId);
    }
    return b.build();
  }

  /** An {@code assistant.delta}: transient (not stored) under the default retention. */
  public static Frame text(SessionKey session, String text) {
    return frame("assistant.delta", session, null, text);
  }

  /** A {@code user.message}: stored under every retention. */
  public static Frame message(SessionKey session, String text) {
    return frame("user.message", session, null, text);
  }

  public static Frame done(SessionKey session, String replyTo, String text) {
    return frame("assistant.done", session, replyTo, text);
  }

  /** A frame whose payload is exactly {@code payloadBytes} bytes long (at least 11). */
  public static Frame sized(String type, SessionKey session, int payloadBytes) {
    int pad = payloadBytes - "{\"text\":\"\"}".length();
    if (pad < 0) {
      throw new IllegalArgumentException("payloadBytes must be >= 11 but was " + payloadBytes);
    }
    return frame(type, session, null, "x".repeat(pad));
  }
}
