package dev.tether.images.internal;

import java.util.Arrays;

/**
 * Checks standard base64 (RFC 4648 alphabet, optional {@code =} padding, nothing else) as it
 * streams past, without decoding it: it counts symbols, remembers the first 16 (enough for 12
 * decoded bytes, the longest image signature), and tracks padding.
 *
 * <p>{@link #feed} consumes the longest valid prefix of a range and returns where it stopped;
 * the caller decides what the stopping byte means (the closing quote of a JSON string, a JSON
 * escape, or an error). Not thread-safe; {@link #reset()} makes an instance reusable, so the hot
 * path allocates nothing.
 */
public final class Base64Check {
  /** Symbol values, or -1 outside the standard alphabet. */
  static final byte[] DECODE = new byte[256];

  static {
    Arrays.fill(DECODE, (byte) -1);
    String alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    for (int i = 0; i < alphabet.length(); i++) {
      DECODE[alphabet.charAt(i)] = (byte) i;
    }
  }

  private static final int HEAD_SYMBOLS = 16;

  private long symbols;
  private int padding;
  private final byte[] head = new byte[HEAD_SYMBOLS];

  public void reset() {
    symbols = 0;
    padding = 0;
  }

  /**
   * Consumes bytes from {@code from} while they are valid here, and returns the index of the first
   * byte it did not consume ({@code to} when it consumed all).
   */
  public int feed(byte[] buf, int from, int to) {
    int i = from;
    if (padding == 0) {
      while (i < to && DECODE[buf[i] & 0xff] >= 0) {
        i++;
      }
      if (symbols < HEAD_SYMBOLS) {
        int n = (int) Math.min(HEAD_SYMBOLS - symbols, i - from);
        System.arraycopy(buf, from, head, (int) symbols, n);
      }
      symbols += i - from;
    }
    while (i < to && buf[i] == '=' && padding < 2) {
      padding++;
      i++;
    }
    return i;
  }

  /** Feeds one character (from a JSON escape or a String); returns whether it was consumed. */
  public boolean feed(int c) {
    if (c < 0 || c > 0xff) {
      return false;
    }
    byte[] one = {(byte) c};
    return feed(one, 0, 1) == 1;
  }

  /** Null when the text so far ends well-formed; otherwise why it does not. */
  public String problemAtEnd() {
    if (symbols == 0) {
      return padding == 0 ? "data is empty" : "data is only padding";
    }
    long rem = symbols % 4;
    if (rem == 1) {
      return "data has " + symbols + " base64 symbols, which no byte count encodes (it looks truncated)";
    }
    if (padding > 0 && (rem == 0 || (rem + padding) % 4 != 0)) {
      return "data has the wrong amount of '=' padding at its end";
    }
    return null;
  }

  /** Why {@code c} stopped the scan, at {@code position} within the data. */
  public String problemAt(int c, long position) {
    String at = " at character " + position;
    if (padding > 0 && DECODE[c & 0xff] >= 0) {
      return "data continues after its '=' padding" + at;
    }
    if (c == '=') {
      return "data has more than two '=' padding characters" + at;
    }
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
      return "data contains whitespace" + at + "; remove line breaks and spaces (Images.normalizeBase64 does this)";
    }
    if (c == '-' || c == '_') {
      return "data uses the URL-safe alphabet ('" + (char) c + "')" + at + "; use standard base64 with '+' and '/'";
    }
    return "data contains a character outside the base64 alphabet" + at;
  }

  /** The number of base64 symbols so far, padding excluded. */
  public long symbols() {
    return symbols;
  }

  /** The position of the next character within the data (symbols plus padding). */
  public long position() {
    return symbols + padding;
  }

  /** The decoded length of what was fed, assuming it is well-formed. */
  public long decodedLength() {
    return symbols / 4 * 3 + Math.max(0, symbols % 4 - 1);
  }

  /** Decodes up to the first 12 bytes into {@code out}; returns how many. */
  public int decodeHead(byte[] out) {
    int n = (int) Math.min(symbols, HEAD_SYMBOLS);
    int bytes = 0;
    int acc = 0;
    int bits = 0;
    for (int i = 0; i < n; i++) {
      acc = (acc << 6) | DECODE[head[i] & 0xff];
      bits += 6;
      if (bits >= 8) {
        bits -= 8;
        out[bytes++] = (byte) (acc >> bits);
        acc &= (1 << bits) - 1;
      }
    }
    return bytes;
  }
}
