package dev.tether.api;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import dev.tether.api.json.TetherJson;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;

/**
 * The wire codec's use of Jackson: parsers and generators from the one configuration
 * ({@link TetherJson}), with the checks every frame read needs (UTF-8 only, one value, nothing
 * after it, no lone surrogate escapes).
 */
final class JsonSupport {
  static final int MAX_NESTING_DEPTH = TetherJson.MAX_NESTING_DEPTH;

  static final JsonFactory FACTORY = TetherJson.factory();

  private JsonSupport() {}

  static JsonParser parser(byte[] bytes, int offset, int length) {
    requireUtf8Start(bytes, offset, length);
    try {
      return FACTORY.createParser(bytes, offset, length);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static JsonGenerator generator(OutputStream out) throws IOException {
    return FACTORY.createGenerator(out);
  }

  /**
   * Rejects input that Jackson would decode as UTF-16 or UTF-32: a UTF-16 byte order mark, or a
   * NUL byte among the first four. Neither can start UTF-8 JSON, and the char-based parser that
   * Jackson would pick reports no byte offsets, which the raw slices depend on.
   */
  private static void requireUtf8Start(byte[] bytes, int offset, int length) {
    for (int i = 0; i < Math.min(4, length); i++) {
      if (bytes[offset + i] == 0) {
        throw TetherException.of(ErrorCode.MALFORMED_FRAME, "JSON must be UTF-8 text but starts with a NUL byte");
      }
    }
    if (length >= 2) {
      int b0 = bytes[offset] & 0xff;
      int b1 = bytes[offset + 1] & 0xff;
      if ((b0 == 0xFE && b1 == 0xFF) || (b0 == 0xFF && b1 == 0xFE)) {
        throw TetherException.of(ErrorCode.MALFORMED_FRAME, "JSON must be UTF-8 text, not UTF-16");
      }
    }
  }

  /** Checks that the bytes hold exactly one JSON value, and nothing after it. */
  static void requireSingleValue(byte[] bytes, int offset, int length) {
    SurrogateEscapes.check(bytes, offset, length);
    try (JsonParser p = parser(bytes, offset, length)) {
      if (p.nextToken() == null) {
        throw TetherException.of(ErrorCode.MALFORMED_FRAME, "expected a JSON value but the input is empty");
      }
      p.skipChildren();
      requireEnd(p);
    } catch (IOException e) {
      throw malformed("the input is not valid JSON", e);
    }
  }

  static void requireEnd(JsonParser p) throws IOException {
    JsonToken extra = p.nextToken();
    if (extra != null) {
      throw TetherException.of(ErrorCode.MALFORMED_FRAME,
          "unexpected content after the JSON value at byte " + p.currentTokenLocation().getByteOffset());
    }
  }

  /** Maps a Jackson failure to a user-facing sentence without echoing the input. */
  static TetherException malformed(String what, IOException e) {
    if (e instanceof JsonProcessingException jpe) {
      long at = jpe.getLocation() == null ? -1 : jpe.getLocation().getByteOffset();
      return TetherException.of(ErrorCode.MALFORMED_FRAME,
          what + ": " + jpe.getOriginalMessage() + (at >= 0 ? " (at byte " + at + ")" : ""), e);
    }
    return TetherException.of(ErrorCode.MALFORMED_FRAME, what + ": " + e.getMessage(), e);
  }
}
