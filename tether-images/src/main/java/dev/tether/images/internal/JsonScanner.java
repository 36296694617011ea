package dev.tether.images.internal;

import dev.tether.api.ErrorCode;
import dev.tether.api.TetherException;
import dev.tether.api.internal.WireRules;
import java.nio.charset.StandardCharsets;

/**
 * A strict, allocation-free JSON syntax checker over a byte range (RFC 8259: objects, arrays,
 * strings with valid escapes and no raw control characters, numbers, literals), with nesting
 * bounded so hostile input cannot exhaust the stack. Subclasses walk the parts they care about
 * and {@link #skipValue} the rest. Not thread-safe.
 */
abstract class JsonScanner {
  static final int MAX_DEPTH = 256;

  byte[] buf;
  int pos;
  int end;
  int base;

  void init(byte[] buf, int offset, int length) {
    this.buf = buf;
    this.pos = offset;
    this.base = offset;
    this.end = offset + length;
  }

  /** Drops the reference to the scanned bytes, so a reused scanner does not keep a frame alive. */
  public final void release() {
    this.buf = null;
  }

  final void skipWhitespace() {
    while (pos < end) {
      byte b = buf[pos];
      if (b != ' ' && b != '\n' && b != '\r' && b != '\t') {
        return;
      }
      pos++;
    }
  }

  /** The next non-whitespace byte, not consumed; -1 at the end. */
  final int peek() {
    skipWhitespace();
    return pos < end ? buf[pos] & 0xff : -1;
  }

  final void expect(char c) {
    if (peek() != c) {
      throw malformed("expected '" + c + "'");
    }
    pos++;
  }

  /** After a member or element: true when another follows (a comma was consumed), false at the close. */
  final boolean more(char close) {
    int c = peek();
    if (c == ',') {
      pos++;
      return true;
    }
    if (c == close) {
      pos++;
      return false;
    }
    throw malformed("expected ',' or '" + close + "'");
  }

  /** At '{': consumes it and reports whether the object has members. */
  final boolean openObject() {
    expect('{');
    if (peek() == '}') {
      pos++;
      return false;
    }
    return true;
  }

  final boolean openArray() {
    expect('[');
    if (peek() == ']') {
      pos++;
      return false;
    }
    return true;
  }

  /** Reads a member name and its colon. Names are short; decoding them allocates a little. */
  final String readName() {
    if (peek() != '"') {
      throw malformed("expected a member name");
    }
    String name = readString();
    expect(':');
    return name;
  }

  /** Reads a string value (at its opening quote) into a Java string. For short strings only. */
  final String readString() {
    if (peek() != '"') {
      throw malformed("expected a string");
    }
    int start = ++pos;
    boolean escaped = false;
    while (true) {
      if (pos >= end) {
        throw malformed("unterminated string");
      }
      int b = buf[pos] & 0xff;
      if (b == '"') {
        break;
      }
      if (b < 0x20) {
        throw malformed("raw control character in a string");
      }
      if (b == '\\') {
        escaped = true;
        pos++;
        readEscape();
        continue;
      }
      pos++;
    }
    int stop = pos++;
    if (!escaped) {
      return new String(buf, start, stop - start, StandardCharsets.UTF_8);
    }
    StringBuilder sb = new StringBuilder(stop - start);
    int save = pos;
    pos = start;
    while (pos < stop) {
      if (buf[pos] == '\\') {
        pos++;
        sb.appendCodePoint(readEscape());
      } else {
        int runStart = pos;
        while (pos < stop && buf[pos] != '\\') {
          pos++;
        }
        sb.append(new String(buf, runStart, pos - runStart, StandardCharsets.UTF_8));
      }
    }
    pos = save;
    return sb.toString();
  }

  /**
   * At the byte after a backslash: consumes the escape and returns the character it stands for.
   * A high surrogate escape must be followed by a low one, and both are consumed (the code point
   * is returned); an unpaired surrogate escape is refused (RFC 7493), with the codec's words.
   */
  final int readEscape() {
    int unit = readEscapeUnit();
    if (unit < 0xD800 || unit > 0xDFFF) {
      return unit;
    }
    int at = pos - 6;
    if (WireRules.isHighSurrogate(unit) && end - pos >= 6 && buf[pos] == '\\' && buf[pos + 1] == 'u') {
      pos++;
      int low = readEscapeUnit();
      if (WireRules.isLowSurrogate(low)) {
        return Character.toCodePoint((char) unit, (char) low);
      }
    }
    throw TetherException.of(ErrorCode.MALFORMED_FRAME, WireRules.LONE_SURROGATE + " at byte " + (at - base));
  }

  private int readEscapeUnit() {
    if (pos >= end) {
      throw malformed("unterminated escape");
    }
    int b = buf[pos++] & 0xff;
    switch (b) {
      case '"': return '"';
      case '\\': return '\\';
      case '/': return '/';
      case 'b': return '\b';
      case 'f': return '\f';
      case 'n': return '\n';
      case 'r': return '\r';
      case 't': return '\t';
      case 'u': {
        if (end - pos < 4) {
          throw malformed("truncated \\u escape");
        }
        int v = 0;
        for (int i = 0; i < 4; i++) {
          int d = Character.digit(buf[pos++], 16);
          if (d < 0) {
            throw malformed("bad \\u escape");
          }
          v = (v << 4) | d;
        }
        return v;
      }
      default:
        throw malformed("bad escape \\" + (char) b);
    }
  }

  final void skipString() {
    if (peek() != '"') {
      throw malformed("expected a string");
    }
    pos++;
    while (true) {
      while (pos < end) {
        int b = buf[pos] & 0xff;
        if (b == '"' || b == '\\' || b < 0x20) {
          break;
        }
        pos++;
      }
      if (pos >= end) {
        throw malformed("unterminated string");
      }
      int b = buf[pos] & 0xff;
      if (b == '"') {
        pos++;
        return;
      }
      if (b < 0x20) {
        throw malformed("raw control character in a string");
      }
      pos++;
      readEscape();
    }
  }

  final void skipValue(int depth) {
    if (depth > MAX_DEPTH) {
      throw malformed("nested deeper than " + MAX_DEPTH + " levels");
    }
    int c = peek();
    switch (c) {
      case '{':
        if (openObject()) {
          do {
            skipString();
            expect(':');
            skipValue(depth + 1);
          } while (more('}'));
        }
        return;
      case '[':
        if (openArray()) {
          do {
            skipValue(depth + 1);
          } while (more(']'));
        }
        return;
      case '"':
        skipString();
        return;
      case 't':
        literal("true");
        return;
      case 'f':
        literal("false");
        return;
      case 'n':
        literal("null");
        return;
      default:
        if (c == '-' || (c >= '0' && c <= '9')) {
          skipNumber();
          return;
        }
        throw malformed(c < 0 ? "unexpected end of input" : "unexpected character");
    }
  }

  private void literal(String word) {
    if (end - pos < word.length()) {
      throw malformed("unexpected end of input");
    }
    for (int i = 0; i < word.length(); i++) {
      if (buf[pos + i] != word.charAt(i)) {
        throw malformed("unexpected character");
      }
    }
    pos += word.length();
  }

  private void skipNumber() {
    if (buf[pos] == '-') {
      pos++;
    }
    if (pos < end && buf[pos] == '0') {
      pos++;
    } else if (!digits()) {
      throw malformed("bad number");
    }
    if (pos < end && buf[pos] == '.') {
      pos++;
      if (!digits()) {
        throw malformed("bad number");
      }
    }
    if (pos < end && (buf[pos] == 'e' || buf[pos] == 'E')) {
      pos++;
      if (pos < end && (buf[pos] == '+' || buf[pos] == '-')) {
        pos++;
      }
      if (!digits()) {
        throw malformed("bad number");
      }
    }
  }

  private boolean digits() {
    int start = pos;
    while (pos < end && buf[pos] >= '0' && buf[pos] <= '9') {
      pos++;
    }
    return pos > start;
  }

  /** Checks that only whitespace remains. */
  final void expectEnd() {
    if (peek() != -1) {
      throw malformed("unexpected content after the JSON value");
    }
  }

  final TetherException malformed(String what) {
    return TetherException.of(ErrorCode.MALFORMED_FRAME,
        "frame is not valid JSON: " + what + " at byte " + (pos - base));
  }
}
