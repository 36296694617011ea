package dev.tether.media;

import dev.tether.media.internal.MediaText;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The text that stands for a piece of media in a message, so that an agent sees what it is and
 * can fetch it by reference:
 *
 * <pre>{@code [Image: sunset.jpg, 2.4MB, image/jpeg, ref:wa_3EB0A1B2] Beautiful sunset}</pre>
 *
 * <p><b>Format.</b> {@code [}, the kind's label, {@code ": "}, the present parts among name,
 * size and MIME type joined by {@code ", "}, then {@code ref:} and the id, {@code ]}, and when
 * there is a caption a space and the caption.
 *
 * <p><b>Sizes</b> are decimal, as the spec's examples read: 1 KB = 1000 bytes, 1 MB = 1000 KB, up
 * to EB. Below 1000 bytes the exact count and {@code B} ({@code 999B}); otherwise the largest unit
 * that keeps the value at least 1, one decimal below 10 and none from 10 on, rounded half-up, a
 * trailing {@code .0} dropped, and a value that rounds to 1000 moving up a unit: 2,400,000 bytes
 * is {@code 2.4MB}, 847,000 is {@code 847KB}, 2,000,000 is {@code 2MB}, 999,500 is {@code 1MB}.
 * Parsing also accepts lower case and a space before the unit ({@code 12 kb});
 * {@link #sizeBytes()} gives the approximate byte count.
 *
 * <p><b>Parsing</b> tolerates missing parts: the last part must be {@code ref:<id>}; before it,
 * a part that reads as a MIME type is the type, one before that which reads as a size is the
 * size, and whatever remains is the name ({@code [Voice: 12s, audio/ogg, ref:tg_AgACAgI]} has the
 * name {@code 12s}). {@code parse(p.format())} equals {@code p} for every placeholder.
 *
 * <p><b>Hostile text.</b> The constructor neutralises what could forge a placeholder: in the
 * caption and the name, {@code [} and {@code ]} become {@code (} and {@code )}; in the name,
 * commas become semicolons, slashes and backslashes become {@code _}, control characters become
 * spaces, surrounding space is trimmed, and a name that would read as a size gets a trailing
 * {@code _}. So a caption or file name can never contain a second placeholder, and
 * {@link #findAll} finds only the real ones. Channels should pass any other user text through
 * {@link #neutralise} before mixing it with placeholders.
 *
 * @param kind the kind of media
 * @param name the file name (or another short descriptor, such as a voice note's length), or null
 * @param size the human size as written ({@code 2.4MB}), or null
 * @param mimeType the MIME type, or null
 * @param ref the reference id to fetch with
 * @param caption the caption, empty when none
 */
public record MediaPlaceholder(MediaKind kind, String name, String size, String mimeType, String ref, String caption) {
  /** The longest text between the brackets that {@link #parse} and {@link #findAll} consider. */
  static final int MAX_INNER_LENGTH = 16 * 1024;

  public MediaPlaceholder {
    Objects.requireNonNull(kind, "kind");
    name = neutraliseName(name);
    if (size != null) {
      size = size.strip();
      if (!MediaSizes.isSize(size)) {
        throw new IllegalArgumentException("size must read like 2.4MB or 847KB but was '" + MediaText.excerpt(size) + "'");
      }
    }
    mimeType = mimeType == null ? null : mimeType.strip();
    if (mimeType != null && !MediaText.isMimeType(mimeType)) {
      throw new IllegalArgumentException("mimeType must look like type/subtype but was '"
          + MediaText.excerpt(mimeType) + "'");
    }
    Objects.requireNonNull(ref, "ref");
    if (!MediaText.isToken(ref, MediaReference.MAX_ID_LENGTH)) {
      throw new IllegalArgumentException("ref must be 1 to " + MediaReference.MAX_ID_LENGTH
          + " of A-Z a-z 0-9 . _ - but was '" + MediaText.excerpt(ref) + "'");
    }
    caption = neutralise(Objects.requireNonNull(caption, "caption"));
  }

  /** The placeholder for a registered reference: its file name, human size, MIME type and caption. */
  public static MediaPlaceholder of(MediaReference ref) {
    return new MediaPlaceholder(ref.kind(), ref.fileName(), ref.size() >= 0 ? MediaSizes.human(ref.size()) : null,
        ref.mimeType(), ref.id(), ref.caption());
  }

  /** The approximate size in bytes that {@link #size()} reads as, or empty when there is none. */
  public OptionalLong sizeBytes() {
    return size == null ? OptionalLong.empty() : MediaSizes.parse(size);
  }

  /** The placeholder text, followed by a space and the caption when there is one. */
  public String format() {
    StringBuilder sb = new StringBuilder().append('[').append(kind.label()).append(": ");
    for (String part : new String[] {name, size, mimeType}) {
      if (part != null) {
        sb.append(part).append(", ");
      }
    }
    sb.append("ref:").append(ref).append(']');
    if (!caption.isEmpty()) {
      sb.append(' ').append(caption);
    }
    return sb.toString();
  }

  @Override
  public String toString() {
    return format();
  }

  /**
   * The placeholder that {@code text} starts with, the rest of the text (after one optional
   * space) being its caption; empty when {@code text} does not start with a placeholder.
   */
  public static Optional<MediaPlaceholder> parse(String text) {
    Objects.requireNonNull(text, "text");
    Head head = headAt(text, 0);
    return head == null ? Optional.empty() : Optional.of(head.withCaption(captionOf(text, head.end, text.length())));
  }

  /**
   * Every placeholder in {@code text}, in order. Each caption runs to the next placeholder (or
   * the end), without the single space after the bracket.
   */
  public static List<MediaPlaceholder> findAll(String text) {
    Objects.requireNonNull(text, "text");
    List<Head> heads = new ArrayList<>();
    int i = text.indexOf('[');
    while (i >= 0) {
      Head head = headAt(text, i);
      if (head != null) {
        heads.add(head);
        i = text.indexOf('[', head.end);
      } else {
        i = text.indexOf('[', i + 1);
      }
    }
    List<MediaPlaceholder> found = new ArrayList<>(heads.size());
    for (int h = 0; h < heads.size(); h++) {
      int captionEnd = h + 1 < heads.size() ? heads.get(h + 1).start : text.length();
      found.add(heads.get(h).withCaption(captionOf(text, heads.get(h).end, captionEnd)));
    }
    return found;
  }

  /** {@code text} with {@code [} and {@code ]} replaced by {@code (} and {@code )}, so it holds no placeholder. */
  public static String neutralise(String text) {
    return text.indexOf('[') < 0 && text.indexOf(']') < 0 ? text : text.replace('[', '(').replace(']', ')');
  }

  private static String neutraliseName(String name) {
    if (name == null) {
      return null;
    }
    StringBuilder sb = new StringBuilder(name.length());
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      sb.append(switch (c) {
        case '[' -> '(';
        case ']' -> ')';
        case ',' -> ';';
        case '/', '\\' -> '_';
        default -> Character.isISOControl(c) || c == '\u2028' || c == '\u2029' ? ' ' : c;
      });
    }
    String s = sb.toString().strip();
    if (s.isEmpty()) {
      return null;
    }
    return MediaSizes.isSize(s) ? s + "_" : s;
  }

  private static String captionOf(String text, int from, int to) {
    if (from < to && text.charAt(from) == ' ') {
      from++;
    }
    return text.substring(from, to);
  }

  /** A parsed placeholder without its caption, and where it starts and ends in the text. */
  private record Head(int start, int end, MediaKind kind, String name, String size, String mimeType, String ref) {
    MediaPlaceholder withCaption(String caption) {
      return new MediaPlaceholder(kind, name, size, mimeType, ref, caption);
    }
  }

  /** The placeholder whose {@code [} is at {@code start}, or null. Stops at the next bracket or line break. */
  private static Head headAt(String text, int start) {
    if (start >= text.length() || text.charAt(start) != '[') {
      return null;
    }
    int close = -1;
    int limit = (int) Math.min(text.length(), (long) start + 1 + MAX_INNER_LENGTH + 1);
    for (int i = start + 1; i < limit; i++) {
      char c = text.charAt(i);
      if (c == ']') {
        close = i;
        break;
      }
      if (c == '[' || c == '\n' || c == '\r') {
        return null;
      }
    }
    if (close < 0) {
      return null;
    }
    String inner = text.substring(start + 1, close);
    int colon = inner.indexOf(':');
    if (colon < 0) {
      return null;
    }
    MediaKind kind = MediaKind.parse(inner.substring(0, colon).strip()).orElse(null);
    if (kind == null) {
      return null;
    }
    List<String> parts = new ArrayList<>(List.of(inner.substring(colon + 1).split(",", -1)));
    parts.replaceAll(String::strip);
    String last = parts.remove(parts.size() - 1);
    if (!last.regionMatches(true, 0, "ref:", 0, 4)) {
      return null;
    }
    String ref = last.substring(4).strip();
    if (!MediaText.isToken(ref, MediaReference.MAX_ID_LENGTH)) {
      return null;
    }
    String mimeType = null;
    if (!parts.isEmpty() && MediaText.isMimeType(parts.get(parts.size() - 1))) {
      mimeType = parts.remove(parts.size() - 1);
    }
    String size = null;
    if (!parts.isEmpty() && MediaSizes.isSize(parts.get(parts.size() - 1))) {
      size = parts.remove(parts.size() - 1);
    }
    String name = parts.isEmpty() ? null : String.join(", ", parts);
    return new Head(start, close + 1, kind, name, size, mimeType, ref);
  }
}
