package dev.tether.api;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Reads and writes {@link ToolPayload}s, and holds their field rules. Reading is one streaming
 * pass over the payload's bytes: each field at most once, unknown fields skipped, {@code input}
 * and {@code output} kept as their raw JSON (bounded before they are copied).
 */
final class ToolPayloadJson {
  private static final Set<String> TYPES = Set.of(FrameTypes.EVENT_TOOL_USE, FrameTypes.EVENT_TOOL_RESULT,
      FrameTypes.EVENT_TOOL_APPROVAL_REQUEST, FrameTypes.EVENT_PACK_TOOL_REQUEST, FrameTypes.EVENT_SESSION_INIT,
      FrameTypes.EVENT_SESSION_ORPHANED, FrameTypes.CONTROL_TOOL_APPROVAL, FrameTypes.CONTROL_PACK_TOOL_RESULT);
  private static final RawJson EMPTY_INPUT = RawJson.EMPTY_OBJECT;

  private ToolPayloadJson() {}

  static boolean isToolType(String type) {
    return TYPES.contains(type);
  }

  static ToolPayload read(String type, RawJson payload) {
    if (!isToolType(type)) {
      throw new IllegalArgumentException("not a tool frame type: " + type);
    }
    if (payload.length > ToolPayload.MAX_PAYLOAD_BYTES) {
      throw malformed(type + " payload is " + payload.length + " bytes; a tool payload may have at most "
          + ToolPayload.MAX_PAYLOAD_BYTES);
    }
    Map<String, Object> f = fields(type, payload);
    try {
      return switch (type) {
        case FrameTypes.EVENT_TOOL_USE -> new ToolPayload.ToolUse(string(type, f, "id"), string(type, f, "name"), input(f));
        case FrameTypes.EVENT_TOOL_RESULT -> new ToolPayload.ToolResult(string(type, f, "id"), string(type, f, "output"),
            Boolean.TRUE.equals(f.get("is_error")));
        case FrameTypes.EVENT_TOOL_APPROVAL_REQUEST ->
            new ToolPayload.ApprovalRequest(string(type, f, "id"), string(type, f, "name"), input(f));
        case FrameTypes.EVENT_PACK_TOOL_REQUEST ->
            new ToolPayload.PackToolRequest(string(type, f, "id"), string(type, f, "tool"), input(f));
        case FrameTypes.EVENT_SESSION_INIT -> new ToolPayload.SessionInit(string(type, f, "session_id"));
        case FrameTypes.EVENT_SESSION_ORPHANED -> new ToolPayload.SessionOrphaned(
            f.containsKey("reason") ? string(type, f, "reason") : "");
        case FrameTypes.CONTROL_TOOL_APPROVAL -> {
          String decision = string(type, f, "decision");
          yield new ToolPayload.ApprovalAnswer(string(type, f, "id"),
              ToolPayload.Decision.parse(decision).orElseThrow(() -> malformed(type
                  + " decision must be approve, deny or approve_all")),
              Optional.ofNullable((String) f.get("reason")));
        }
        case FrameTypes.CONTROL_PACK_TOOL_RESULT -> new ToolPayload.PackToolResult(string(type, f, "id"),
            Optional.ofNullable((RawJson) f.get("output")), Optional.ofNullable((String) f.get("error")));
        default -> throw new AssertionError(type);
      };
    } catch (IllegalArgumentException e) {
      throw malformed(type + ": " + e.getMessage());
    }
  }

  /** The fields a tool payload may have: strings, {@code is_error} as Boolean, input/output as RawJson. */
  private static Map<String, Object> fields(String type, RawJson payload) {
    Map<String, Object> f = new HashMap<>();
    try (JsonParser p = JsonSupport.parser(payload.array, payload.offset, payload.length)) {
      if (p.nextToken() != JsonToken.START_OBJECT) {
        throw malformed(type + " payload must be a JSON object");
      }
      for (String name = p.nextFieldName(); name != null; name = p.nextFieldName()) {
        JsonToken t = p.nextToken();
        switch (name) {
          case "input", "output" -> {
            if (name.equals("output") && type.equals(FrameTypes.EVENT_TOOL_RESULT)) {
              put(f, type, name, FrameReader.requireString(p, t, type + " output"));
            } else if (t != JsonToken.VALUE_NULL) {
              put(f, type, name, raw(p, t, payload, type + " " + name,
                  name.equals("input") ? ToolPayload.MAX_INPUT_BYTES : ToolPayload.MAX_OUTPUT_BYTES));
            }
          }
          case "is_error" -> {
            if (t != JsonToken.VALUE_TRUE && t != JsonToken.VALUE_FALSE) {
              throw malformed(type + " is_error must be true or false");
            }
            put(f, type, name, t == JsonToken.VALUE_TRUE);
          }
          case "id", "name", "tool", "session_id", "reason", "decision", "error" -> {
            if (t != JsonToken.VALUE_NULL) {
              put(f, type, name, FrameReader.requireString(p, t, type + " " + name));
            }
          }
          default -> p.skipChildren();
        }
      }
      JsonSupport.requireEnd(p);
    } catch (IOException e) {
      throw JsonSupport.malformed(type + " payload is not valid JSON", e);
    }
    return f;
  }

  private static void put(Map<String, Object> f, String type, String name, Object value) {
    if (f.putIfAbsent(name, value) != null) {
      throw malformed(type + " payload has a duplicate field " + name);
    }
  }

  /** The value at {@code t} as raw JSON, refused once it is longer than {@code max} bytes. */
  private static RawJson raw(JsonParser p, JsonToken t, RawJson payload, String field, int max) throws IOException {
    long from = p.currentTokenLocation().getByteOffset();
    if (t.isStructStart()) {
      p.skipChildren();
    } else {
      p.finishToken();
    }
    long to = p.currentLocation().getByteOffset();
    if (to - from > max) {
      throw malformed(field + " is " + (to - from) + " bytes; at most " + max + " are allowed");
    }
    byte[] value = Arrays.copyOfRange(payload.array, payload.offset + (int) from, payload.offset + (int) to);
    return new RawJson(value, 0, value.length);
  }

  private static String string(String type, Map<String, Object> f, String name) {
    Object value = f.get(name);
    if (value == null) {
      throw malformed(type + " payload needs a string \"" + name + "\"");
    }
    return (String) value;
  }

  private static RawJson input(Map<String, Object> f) {
    RawJson input = (RawJson) f.get("input");
    return input == null ? EMPTY_INPUT : input;
  }

  static RawJson write(ToolPayload payload) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(128);
    try (JsonGenerator g = JsonSupport.generator(out)) {
      g.writeStartObject();
      if (payload instanceof ToolPayload.ToolUse u) {
        g.writeStringField("id", u.id());
        g.writeStringField("name", u.name());
        rawField(g, "input", u.input());
      } else if (payload instanceof ToolPayload.ToolResult r) {
        g.writeStringField("id", r.id());
        g.writeStringField("output", r.output());
        g.writeBooleanField("is_error", r.isError());
      } else if (payload instanceof ToolPayload.ApprovalRequest a) {
        g.writeStringField("id", a.id());
        g.writeStringField("name", a.name());
        rawField(g, "input", a.input());
      } else if (payload instanceof ToolPayload.PackToolRequest r) {
        g.writeStringField("id", r.id());
        g.writeStringField("tool", r.tool());
        rawField(g, "input", r.input());
      } else if (payload instanceof ToolPayload.SessionInit s) {
        g.writeStringField("session_id", s.sessionId());
      } else if (payload instanceof ToolPayload.SessionOrphaned s) {
        g.writeStringField("reason", s.reason());
      } else if (payload instanceof ToolPayload.ApprovalAnswer a) {
        g.writeStringField("id", a.id());
        g.writeStringField("decision", a.decision().wireName());
        if (a.reason().isPresent()) {
          g.writeStringField("reason", a.reason().get());
        }
      } else if (payload instanceof ToolPayload.PackToolResult r) {
        g.writeStringField("id", r.id());
        if (r.output().isPresent()) {
          rawField(g, "output", r.output().get());
        } else {
          g.writeStringField("error", r.error().orElseThrow());
        }
      } else {
        throw new AssertionError(payload);
      }
      g.writeEndObject();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    byte[] bytes = out.toByteArray();
    return new RawJson(bytes, 0, bytes.length);
  }

  private static void rawField(JsonGenerator g, String name, RawJson value) throws IOException {
    g.writeFieldName(name);
    g.writeRawValue(new String(value.array, value.offset, value.length, StandardCharsets.UTF_8));
  }

  // The field rules, shared by the records' constructors (IllegalArgumentException) and read.

  static void requireId(String field, String value) {
    if (value == null) {
      throw new IllegalArgumentException(field + " is required");
    }
    if (value.isEmpty() || value.length() > ToolPayload.MAX_ID_CHARS) {
      throw new IllegalArgumentException(field + " must be 1 to " + ToolPayload.MAX_ID_CHARS
          + " characters but has " + value.length());
    }
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (c < 0x20 || c == 0x7f || (c >= 0x80 && c < 0xa0)) {
        throw new IllegalArgumentException(field + " must not contain control characters (at index " + i + ")");
      }
    }
  }

  static void requireText(String field, String value) {
    if (value == null) {
      throw new IllegalArgumentException(field + " is required");
    }
    if (value.length() > ToolPayload.MAX_TEXT_CHARS) {
      throw new IllegalArgumentException(field + " has " + value.length() + " characters; at most "
          + ToolPayload.MAX_TEXT_CHARS + " are allowed");
    }
  }

  static void requireOutput(String output) {
    if (output == null) {
      throw new IllegalArgumentException("output is required");
    }
    long bytes = utf8Length(output);
    if (bytes > ToolPayload.MAX_OUTPUT_BYTES) {
      throw new IllegalArgumentException("output is " + bytes + " bytes of UTF-8; at most "
          + ToolPayload.MAX_OUTPUT_BYTES + " are allowed");
    }
  }

  static void requireInput(RawJson input) {
    requireBytes("input", input, ToolPayload.MAX_INPUT_BYTES);
  }

  static void requireBytes(String field, RawJson value, int max) {
    if (value == null) {
      throw new IllegalArgumentException(field + " is required");
    }
    if (value.size() > max) {
      throw new IllegalArgumentException(field + " is " + value.size() + " bytes; at most " + max + " are allowed");
    }
  }

  private static long utf8Length(String s) {
    long n = 0;
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      n += c < 0x80 ? 1 : c < 0x800 ? 2 : Character.isHighSurrogate(c) ? 2 : 3; // a pair counts 2 + 2
    }
    return n;
  }

  private static TetherException malformed(String message) {
    return TetherException.of(ErrorCode.MALFORMED_FRAME, message);
  }
}
