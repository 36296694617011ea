package dev.tether.sessions;

import dev.tether.api.blobs.BlobKey;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.exc.StreamReadException;
import dev.tether.api.RawJson;
import dev.tether.api.Role;
import dev.tether.api.TetherException;
import dev.tether.api.json.TetherJson;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.DateTimeException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * One turn as one line of JSON, and back. The format:
 *
 * <pre>{@code
 * {"role":"user","ts":"2026-01-01T00:00:00Z","user":"Alice","content":[
 *   {"type":"text","text":"[Alice]: Analyze this"},
 *   {"type":"image","key":"a1b2...f0.png","media_type":"image/png","size":48213}]}
 * {"role":"assistant","ts":"...","content":[{"type":"tool_use","id":"t1","name":"bash","input":{"cmd":"ls"}}]}
 * {"role":"user","ts":"...","content":[{"type":"tool_result","tool_use_id":"t1","is_error":false,"content":[...]}]}
 * }</pre>
 *
 * <p>An image is a blob key, never a path: the spec's {@code path} field would tie the file to one
 * machine's layout and let an edited line point anywhere. Reading tolerates unknown fields and
 * unknown part types (skipped), and is strict about everything it uses: a bad key, a role other
 * than user/assistant, a media type that disagrees with the key, a bad timestamp. Stateless and
 * thread-safe.
 */
final class SessionLineCodec {
  /** Writes lines. */
  private static final JsonFactory FACTORY = TetherJson.factory();
  /**
   * Reads lines: the shared configuration without duplicate detection, which keeps a set per
   * object of three or more fields (a third of what parsing a line allocates). Duplicates are
   * refused all the same: the fields this codec reads are checked with a bit per field, and a line
   * where a duplicate could hide elsewhere (an unknown field, a tool input object) is checked again
   * with the strict {@link #FACTORY}.
   */
  private static final JsonFactory READER = TetherJson.newFactory().rebuild()
      .disable(StreamReadFeature.STRICT_DUPLICATE_DETECTION).build();

  /** What one read has found out about the line beyond the fields it checks itself. */
  private static final class Reading {
    boolean unchecked;
  }

  private SessionLineCodec() {}

  /** The turn's line, without the trailing newline. */
  static byte[] write(SessionTurn turn) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(256);
    try (JsonGenerator g = FACTORY.createGenerator(out)) {
      g.writeStartObject();
      g.writeStringField("role", turn.role() == Role.USER ? "user" : "assistant");
      g.writeStringField("ts", turn.ts().toString());
      if (turn.user().isPresent()) {
        g.writeStringField("user", turn.user().get());
      }
      g.writeFieldName("content");
      writeParts(g, turn.parts());
      g.writeEndObject();
    } catch (IOException e) {
      throw new UncheckedIOException(e); // cannot happen writing to memory
    }
    return out.toByteArray();
  }

  private static void writeParts(JsonGenerator g, List<SessionPart> parts) throws IOException {
    g.writeStartArray();
    for (SessionPart part : parts) {
      g.writeStartObject();
      if (part instanceof SessionPart.Text text) {
        g.writeStringField("type", "text");
        g.writeStringField("text", text.text());
      } else if (part instanceof SessionPart.ImageRef ref) {
        g.writeStringField("type", "image");
        g.writeStringField("key", ref.key().fileName());
        g.writeStringField("media_type", ref.mediaType().mimeType());
        g.writeNumberField("size", ref.size());
      } else if (part instanceof SessionPart.ToolUse use) {
        g.writeStringField("type", "tool_use");
        g.writeStringField("id", use.id());
        g.writeStringField("name", use.name());
        g.writeFieldName("input");
        g.writeRawValue(use.input().toString());
      } else if (part instanceof SessionPart.ToolResult result) {
        g.writeStringField("type", "tool_result");
        g.writeStringField("tool_use_id", result.toolUseId());
        g.writeBooleanField("is_error", result.isError());
        g.writeFieldName("content");
        writeParts(g, result.content());
      }
      g.writeEndObject();
    }
    g.writeEndArray();
  }

  /** Reads the turn in {@code line[offset, offset + length)}. */
  static SessionTurn read(byte[] line, int offset, int length) throws SessionLineException {
    Reading reading = new Reading();
    try {
      return read(line, offset, length, reading);
    } finally {
      if (reading.unchecked) {
        requireNoDuplicates(line, offset, length); // thrown from finally: a duplicate wins over what the read found
      }
    }
  }

  private static SessionTurn read(byte[] line, int offset, int length, Reading reading) throws SessionLineException {
    try (JsonParser p = READER.createParser(line, offset, length)) {
      if (p.nextToken() != JsonToken.START_OBJECT) {
        throw new SessionLineException("not a JSON object");
      }
      TurnFields fields = fields(p, reading);
      if (p.nextToken() != null) {
        throw new SessionLineException("content after the turn object");
      }
      return fields.turn();
    } catch (IOException e) {
      throw new SessionLineException("not valid JSON: " + firstLine(e.getMessage()), e);
    } catch (IllegalArgumentException | TetherException e) {
      throw new SessionLineException(e.getMessage(), e);
    }
  }

  /** The fields of one turn object as read, before the checks that need all of them. */
  private record TurnFields(Role role, Instant ts, String user, List<SessionPart> parts) {
    SessionTurn turn() throws SessionLineException {
      if (role == null) {
        throw new SessionLineException("no role");
      }
      if (parts == null || parts.isEmpty()) {
        throw new SessionLineException("no content");
      }
      return new SessionTurn(role, ts, Optional.ofNullable(user), parts);
    }
  }

  /** The turn object's fields, the parser on its START_OBJECT; it ends on the END_OBJECT. */
  private static TurnFields fields(JsonParser p, Reading reading) throws IOException, SessionLineException {
    Role role = null;
    Instant ts = Instant.EPOCH;
    String user = null;
    List<SessionPart> parts = null;
    int seen = 0;
    while (p.nextToken() == JsonToken.FIELD_NAME) {
      String field = p.currentName();
      JsonToken value = p.nextToken();
      switch (field) {
        case "role" -> {
          seen = once(seen, 1, field);
          role = role(text(p, value, "role"));
        }
        case "ts" -> {
          seen = once(seen, 2, field);
          ts = instant(text(p, value, "ts"));
        }
        case "user" -> {
          seen = once(seen, 4, field);
          user = text(p, value, "user");
        }
        case "content" -> {
          seen = once(seen, 8, field);
          parts = parts(p, value, false, reading);
        }
        default -> {
          reading.unchecked = true;
          p.skipChildren();
        }
      }
    }
    return new TurnFields(role, ts, user, parts);
  }

  /** {@code seen} with {@code bit} set; a field read twice is the strict factory's duplicate error. */
  private static int once(int seen, int bit, String field) throws SessionLineException {
    if ((seen & bit) != 0) {
      throw duplicate(field);
    }
    return seen | bit;
  }

  private static SessionLineException duplicate(String field) {
    return new SessionLineException("not valid JSON: Duplicate field '" + field + "'");
  }

  /** The strict factory's pass over the whole line, for lines the reader could not check itself. */
  private static void requireNoDuplicates(byte[] line, int offset, int length) throws SessionLineException {
    try (JsonParser p = FACTORY.createParser(line, offset, length)) {
      while (p.nextToken() != null) {
        // the strict factory throws at the first duplicate key
      }
    } catch (StreamReadException e) {
      if (e.getMessage() != null && e.getMessage().startsWith("Duplicate")) {
        throw new SessionLineException("not valid JSON: " + firstLine(e.getMessage()), e);
      }
      // any other problem of the line is what the read itself reported
    } catch (IOException e) {
      // same
    }
  }

  private static List<SessionPart> parts(JsonParser p, JsonToken token, boolean insideToolResult, Reading reading)
      throws IOException, SessionLineException {
    if (token != JsonToken.START_ARRAY) {
      throw new SessionLineException("content is not an array");
    }
    List<SessionPart> parts = new ArrayList<>(2);
    for (JsonToken t; (t = p.nextToken()) != JsonToken.END_ARRAY; ) {
      if (t != JsonToken.START_OBJECT) {
        throw new SessionLineException("a content part is not an object");
      }
      SessionPart part = part(p, reading);
      if (part != null) {
        if (insideToolResult && !(part instanceof SessionPart.Text) && !(part instanceof SessionPart.ImageRef)) {
          throw new SessionLineException("a tool result holds text and images only");
        }
        parts.add(part);
      }
    }
    return parts;
  }

  /** One part object, the parser on its START_OBJECT; null for a part type this SDK does not know. */
  private static SessionPart part(JsonParser p, Reading reading) throws IOException, SessionLineException {
    String type = null;
    String text = null;
    String key = null;
    String mediaType = null;
    long size = -1;
    String id = null;
    String name = null;
    RawJson input = null;
    String toolUseId = null;
    boolean isError = false;
    List<SessionPart> content = null;
    int seen = 0;
    while (p.nextToken() == JsonToken.FIELD_NAME) {
      String field = p.currentName();
      JsonToken value = p.nextToken();
      seen = once(seen, bit(field), field);
      switch (field) {
        case "type" -> type = text(p, value, "type");
        case "text" -> text = text(p, value, "text");
        case "key" -> key = text(p, value, "key");
        case "media_type" -> mediaType = text(p, value, "media_type");
        case "size" -> {
          if (value != JsonToken.VALUE_NUMBER_INT) {
            throw new SessionLineException("size is not an integer");
          }
          size = p.getLongValue();
          if (size < 0) {
            throw new SessionLineException("size is negative");
          }
        }
        case "id" -> id = text(p, value, "id");
        case "name" -> name = text(p, value, "name");
        case "input" -> {
          reading.unchecked |= value == JsonToken.START_OBJECT || value == JsonToken.START_ARRAY;
          input = raw(p);
        }
        case "tool_use_id" -> toolUseId = text(p, value, "tool_use_id");
        case "is_error" -> {
          if (!value.isBoolean()) {
            throw new SessionLineException("is_error is not a boolean");
          }
          isError = p.getBooleanValue();
        }
        case "content" -> content = parts(p, value, true, reading);
        default -> {
          reading.unchecked = true;
          p.skipChildren();
        }
      }
    }
    if (type == null) {
      throw new SessionLineException("a content part has no type");
    }
    switch (type) {
      case "text":
        return new SessionPart.Text(require(text, "text"));
      case "image":
        BlobKey blob = BlobKey.parse(require(key, "key"))
            .orElseThrow(() -> new SessionLineException("image key is not a blob key"));
        if (!blob.mediaType().mimeType().equals(require(mediaType, "media_type"))) {
          throw new SessionLineException("image media_type does not match its key");
        }
        return new SessionPart.ImageRef(blob, size < 0 ? 0 : size);
      case "tool_use":
        return new SessionPart.ToolUse(require(id, "id"), require(name, "name"), require(input, "input"));
      case "tool_result":
        return new SessionPart.ToolResult(require(toolUseId, "tool_use_id"), content == null ? List.of() : content, isError);
      default:
        return null; // written by a newer version; keep the rest of the turn
    }
  }

  /** The bit of a part field this codec reads; 0 for other fields (checked by the strict pass). */
  private static int bit(String field) {
    return switch (field) {
      case "type" -> 1;
      case "text" -> 2;
      case "key" -> 4;
      case "media_type" -> 8;
      case "size" -> 16;
      case "id" -> 32;
      case "name" -> 64;
      case "input" -> 128;
      case "tool_use_id" -> 256;
      case "is_error" -> 512;
      case "content" -> 1024;
      default -> 0;
    };
  }

  private static RawJson raw(JsonParser p) throws IOException {
    return TetherJson.write(64, g -> g.copyCurrentStructure(p)); // one value, no second parse
  }

  private static String text(JsonParser p, JsonToken token, String field) throws IOException, SessionLineException {
    if (token != JsonToken.VALUE_STRING) {
      throw new SessionLineException(field + " is not a string");
    }
    return p.getText();
  }

  private static <T> T require(T value, String field) throws SessionLineException {
    if (value == null) {
      throw new SessionLineException("a content part has no " + field);
    }
    return value;
  }

  private static Role role(String role) throws SessionLineException {
    return switch (role) {
      case "user" -> Role.USER;
      case "assistant" -> Role.ASSISTANT;
      default -> throw new SessionLineException("role is neither user nor assistant");
    };
  }

  private static Instant instant(String ts) throws SessionLineException {
    try {
      return SessionTimestamps.parse(ts);
    } catch (DateTimeException e) {
      throw new SessionLineException("ts is not an RFC 3339 UTC timestamp");
    }
  }

  private static String firstLine(String message) {
    if (message == null) {
      return "";
    }
    int nl = message.indexOf('\n');
    return nl < 0 ? message : message.substring(0, nl);
  }
}
