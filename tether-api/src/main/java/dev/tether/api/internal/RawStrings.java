package dev.tether.api.internal;

import com.fasterxml.jackson.core.JsonParser;
import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * Not API. Large string values (image base64) taken from the bytes a parser reads, not through the
 * parser's text buffer, which would hold each one as a char array before copying it into a String:
 * one Latin-1 copy instead of about four times the string's size. Stateless.
 */
public final class RawStrings {
  private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
  private static final long ONES = 0x0101010101010101L;
  private static final long HIGHS = 0x8080808080808080L;
  private static final long QUOTES = ONES * '"';
  private static final long BACKSLASHES = ONES * '\\';
  private static final long SPACES = ONES * ' ';

  private RawStrings() {}

  /**
   * The text of the string value the parser stands on, which must be a parser created over
   * {@code bytes[base, limit)}; the parser is moved on to the next token. Plain ASCII without
   * escapes (all that base64 can be) is one Latin-1 copy from {@code bytes}; anything else is the
   * parser's own text, so the result is always the string's JSON text.
   */
  public static String text(JsonParser p, byte[] bytes, int base, int limit) throws IOException {
    String s = value(p, bytes, base, limit);
    p.nextToken(); // the parser skips the string (and rejects what JSON does not allow in one)
    return s;
  }

  /**
   * The same text as {@link #text}, but the parser stays on the string: its next move skips it
   * (and rejects what JSON does not allow in one, such as a raw control character).
   */
  public static String value(JsonParser p, byte[] bytes, int base, int limit) throws IOException {
    if (p instanceof PlainStringParser plain) {
      // printable ASCII up to the quote: one scan, and the parser is already past the string
      String s = plain.takePlainString();
      if (s != null) {
        return s;
      }
    }
    int start = base + (int) p.currentTokenLocation().getByteOffset() + 1;
    int end = plainEnd(bytes, start, limit);
    return end < limit && bytes[end] == '"'
        ? new String(bytes, start, end - start, StandardCharsets.ISO_8859_1)
        : p.getText();
  }

  /**
   * The index of the first byte in {@code bytes[from, limit)} that is a quote, a backslash or
   * above 0x7F, or {@code limit}: eight bytes per step, since the string can be megabytes long.
   */
  public static int plainEnd(byte[] bytes, int from, int limit) {
    int i = from;
    for (; i + 8 <= limit; i += 8) {
      long x = (long) LONGS.get(bytes, i);
      long quote = x ^ QUOTES;
      long backslash = x ^ BACKSLASHES;
      // a zero byte in quote or backslash, or a high bit in x (the classic has-zero-byte test)
      long hit = ((quote - ONES) & ~quote | (backslash - ONES) & ~backslash | x) & HIGHS;
      if (hit != 0) {
        break;
      }
    }
    for (; i < limit; i++) {
      byte b = bytes[i];
      if (b == '"' || b == '\\' || b < 0) {
        return i;
      }
    }
    return limit;
  }

  /**
   * The index of the first byte in {@code bytes[from, limit)} that is a quote, a backslash, below
   * 0x20 (a control character, which JSON does not allow raw in a string) or above 0x7F, or {@code
   * limit}: eight bytes per step.
   */
  public static int printableEnd(byte[] bytes, int from, int limit) {
    int i = from;
    for (; i + 8 <= limit; i += 8) {
      long x = (long) LONGS.get(bytes, i);
      long quote = x ^ QUOTES;
      long backslash = x ^ BACKSLASHES;
      // as plainEnd, plus a byte below 0x20 (the classic has-less-than test)
      long hit = ((quote - ONES) & ~quote | (backslash - ONES) & ~backslash | (x - SPACES) & ~x | x) & HIGHS;
      if (hit != 0) {
        break;
      }
    }
    for (; i < limit; i++) {
      byte b = bytes[i];
      if (b == '"' || b == '\\' || b < 0x20) {
        return i;
      }
    }
    return limit;
  }
}
