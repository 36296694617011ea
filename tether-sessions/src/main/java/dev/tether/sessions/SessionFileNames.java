package dev.tether.sessions;

import dev.tether.api.SessionKey;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Optional;

/**
 * Maps a {@link SessionKey} to a file name that no other key maps to, on case-sensitive and
 * case-insensitive file systems alike.
 *
 * <p>Each part is escaped by UTF-16 unit: {@code a-z 0-9 _ -} stay as they are, any other unit
 * below U+0100 becomes {@code %XX} and any other unit {@code %uXXXX} (upper-case hex). The name
 * is {@code esc(channel) ~ esc(id) .jsonl}. Since {@code ~} and {@code %} are always escaped, the
 * one {@code ~} splits the name unambiguously and {@link #decode} inverts it, which proves that
 * the mapping is injective; since no literal upper-case letter survives escaping, folding case
 * keeps it injective. Lone surrogates are escaped like any unit, so no two strings share a name.
 *
 * <p>A name that would be longer than {@value #MAX_PLAIN_LENGTH} characters becomes
 * {@code prefix ~~ sha256-hex .jsonl}: a readable escaped prefix of the channel and the SHA-256
 * of the plain name. Plain names never contain {@code ~~}, so the two forms never meet.
 */
final class SessionFileNames {
  static final String SUFFIX = ".jsonl";
  static final int MAX_PLAIN_LENGTH = 200;
  private static final int PREFIX_LENGTH = 60;
  private static final char[] HEX = "0123456789ABCDEF".toCharArray();

  private SessionFileNames() {}

  static String fileName(SessionKey key) {
    String plain = escape(key.channel()) + "~" + escape(key.id());
    if (plain.length() + SUFFIX.length() <= MAX_PLAIN_LENGTH) {
      return plain + SUFFIX;
    }
    String prefix = escape(key.channel());
    int cut = Math.min(prefix.length(), PREFIX_LENGTH);
    while (cut > 0 && cut < prefix.length() && isInsideEscape(prefix, cut)) {
      cut--;
    }
    return prefix.substring(0, cut) + "~~" + sha256Hex(plain) + SUFFIX;
  }

  /** The key a plain file name stands for; empty for hashed names and names this class never makes. */
  static Optional<SessionKey> decode(String fileName) {
    if (!fileName.endsWith(SUFFIX)) {
      return Optional.empty();
    }
    String plain = fileName.substring(0, fileName.length() - SUFFIX.length());
    int tilde = plain.indexOf('~');
    if (tilde < 0 || plain.indexOf('~', tilde + 1) >= 0) {
      return Optional.empty();
    }
    String channel = unescape(plain.substring(0, tilde));
    String id = unescape(plain.substring(tilde + 1));
    return channel == null || id == null ? Optional.empty() : Optional.of(new SessionKey(channel, id));
  }

  static String escape(String s) {
    StringBuilder sb = new StringBuilder(s.length() + 8);
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-') {
        sb.append(c);
      } else if (c < 0x100) {
        sb.append('%').append(HEX[c >> 4]).append(HEX[c & 0xf]);
      } else {
        sb.append("%u").append(HEX[c >> 12]).append(HEX[(c >> 8) & 0xf]).append(HEX[(c >> 4) & 0xf]).append(HEX[c & 0xf]);
      }
    }
    return sb.toString();
  }

  /** The inverse of {@link #escape}, or null when {@code s} is not something escape produces. */
  static String unescape(String s) {
    StringBuilder sb = new StringBuilder(s.length());
    for (int i = 0; i < s.length(); ) {
      char c = s.charAt(i);
      if (c != '%') {
        if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-')) {
          return null;
        }
        sb.append(c);
        i++;
        continue;
      }
      boolean wide = i + 1 < s.length() && s.charAt(i + 1) == 'u';
      int digits = wide ? 4 : 2;
      int from = i + (wide ? 2 : 1);
      if (from + digits > s.length()) {
        return null;
      }
      int value = 0;
      for (int k = from; k < from + digits; k++) {
        int d = Character.digit(s.charAt(k), 16);
        if (d < 0 || Character.isLowerCase(s.charAt(k))) {
          return null;
        }
        value = value * 16 + d;
      }
      if (wide == (value < 0x100)) {
        return null; // not the shortest form escape() would write
      }
      char decoded = (char) value;
      if ((decoded >= 'a' && decoded <= 'z') || (decoded >= '0' && decoded <= '9') || decoded == '_' || decoded == '-') {
        return null; // escape() never escapes these
      }
      sb.append(decoded);
      i = from + digits;
    }
    return sb.toString();
  }

  private static boolean isInsideEscape(String escaped, int index) {
    int percent = escaped.lastIndexOf('%', index - 1);
    if (percent < 0) {
      return false;
    }
    int length = escaped.length() > percent + 1 && escaped.charAt(percent + 1) == 'u' ? 6 : 3;
    return index < percent + length;
  }

  private static String sha256Hex(String s) {
    try {
      byte[] digest = MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(digest);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java runtime has SHA-256", e);
    }
  }
}
