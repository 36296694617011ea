package dev.tether.server.internal;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.tether.api.ErrorCode;
import dev.tether.api.TetherException;
import dev.tether.api.json.TetherJson;
import java.io.IOException;

/**
 * Recognises the frame the reference system's Go client library sends from {@code TetherSend}:
 * {@code {"type":"user.message","msg_id":..,"session":{"id":..},"content":{"text":..}}}, with no
 * {@code v} and the text under {@code content} instead of {@code payload}. The reference daemon
 * stores it without its text; we refuse it, and say what to send instead of the generic complaint
 * about the first missing field. Stateless.
 */
final class ReferenceClientFrames {
  private static final JsonFactory JSON = TetherJson.factory();

  private ReferenceClientFrames() {}

  /**
   * The exception to answer for a frame the validator refused with {@code e}: a clearer one when
   * the frame has top-level {@code content} and no {@code v}, else {@code e} itself.
   */
  static TetherException explain(TetherException e, byte[] body, int length) {
    if (e.code() != ErrorCode.MALFORMED_FRAME && e.code() != ErrorCode.UNSUPPORTED_VERSION) {
      return e;
    }
    boolean content = false;
    boolean version = false;
    try (JsonParser p = JSON.createParser(body, 0, length)) {
      if (p.nextToken() != JsonToken.START_OBJECT) {
        return e;
      }
      for (String name = p.nextFieldName(); name != null; name = p.nextFieldName()) {
        p.nextToken();
        content |= name.equals("content");
        version |= name.equals("v");
        p.skipChildren();
      }
    } catch (IOException | RuntimeException ignored) {
      return e;
    }
    if (!content || version) {
      return e;
    }
    return TetherException.of(ErrorCode.MALFORMED_FRAME, "the frame has no \"v\" and carries its text under \"content\""
        + " (the aegis client library's TetherSend); send {\"v\":1,\"type\":\"user.message\",\"session\":{\"channel\":\"host\",\"id\":..},"
        + "\"payload\":{\"text\":..}} instead, so the message keeps its text");
  }
}
