package dev.tether.api;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import dev.tether.api.internal.WireRules;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Reads one frame from UTF-8 bytes in a single streaming pass.
 *
 * <p>The payload and unknown envelope fields are located by byte offset and skipped (Jackson
 * checks their syntax without materialising strings), then kept as {@link RawJson} slices: copied
 * out of the input, or shared with it when the caller hands the buffer over.
 */
final class FrameReader {
  private final byte[] input;
  private final int start;
  private final boolean shareInput;

  private FrameReader(byte[] input, int start, boolean shareInput) {
    this.input = input;
    this.start = start;
    this.shareInput = shareInput;
  }

  /**
   * @param shareInput true when the caller gives up {@code input}: slices then point into it
   */
  static Frame read(byte[] input, int offset, int length, boolean shareInput) {
    // Before the parser, which judges surrogates in the names it decodes with other words.
    SurrogateEscapes.check(input, offset, length);
    return parse(input, offset, length, shareInput, false);
  }

  /**
   * Reads a frame that a validator has already passed, or that this SDK stored itself: the
   * surrogate scan is not repeated, and a missing {@code v} (rows journaled before the version
   * became mandatory) reads as version 1.
   */
  static Frame readValidated(byte[] input, int offset, int length) {
    return parse(input, offset, length, true, true);
  }

  private static Frame parse(byte[] input, int offset, int length, boolean shareInput, boolean versionOptional) {
    try (JsonParser p = JsonSupport.parser(input, offset, length)) {
      return new FrameReader(input, offset, shareInput).readFrame(p, versionOptional);
    } catch (IOException e) {
      throw JsonSupport.malformed("frame is not valid JSON", e);
    }
  }

  private Frame readFrame(JsonParser p, boolean versionOptional) throws IOException {
    if (p.nextToken() != JsonToken.START_OBJECT) {
      throw malformed("a frame must be a JSON object");
    }
    Frame.Builder b = null;
    String type = null;
    Integer version = null;
    String ts = null;
    SessionKey session = null;
    Map<String, RawJson> sessionExtensions = Map.of();
    String msgId = null;
    long seq = 0;
    RawJson payload = null;
    Map<String, RawJson> extensions = new LinkedHashMap<>();

    for (String name = p.nextFieldName(); name != null; name = p.nextFieldName()) {
      JsonToken t = p.nextToken();
      switch (name) {
        case "v" -> version = readVersion(p, t);
        case "type" -> type = requireString(p, t, "type");
        case "ts" -> ts = t == JsonToken.VALUE_NULL ? null : requireString(p, t, "ts");
        case "session" -> {
          if (t == JsonToken.VALUE_NULL) {
            session = null;
            sessionExtensions = Map.of();
          } else {
            sessionExtensions = new LinkedHashMap<>();
            session = readSession(p, t, sessionExtensions);
          }
        }
        case "msg_id" -> msgId = t == JsonToken.VALUE_NULL ? null : requireString(p, t, "msg_id");
        case "seq" -> seq = readSeq(p, t);
        case "payload" -> {
          if (t == JsonToken.VALUE_NULL) {
            payload = null;
          } else if (t != JsonToken.START_OBJECT) {
            throw malformed("payload must be a JSON object");
          } else {
            payload = slice(p);
          }
        }
        default -> extensions.put(name, slice(p));
      }
    }
    JsonSupport.requireEnd(p);
    if (type == null || type.isEmpty()) {
      throw malformed("frame has no type; set \"type\", for example \"user.message\"");
    }
    if (version == null && !versionOptional) {
      throw malformed(WireRules.VERSION_MISSING);
    }
    b = Frame.builder(type).session(session).msgId(msgId).seq(seq);
    sessionExtensions.forEach(b::sessionExtension);
    if (ts != null) {
      b.ts(Timestamps.parse(ts));
    }
    if (payload != null) {
      b.payload(payload);
    }
    extensions.forEach(b::extension);
    return b.build();
  }

  /** Skips the current value and returns its bytes. */
  private RawJson slice(JsonParser p) throws IOException {
    long from = p.currentTokenLocation().getByteOffset();
    if (p.currentToken().isStructStart()) {
      p.skipChildren();
    } else {
      p.finishToken();
    }
    long to = p.currentLocation().getByteOffset();
    int absoluteFrom = start + (int) from;
    int length = (int) (to - from);
    if (shareInput) {
      return new RawJson(input, absoluteFrom, length);
    }
    return new RawJson(Arrays.copyOfRange(input, absoluteFrom, absoluteFrom + length), 0, length);
  }

  private static Integer readVersion(JsonParser p, JsonToken t) throws IOException {
    if (t != JsonToken.VALUE_NUMBER_INT) {
      throw malformed(WireRules.VERSION_NOT_INTEGER);
    }
    if (p.getNumberType() != JsonParser.NumberType.INT || p.getIntValue() != Frame.VERSION) {
      throw TetherException.of(ErrorCode.UNSUPPORTED_VERSION, WireRules.versionUnsupported(p.getText()));
    }
    return p.getIntValue();
  }

  private static long readSeq(JsonParser p, JsonToken t) throws IOException {
    if (t == JsonToken.VALUE_NULL) {
      return 0;
    }
    if (t != JsonToken.VALUE_NUMBER_INT || p.getNumberType() == JsonParser.NumberType.BIG_INTEGER
        || p.getLongValue() < 0) {
      throw malformed(WireRules.SEQ_NOT_COUNT);
    }
    return p.getLongValue();
  }

  /** Reads {@code session}; fields other than channel and id go to {@code unknown} as raw JSON. */
  private SessionKey readSession(JsonParser p, JsonToken t, Map<String, RawJson> unknown) throws IOException {
    if (t != JsonToken.START_OBJECT) {
      throw malformed("session must be an object {\"channel\": ..., \"id\": ...}");
    }
    String channel = null;
    String id = null;
    for (String name = p.nextFieldName(); name != null; name = p.nextFieldName()) {
      JsonToken v = p.nextToken();
      switch (name) {
        case "channel" -> channel = requireString(p, v, "session.channel");
        case "id" -> id = requireString(p, v, "session.id");
        default -> unknown.put(name, slice(p));
      }
    }
    if (channel == null || id == null) {
      throw malformed("session needs both \"channel\" and \"id\"");
    }
    return new SessionKey(channel, id);
  }

  static String requireString(JsonParser p, JsonToken t, String field) throws IOException {
    if (t != JsonToken.VALUE_STRING) {
      throw malformed(field + " must be a string");
    }
    return p.getText();
  }

  private static TetherException malformed(String message) {
    return TetherException.of(ErrorCode.MALFORMED_FRAME, message);
  }
}
