package dev.tether.api.internal;

/**
 * Not API. Copies a String's characters into bytes a chunk at a time, telling whether they were
 * all ASCII, so that base64 text held as a String can be checked or decoded without a copy of the
 * whole text ({@code getBytes}) or a call per character ({@code charAt}). Stateless.
 */
public final class AsciiChars {
  private AsciiChars() {}

  /**
   * Copies {@code s[from, to)} into {@code dst[0, to - from)}, each character narrowed to its low
   * byte, through {@code scratch} (at least {@code to - from} long).
   *
   * @return whether every character was below 0x80; when not, {@code dst} must not be trusted and
   *     the caller looks at the characters one by one
   */
  public static boolean copy(String s, int from, int to, char[] scratch, byte[] dst) {
    int n = to - from;
    s.getChars(from, to, scratch, 0); // a bulk inflate for Latin-1 strings
    int seen = 0;
    for (int i = 0; i < n; i++) {
      char c = scratch[i];
      seen |= c;
      dst[i] = (byte) c;
    }
    return seen < 0x80;
  }
}
