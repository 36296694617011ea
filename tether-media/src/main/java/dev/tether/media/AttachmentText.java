package dev.tether.media;

import java.util.Objects;

/**
 * A window of an attachment's text, as {@code read_attachment} returns it. Offsets count Unicode
 * code points (a character outside the Basic Multilingual Plane, such as an emoji, counts once).
 * Immutable.
 *
 * @param fileName the attachment read
 * @param text the characters in the window
 * @param offset the code-point offset the window starts at
 * @param totalChars the code points in the whole file
 */
public record AttachmentText(String fileName, String text, long offset, long totalChars) {
  public AttachmentText {
    Objects.requireNonNull(fileName, "fileName");
    Objects.requireNonNull(text, "text");
  }

  /** The offset just after the window, where the next read continues. */
  public long nextOffset() {
    return Math.min(totalChars, offset + text.codePointCount(0, text.length()));
  }

  /** Whether characters remain after the window. */
  public boolean hasMore() {
    return nextOffset() < totalChars;
  }

  /**
   * The text for a tool result: the window, and when more remains, a last line saying how much
   * and which offset reads on.
   */
  public String toolText() {
    if (!hasMore()) {
      return text;
    }
    long remaining = totalChars - nextOffset();
    return text + "\n(" + remaining + " more characters in " + fileName + "; read on with offset " + nextOffset() + ")";
  }
}
