package dev.tether.sessions;

import dev.tether.api.blobs.BlobKey;
import dev.tether.api.MediaType;
import dev.tether.api.RawJson;
import dev.tether.api.Role;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The fast reading of a session line: reads a turn straight from the line's bytes when the line is
 * exactly in the form {@link SessionLineCodec#write} gives it (fields in the writer's order, no
 * whitespace, known part types only), and declines (returns null) for anything else, which then
 * goes to the strict Jackson reading unchanged. So every rule and every error message stays the
 * strict reading's: this class only ever accepts a line that the strict reading accepts, with an
 * equal turn (a differential fuzz test holds it to that).
 *
 * <p>Not thread-safe: one instance per file read, reused for its lines.
 */
final class CanonicalLineReader {
  private static final byte[] ROLE = ascii("{\"role\":\"");
  private static final byte[] USER_ROLE = ascii("user\"");
  private static final byte[] ASSISTANT_ROLE = ascii("assistant\"");
  private static final byte[] TS = ascii(",\"ts\":");
  private static final byte[] USER = ascii(",\"user\":");
  private static final byte[] CONTENT = ascii(",\"content\":");
  private static final byte[] TYPE = ascii("{\"type\":\"");
  private static final byte[] TEXT = ascii("text\",\"text\":");
  private static final byte[] IMAGE = ascii("image\",\"key\":\"");
  private static final byte[] MEDIA_TYPE = ascii(",\"media_type\":\"");
  private static final byte[] SIZE = ascii(",\"size\":");
  private static final byte[] TOOL_USE = ascii("tool_use\",\"id\":");
  private static final byte[] NAME = ascii(",\"name\":");
  private static final byte[] INPUT = ascii(",\"input\":");
  private static final byte[] TOOL_RESULT = ascii("tool_result\",\"tool_use_id\":");
  private static final byte[] IS_ERROR_TRUE = ascii(",\"is_error\":true");
  private static final byte[] IS_ERROR_FALSE = ascii(",\"is_error\":false");
  /** The extensions and media types of blob keys, spelled as {@link BlobKey#fileName()} spells them. */
  private static final MediaType[] TYPES = MediaType.values();
  private static final byte[][] EXTENSIONS = new byte[TYPES.length][];
  private static final byte[][] MIME_TYPES = new byte[TYPES.length][];
  private static final int HEX = 64;

  static {
    for (int i = 0; i < TYPES.length; i++) {
      EXTENSIONS[i] = ascii("." + TYPES[i].extension() + "\"");
      MIME_TYPES[i] = ascii(TYPES[i].mimeType() + "\"");
    }
  }

  private final CanonicalJson json = new CanonicalJson();
  private final SessionTimestamps.DayCache days = new SessionTimestamps.DayCache();

  /** The turn in {@code line[from, to)} (no newline), or null when the line is not in the canonical form. */
  SessionTurn read(byte[] line, int from, int to) {
    SessionTurn turn = turnAt(line, from, to);
    return turn != null && json.pos == to ? turn : null;
  }

  /**
   * The turn of the line that starts at {@code from} and ends at a newline before {@code limit},
   * read without looking for the newline first (the canonical form holds no raw newline, so the
   * reading stops at it); null when that line is not in the canonical form. After a turn,
   * {@link #lineEnd()} is the newline's index.
   */
  SessionTurn readLine(byte[] bytes, int from, int limit) {
    SessionTurn turn = turnAt(bytes, from, limit);
    return turn != null && json.pos < limit && bytes[json.pos] == '\n' ? turn : null;
  }

  /** Where the last turn read ends. */
  int lineEnd() {
    return json.pos;
  }

  private SessionTurn turnAt(byte[] bytes, int from, int limit) {
    json.reset(bytes, from, limit);
    try {
      return turn();
    } catch (CanonicalJson.Decline e) {
      return null;
    } catch (IllegalArgumentException e) {
      return null; // a value a part's own constructor refuses, such as a key of upper-case hex
    }
  }

  private SessionTurn turn() {
    json.expect(ROLE);
    Role role = json.consume(USER_ROLE) ? Role.USER : ascertain(json.consume(ASSISTANT_ROLE), Role.ASSISTANT);
    json.expect(TS);
    Instant ts = timestamp();
    Optional<String> user = json.consume(USER) ? Optional.of(json.string()) : Optional.empty();
    json.expect(CONTENT);
    List<SessionPart> parts = parts(false);
    json.expect('}');
    return new SessionTurn(role, ts, user, parts);
  }

  /** Whether {@code Z"} ends at {@code quote}. */
  private boolean closesAt(int quote) {
    return quote < json.end && json.b[quote] == '"' && json.b[quote - 1] == 'Z';
  }

  private static <T> T ascertain(boolean matched, T value) {
    if (!matched) {
      throw CanonicalJson.decline();
    }
    return value;
  }

  /** {@code Instant.toString()}'s spelling, read as {@link SessionTimestamps#fastPath} reads it. */
  private Instant timestamp() {
    json.expect('"');
    int start = json.pos;
    // Instant.toString() gives 0, 3, 6 or 9 fraction digits: the closing quote is at one of four places
    int close = closesAt(start + 20) ? start + 20 : closesAt(start + 24) ? start + 24
        : closesAt(start + 27) ? start + 27 : closesAt(start + 30) ? start + 30 : -1;
    if (close < 0) {
      throw CanonicalJson.decline();
    }
    Instant ts = SessionTimestamps.fastPath(json.b, start, close, days);
    if (ts == null) {
      throw CanonicalJson.decline();
    }
    json.pos = close + 1;
    return ts;
  }

  /** A part array: non-empty at the top (a turn has parts), text and images only inside a tool result. */
  private List<SessionPart> parts(boolean insideToolResult) {
    json.expect('[');
    if (json.consume(']')) {
      if (!insideToolResult) {
        throw CanonicalJson.decline();
      }
      return List.of();
    }
    SessionPart first = part(insideToolResult);
    if (json.consume(']')) {
      return List.of(first);
    }
    List<SessionPart> parts = new ArrayList<>(4);
    parts.add(first);
    do {
      json.expect(',');
      parts.add(part(insideToolResult));
    } while (!json.consume(']'));
    return parts;
  }

  private SessionPart part(boolean insideToolResult) {
    json.expect(TYPE);
    SessionPart part;
    if (json.consume(TEXT)) {
      part = new SessionPart.Text(json.string());
    } else if (json.consume(IMAGE)) {
      part = image();
    } else if (!insideToolResult && json.consume(TOOL_USE)) {
      String id = json.string();
      json.expect(NAME);
      String name = json.string();
      json.expect(INPUT);
      int start = json.pos;
      int end = json.rawValue();
      // canonical already: what the strict copy would write
      part = new SessionPart.ToolUse(id, name, RawJson.ofUtf8(json.b, start, end - start));
    } else if (!insideToolResult && json.consume(TOOL_RESULT)) {
      String toolUseId = json.string();
      boolean isError = json.consume(IS_ERROR_TRUE);
      if (!isError) {
        json.expect(IS_ERROR_FALSE);
      }
      json.expect(CONTENT);
      part = new SessionPart.ToolResult(toolUseId, parts(true), isError);
    } else {
      throw CanonicalJson.decline();
    }
    json.expect('}');
    return part;
  }

  /** {@code {64 lower hex}.{ext}", "media_type":"{its type}", "size":N}, the reader after {@code "key":"}. */
  private SessionPart image() {
    byte[] b = json.b;
    int start = json.pos;
    if (json.end - start < HEX) {
      throw CanonicalJson.decline();
    }
    json.pos = start + HEX; // the 64 hex digits are checked by BlobKey's constructor
    int type = 0;
    while (type < TYPES.length && !json.consume(EXTENSIONS[type])) {
      type++;
    }
    if (type == TYPES.length) {
      throw CanonicalJson.decline();
    }
    json.expect(MEDIA_TYPE);
    json.expect(MIME_TYPES[type]);
    json.expect(SIZE);
    long size = json.natural();
    return new SessionPart.ImageRef(new BlobKey(new String(b, start, HEX, StandardCharsets.ISO_8859_1), TYPES[type]), size);
  }

  private static byte[] ascii(String s) {
    return s.getBytes(StandardCharsets.US_ASCII);
  }
}
