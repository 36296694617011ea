package dev.tether.api;

import dev.tether.api.internal.WireRules;

/**
 * Rejects unpaired UTF-16 surrogate escapes ({@code "\ud800"}, a lone {@code "\udc00"}, a high
 * escape followed by anything but a low one) anywhere in a JSON text (RFC 7493, I-JSON).
 *
 * <p>Jackson decodes such escapes without complaint, and skips the payload without decoding it
 * at all, so the codec looks for them itself in one pass over the bytes. In valid JSON a
 * backslash occurs only inside strings and always starts an escape, so looking at every
 * backslash and the escape after it needs no string tracking; syntax errors are left to the
 * parser. The validator in tether-images applies the same rule in its own scanner, with the same
 * message ({@link WireRules#LONE_SURROGATE}).
 */
final class SurrogateEscapes {
  private SurrogateEscapes() {}

  /**
   * @throws TetherException {@link ErrorCode#MALFORMED_FRAME} at the first unpaired surrogate
   *     escape in {@code bytes[offset, offset + length)}
   */
  static void check(byte[] bytes, int offset, int length) {
    int end = offset + length;
    int i = offset;
    while (i < end) {
      if (bytes[i] != '\\') {
        i++;
        continue;
      }
      if (i + 1 >= end || bytes[i + 1] != 'u') {
        i += 2; // a two-byte escape such as \\ or \"; the parser judges the rest
        continue;
      }
      int unit = hex4(bytes, i + 2, end);
      if (WireRules.isHighSurrogate(unit)) {
        int low = i + 7 < end && bytes[i + 6] == '\\' && bytes[i + 7] == 'u' ? hex4(bytes, i + 8, end) : -1;
        if (!WireRules.isLowSurrogate(low)) {
          throw lone(i - offset);
        }
        i += 12;
      } else if (WireRules.isLowSurrogate(unit)) {
        throw lone(i - offset);
      } else {
        i += 6;
      }
    }
  }

  private static TetherException lone(int at) {
    return TetherException.of(ErrorCode.MALFORMED_FRAME, WireRules.LONE_SURROGATE + " at byte " + at);
  }

  /** The four hex digits at {@code from}, or -1 when they are not there (the parser reports it). */
  private static int hex4(byte[] bytes, int from, int end) {
    if (end - from < 4) {
      return -1;
    }
    int v = 0;
    for (int k = from; k < from + 4; k++) {
      int d = Character.digit(bytes[k], 16);
      if (d < 0) {
        return -1;
      }
      v = (v << 4) | d;
    }
    return v;
  }
}
