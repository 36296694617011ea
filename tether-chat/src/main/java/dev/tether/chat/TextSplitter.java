package dev.tether.chat;

import java.util.ArrayList;
import java.util.List;

/**
 * Splits a text into messages of at most {@code max} UTF-16 code units, a channel's message limit
 * (Telegram's {@code sendMessage} takes 1-4096 characters).
 *
 * <p>Each cut is made at the last line break within the limit, else at the last space, else (one
 * word longer than a message) at the limit, never inside a surrogate pair. The break character
 * at a cut is dropped; nothing else is. Chunks that would be blank are dropped, because the chat
 * platforms reject an empty message. Concatenating the chunks with the dropped breaks gives back the text.
 */
public final class TextSplitter {
  private TextSplitter() {}

  /** The chunks of {@code text}, each 1..{@code max} code units; none for a blank text. */
  public static List<String> split(String text, int max) {
    if (max < 2) {
      throw new IllegalArgumentException("max must be >= 2 but was " + max);
    }
    List<String> chunks = new ArrayList<>();
    int from = 0;
    while (text.length() - from > max) {
      int limit = from + max; // exclusive end of the longest chunk
      int cut = text.lastIndexOf('\n', limit);
      if (cut <= from) {
        cut = text.lastIndexOf(' ', limit);
      }
      int next;
      if (cut > from) {
        next = cut + 1; // drop the break itself
      } else {
        cut = limit;
        if (Character.isHighSurrogate(text.charAt(cut - 1)) && Character.isLowSurrogate(text.charAt(cut))) {
          cut--;
        }
        next = cut;
      }
      add(chunks, text.substring(from, cut));
      from = next;
    }
    add(chunks, text.substring(from));
    return chunks;
  }

  private static void add(List<String> chunks, String chunk) {
    if (!chunk.isBlank()) {
      chunks.add(chunk);
    }
  }
}
