package dev.tether.sessions;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The JSON pieces of {@link CanonicalLineReader}: strings, integers and raw values read from bytes
 * only where they are in the form the codec's generator writes, else {@link Decline}. Whatever it
 * accepts, the strict Jackson reading accepts with the same result: strings are decoded from
 * strictly valid UTF-8 (no overlong forms, no encoded surrogates) with the JSON escapes Jackson
 * knows; a raw value is accepted only when it is already byte for byte what Jackson's
 * {@code copyCurrentStructure} would write for it. Not thread-safe: one instance per reading thread.
 */
final class CanonicalJson {
  /** The line is not in the canonical form: the strict reading takes it. Shared, without a stack trace. */
  static final class Decline extends RuntimeException {
    static final Decline INSTANCE = new Decline();

    private Decline() {
      super("not in the canonical form", null, false, false);
    }
  }

  /** Deeper raw values (tool inputs) than this are left to the strict reading. */
  static final int MAX_RAW_DEPTH = 32;
  /** Objects in raw values with more keys than this are left to the strict reading (duplicate check). */
  static final int MAX_RAW_KEYS = 32;
  /** Longer integers than this are left to the strict reading (a long holds 18 digits). */
  private static final int MAX_DIGITS = 18;

  private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
  private static final long ONES = 0x0101010101010101L;
  private static final long HIGHS = 0x8080808080808080L;
  private static final long QUOTES = ONES * '"';
  private static final long BACKSLASHES = ONES * '\\';
  private static final long SPACES = ONES * 0x20;

  byte[] b;
  int pos;
  int end;
  private char[] chars = new char[128];
  private final int[] keys = new int[MAX_RAW_DEPTH * MAX_RAW_KEYS * 2];

  void reset(byte[] bytes, int from, int to) {
    b = bytes;
    pos = from;
    end = to;
  }

  static Decline decline() {
    return Decline.INSTANCE;
  }

  /** Consumes {@code literal} or declines. */
  void expect(byte[] literal) {
    if (!consume(literal)) {
      throw decline();
    }
  }

  /** Whether {@code literal} is next; consumed if so. */
  boolean consume(byte[] literal) {
    int n = literal.length;
    if (end - pos < n) {
      return false;
    }
    for (int i = 0; i < n; i++) { // literals are short: a plain loop beats Arrays.equals' set-up
      if (b[pos + i] != literal[i]) {
        return false;
      }
    }
    pos += n;
    return true;
  }

  void expect(char c) {
    if (pos >= end || b[pos] != c) {
      throw decline();
    }
    pos++;
  }

  boolean consume(char c) {
    if (pos < end && b[pos] == c) {
      pos++;
      return true;
    }
    return false;
  }

  /** A string value (the parser on its opening quote) as Jackson decodes it. */
  String string() {
    expect('"');
    int start = pos;
    boolean ascii = true;
    while (true) {
      pos = plainEnd(pos);
      if (pos >= end) {
        throw decline();
      }
      int c = b[pos];
      if (c == '"') {
        break;
      }
      if (c == '\\') {
        return escaped(start);
      }
      if (c < 0) {
        ascii = false;
        pos = utf8(pos);
      } else {
        throw decline(); // a control character, which JSON strings may not hold raw
      }
    }
    int n = pos - start;
    pos++;
    return new String(b, start, n, ascii ? StandardCharsets.ISO_8859_1 : StandardCharsets.UTF_8);
  }

  /**
   * The index of the first byte from {@code i} that is a quote, a backslash, a control character
   * or above 0x7F, or {@link #end}: eight bytes per step over the plain run between them.
   */
  private int plainEnd(int i) {
    for (; i + 8 <= end; i += 8) {
      long x = (long) LONGS.get(b, i);
      long quote = x ^ QUOTES;
      long backslash = x ^ BACKSLASHES;
      // a zero byte in quote or backslash, a byte below 0x20, or a high bit (the has-zero-byte test;
      // its lowest hit is exact, which is the one taken)
      long hit = ((quote - ONES) & ~quote | (backslash - ONES) & ~backslash | (x - SPACES) & ~x | x) & HIGHS;
      if (hit != 0) {
        return i + (Long.numberOfTrailingZeros(hit) >>> 3);
      }
    }
    while (i < end) {
      int c = b[i];
      if (c == '"' || c == '\\' || c < 0x20) { // c < 0 for bytes above 0x7F
        return i;
      }
      i++;
    }
    return i;
  }

  /** The rest of a string with escapes, from its first character at {@code start}. */
  private String escaped(int start) {
    int n = 0;
    pos = start;
    while (true) {
      if (pos >= end) {
        throw decline();
      }
      if (n + 2 > chars.length) {
        chars = Arrays.copyOf(chars, chars.length * 2);
      }
      int c = b[pos];
      if (c == '"') {
        pos++;
        return new String(chars, 0, n);
      }
      if (c == '\\') {
        chars[n++] = unescape();
      } else if (c < 0) {
        int next = utf8(pos);
        String s = new String(b, pos, next - pos, StandardCharsets.UTF_8); // one code point: 1 or 2 chars
        for (int i = 0; i < s.length(); i++) {
          chars[n++] = s.charAt(i);
        }
        pos = next;
      } else if (c < 0x20) {
        throw decline();
      } else {
        chars[n++] = (char) c;
        pos++;
      }
    }
  }

  /** One escape, the parser on its backslash. */
  private char unescape() {
    if (end - pos < 2) {
      throw decline();
    }
    int e = b[pos + 1];
    pos += 2;
    switch (e) {
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
          throw decline();
        }
        int v = 0;
        for (int i = 0; i < 4; i++) {
          int d = Character.digit(b[pos + i], 16);
          if (d < 0) {
            throw decline();
          }
          v = v << 4 | d;
        }
        pos += 4;
        return (char) v;
      }
      default:
        throw decline();
    }
  }

  /**
   * The index after the strictly valid UTF-8 sequence of two to four bytes at {@code i} (RFC 3629:
   * no overlong forms, no surrogates, nothing past U+10FFFF), or decline.
   */
  private int utf8(int i) {
    int c = b[i] & 0xff;
    int n;
    int lo = 0x80;
    int hi = 0xbf;
    if (c >= 0xc2 && c <= 0xdf) {
      n = 1;
    } else if (c >= 0xe0 && c <= 0xef) {
      n = 2;
      if (c == 0xe0) {
        lo = 0xa0;
      } else if (c == 0xed) {
        hi = 0x9f;
      }
    } else if (c >= 0xf0 && c <= 0xf4) {
      n = 3;
      if (c == 0xf0) {
        lo = 0x90;
      } else if (c == 0xf4) {
        hi = 0x8f;
      }
    } else {
      throw decline();
    }
    if (end - i <= n) {
      throw decline();
    }
    int second = b[i + 1] & 0xff;
    if (second < lo || second > hi) {
      throw decline();
    }
    for (int k = 2; k <= n; k++) {
      int cont = b[i + k] & 0xff;
      if (cont < 0x80 || cont > 0xbf) {
        throw decline();
      }
    }
    return i + n + 1;
  }

  /** A non-negative integer without leading zeros, of at most 18 digits. */
  long natural() {
    int start = pos;
    long v = 0;
    while (pos < end && b[pos] >= '0' && b[pos] <= '9') {
      v = v * 10 + (b[pos] - '0');
      pos++;
    }
    int digits = pos - start;
    if (digits == 0 || digits > MAX_DIGITS || (digits > 1 && b[start] == '0')) {
      throw decline();
    }
    return v;
  }

  /**
   * Skips one JSON value that is already in the generator's canonical form (no whitespace,
   * integers only, strings without {@code \\u} or {@code \\/} escapes, no duplicate keys) and
   * returns where it ends; anything else declines.
   */
  int rawValue() {
    rawValue(0);
    return pos;
  }

  private void rawValue(int depth) {
    if (pos >= end) {
      throw decline();
    }
    int c = b[pos];
    switch (c) {
      case '{' -> rawObject(depth + 1);
      case '[' -> rawArray(depth + 1);
      case '"' -> rawString();
      case 't' -> expect(TRUE);
      case 'f' -> expect(FALSE);
      case 'n' -> expect(NULL);
      default -> rawInteger();
    }
  }

  private static final byte[] TRUE = {'t', 'r', 'u', 'e'};
  private static final byte[] FALSE = {'f', 'a', 'l', 's', 'e'};
  private static final byte[] NULL = {'n', 'u', 'l', 'l'};

  private void rawObject(int depth) {
    if (depth > MAX_RAW_DEPTH) {
      throw decline();
    }
    pos++;
    if (consume('}')) {
      return;
    }
    int base = (depth - 1) * MAX_RAW_KEYS * 2;
    int count = 0;
    do {
      if (count == MAX_RAW_KEYS) {
        throw decline();
      }
      int keyStart = pos;
      rawString();
      int keyEnd = pos;
      for (int k = 0; k < count; k++) {
        int s = keys[base + 2 * k];
        int e = keys[base + 2 * k + 1];
        if (Arrays.equals(b, s, e, b, keyStart, keyEnd)) {
          throw decline(); // a duplicate key: the strict reading reports it
        }
      }
      keys[base + 2 * count] = keyStart;
      keys[base + 2 * count + 1] = keyEnd;
      count++;
      expect(':');
      rawValue(depth);
    } while (consume(','));
    expect('}');
  }

  private void rawArray(int depth) {
    if (depth > MAX_RAW_DEPTH) {
      throw decline();
    }
    pos++;
    if (consume(']')) {
      return;
    }
    do {
      rawValue(depth);
    } while (consume(','));
    expect(']');
  }

  /** A string whose bytes are what the generator writes for its text. */
  private void rawString() {
    expect('"');
    while (true) {
      if (pos >= end) {
        throw decline();
      }
      int c = b[pos];
      if (c == '"') {
        pos++;
        return;
      }
      if (c == '\\') {
        if (pos + 1 >= end) {
          throw decline();
        }
        int e = b[pos + 1];
        if (e != '"' && e != '\\' && e != 'b' && e != 'f' && e != 'n' && e != 'r' && e != 't') {
          throw decline();
        }
        pos += 2;
      } else if (c < 0) {
        pos = utf8(pos);
      } else if (c < 0x20) {
        throw decline();
      } else {
        pos++;
      }
    }
  }

  /** {@code -?(0|[1-9][0-9]*)} of at most 18 digits, not {@code -0}. */
  private void rawInteger() {
    boolean negative = consume('-');
    int start = pos;
    natural();
    if (negative && pos - start == 1 && b[start] == '0') {
      throw decline();
    }
  }
}
