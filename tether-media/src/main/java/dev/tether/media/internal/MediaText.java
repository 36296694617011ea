package dev.tether.media.internal;

import java.util.Locale;

/**
 * Small text checks shared by the media registry, placeholders and the attachment catalog:
 * identifier tokens, MIME type syntax and safe excerpts of hostile input for error messages.
 * Stateless and thread-safe.
 */
public final class MediaText {
  /** The longest MIME type accepted anywhere. */
  public static final int MAX_MIME_LENGTH = 255;

  private MediaText() {}

  /** 1 to {@code max} characters of {@code A-Z a-z 0-9 . _ -}. */
  public static boolean isToken(String s, int max) {
    if (s == null || s.isEmpty() || s.length() > max) {
      return false;
    }
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (!(isAsciiAlnum(c) || c == '.' || c == '_' || c == '-')) {
        return false;
      }
    }
    return true;
  }

  /**
   * {@code type/subtype} of RFC 7231 token characters, optionally followed by {@code ;} and
   * parameters of printable ASCII without {@code , [ ] " \}. At most {@link #MAX_MIME_LENGTH}
   * characters. This checks syntax only; no table of known types exists.
   */
  public static boolean isMimeType(String s) {
    if (s == null || s.isEmpty() || s.length() > MAX_MIME_LENGTH) {
      return false;
    }
    int slash = s.indexOf('/');
    if (slash <= 0) {
      return false;
    }
    int semi = s.indexOf(';');
    int end = semi < 0 ? s.length() : semi;
    if (slash >= end - 1) {
      return false;
    }
    for (int i = 0; i < end; i++) {
      if (i != slash && !isMimeTokenChar(s.charAt(i))) {
        return false;
      }
    }
    for (int i = end; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c < 0x20 || c > 0x7e || c == ',' || c == '[' || c == ']' || c == '"' || c == '\\') {
        return false;
      }
    }
    return true;
  }

  /** The MIME type without parameters, lower-cased: {@code Image/PNG; x=1} gives {@code image/png}. */
  public static String essence(String mimeType) {
    int semi = mimeType.indexOf(';');
    return (semi < 0 ? mimeType : mimeType.substring(0, semi)).strip().toLowerCase(Locale.ROOT);
  }

  /**
   * {@code s} with every unpaired surrogate replaced by U+FFFD, so that it encodes to valid UTF-8
   * and survives a JSON round trip; {@code s} itself when it has none.
   */
  public static String wellFormed(String s) {
    StringBuilder sb = null;
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      boolean paired = Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1));
      if (paired) {
        if (sb != null) {
          sb.append(c).append(s.charAt(i + 1));
        }
        i++;
      } else if (Character.isSurrogate(c)) {
        if (sb == null) {
          sb = new StringBuilder(s.length()).append(s, 0, i);
        }
        sb.append('\uFFFD');
      } else if (sb != null) {
        sb.append(c);
      }
    }
    return sb == null ? s : sb.toString();
  }

  /** At most 64 characters of {@code s} with control characters shown as {@code ?}, for messages. */
  public static String excerpt(String s) {
    if (s == null) {
      return "null";
    }
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < s.length() && sb.length() < 64; i++) {
      char c = s.charAt(i);
      sb.append(Character.isISOControl(c) ? '?' : c);
    }
    if (s.length() > 64) {
      sb.append("...");
    }
    return sb.toString();
  }

  private static boolean isAsciiAlnum(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
  }

  private static boolean isMimeTokenChar(char c) {
    return isAsciiAlnum(c) || "!#$%&'*+-.^_`|~".indexOf(c) >= 0;
  }
}
