package dev.tether.client;

import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * One file stored as a session attachment on a host, as the host lists it. Immutable.
 *
 * <p>{@link #notice()} is how a producer (the console, the Telegram and coven bridges) tells the
 * agent of an attachment in the {@code user.message} text (option A of the attachment-vision
 * spec); the payload's {@code attachments} array carries the same facts as data, see
 * {@link #noticeOf}.
 *
 * @param name the stored, sanitised name the attachment tools take
 * @param mimeType the MIME type the client declared, verbatim (never guessed)
 * @param size its size in bytes
 * @param addedAt when the host stored it
 */
public record AttachmentInfo(String name, String mimeType, long size, Instant addedAt) {
  public AttachmentInfo {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(mimeType, "mimeType");
    Objects.requireNonNull(addedAt, "addedAt");
    if (size < 0) {
      throw new IllegalArgumentException("size must be >= 0 but was " + size);
    }
  }

  /** The {@code list_attachments} line: {@code - foo.py (1234 bytes, text/x-python)}. */
  public String listLine() {
    return "- " + name + " (" + size + " bytes, " + mimeType + ")";
  }

  /** The line a producer appends to the message text: {@code [Attachment: foo.py (1234 bytes, text/x-python)]}. */
  public String notice() {
    return noticeOf(name, size, mimeType);
  }

  /**
   * The {@code user.message} payload field {@code attachments} for {@code stored}: a JSON array of
   * {@code {"name","mime_type","size"}} in order.
   */
  public static String payloadJson(List<AttachmentInfo> stored) {
    StringBuilder sb = new StringBuilder("[");
    for (AttachmentInfo a : stored) {
      sb.append(sb.length() == 1 ? "" : ",").append("{\"name\":");
      quote(sb, a.name());
      sb.append(",\"mime_type\":");
      quote(sb, a.mimeType());
      sb.append(",\"size\":").append(a.size()).append('}');
    }
    return sb.append(']').toString();
  }

  private static void quote(StringBuilder sb, String s) {
    sb.append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '"' || c == '\\') {
        sb.append('\\').append(c);
      } else if (c < 0x20 || c == 0x2028 || c == 0x2029) {
        sb.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
      } else {
        sb.append(c);
      }
    }
    sb.append('"');
  }

  /**
   * {@code text} without its notice lines (whole lines of the {@link #notice()} form), for a
   * reader that wants only what the user wrote.
   */
  public static String withoutNotices(String text) {
    return NOTICE_LINE.matcher(text).replaceAll("").stripTrailing();
  }

  private static final Pattern NOTICE_LINE =
      Pattern.compile("(?m)^\\[Attachment: [^\\n]*\\(\\d+ bytes, [^\\n]*\\)\\]$\\n?");

  /** {@link #notice()} for these facts; the console writes the same line in JavaScript. */
  public static String noticeOf(String name, long size, String mimeType) {
    return "[Attachment: " + name + " (" + size + " bytes, " + mimeType + ")]";
  }
}
