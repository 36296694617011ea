package dev.tether.sessions;

import dev.tether.api.MediaType;
import dev.tether.api.Role;
import dev.tether.api.internal.ApiInternals;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
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

  /** The turn in {@code line[from, to)} (no newline), or null when the line is not in the canonical form. */
  SessionTurn read(byte[] line, int from, int to) {
    json.reset(line, from, to);
    try {
      SessionTurn turn = turn();
      return json.pos == to ? turn : null;
    } catch (CanonicalJson.Decline e) {
      return null;
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
    int close = start;
    while (close < json.end && close - start <= 30 && json.b[close] != '"') {
      close++;
    }
    if (close >= json.end || json.b[close] != '"') {
      throw CanonicalJson.decline();
    }
    Instant ts = SessionTimestamps.fastPath(json.b, start, close);
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
      byte[] input = Arrays.copyOfRange(json.b, start, end); // canonical already: what the strict copy would write
      part = new SessionPart.ToolUse(id, name, ApiInternals.wrapTrusted(input, 0, input.length));
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
    for (int i = start; i < start + HEX; i++) {
      int c = b[i];
      if (!(c >= '0' && c <= '9') && !(c >= 'a' && c <= 'f')) {
        throw CanonicalJson.decline();
      }
    }
    json.pos = start + HEX;
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
