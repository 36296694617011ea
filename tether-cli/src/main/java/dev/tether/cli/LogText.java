package dev.tether.cli;

/**
 * The escaping of every text log line: a message or field that came from outside (a {@code msg_id},
 * a session id, a file name, an error that echoes input) is written so that it cannot end the line,
 * start a forged one, or drive the terminal. Control characters (C0 with CR, LF and TAB; DEL; C1),
 * the line and paragraph separators, the bidirectional overrides and isolates, and unpaired
 * surrogates are written as {@code \n}, {@code \r}, {@code \t} or {@code \}{@code uXXXX}; the backslash
 * itself as {@code \\}, so the form is reversible ({@link #unescape}) and two texts never print the
 * same. Everything else, including all printable Unicode, is written as it is. Stateless.
 */
final class LogText {
  private LogText() {}

  /** {@code text} with every character {@link #needsEscape} written visibly; null is {@code "null"}. */
  static String escape(CharSequence text) {
    if (text == null) {
      return "null";
    }
    int n = text.length();
    int i = 0;
    while (i < n && !needsEscape(text, i) && text.charAt(i) != '\\') {
      i++;
    }
    if (i == n) {
      return text.toString();
    }
    StringBuilder out = new StringBuilder(n + 16).append(text, 0, i);
    for (; i < n; i++) {
      char c = text.charAt(i);
      if (c == '\\') {
        out.append("\\\\");
      } else if (!needsEscape(text, i)) {
        out.append(c);
      } else if (c == '\n') {
        out.append("\\n");
      } else if (c == '\r') {
        out.append("\\r");
      } else if (c == '\t') {
        out.append("\\t");
      } else {
        out.append("\\u").append(HEX[(c >> 12) & 0xF]).append(HEX[(c >> 8) & 0xF]).append(HEX[(c >> 4) & 0xF]).append(HEX[c & 0xF]);
      }
    }
    return out.toString();
  }

  /**
   * The text {@link #escape} was given.
   *
   * @throws IllegalArgumentException when {@code escaped} is not a form {@link #escape} writes
   */
  static String unescape(String escaped) {
    StringBuilder out = new StringBuilder(escaped.length());
    for (int i = 0; i < escaped.length(); i++) {
      char c = escaped.charAt(i);
      if (c != '\\') {
        out.append(c);
        continue;
      }
      if (i + 1 >= escaped.length()) {
        throw new IllegalArgumentException("a lone backslash at the end of '" + escape(escaped) + "'");
      }
      char e = escaped.charAt(++i);
      switch (e) {
        case '\\' -> out.append('\\');
        case 'n' -> out.append('\n');
        case 'r' -> out.append('\r');
        case 't' -> out.append('\t');
        case 'u' -> {
          int value = 0;
          for (int k = 1; k <= 4; k++) {
            int digit = i + k < escaped.length() ? "0123456789abcdef".indexOf(Character.toLowerCase(escaped.charAt(i + k))) : -1;
            if (digit < 0) {
              throw new IllegalArgumentException("a \\u escape without four hex digits in '" + escape(escaped) + "'");
            }
            value = value * 16 + digit;
          }
          out.append((char) value);
          i += 4;
        }
        default -> throw new IllegalArgumentException("an unknown escape \\" + e + " in '" + escape(escaped) + "'");
      }
    }
    return out.toString();
  }

  /** Whether the character at {@code i} is one that {@link #escape} writes as an escape (the backslash aside). */
  static boolean needsEscape(CharSequence text, int i) {
    char c = text.charAt(i);
    if (c < 0x20 || (c >= 0x7F && c <= 0x9F)) {
      return true; // C0 (with TAB, LF, CR, ESC), DEL, C1 (with NEL, CSI)
    }
    if (c == 0x2028 || c == 0x2029 // line and paragraph separators
        || c == 0x061C || c == 0x200E || c == 0x200F // bidi marks
        || (c >= 0x202A && c <= 0x202E) // bidi embeddings and overrides
        || (c >= 0x2066 && c <= 0x2069)) { // bidi isolates
      return true;
    }
    if (Character.isHighSurrogate(c)) {
      return i + 1 >= text.length() || !Character.isLowSurrogate(text.charAt(i + 1));
    }
    if (Character.isLowSurrogate(c)) {
      return i == 0 || !Character.isHighSurrogate(text.charAt(i - 1));
    }
    return false;
  }

  private static final char[] HEX = "0123456789abcdef".toCharArray();
}
