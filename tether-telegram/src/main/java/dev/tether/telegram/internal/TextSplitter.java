package dev.tether.telegram.internal;

import java.util.List;

/** Telegram's message limit over the core's {@link dev.tether.chat.TextSplitter}. Stateless. */
public final class TextSplitter {
  /** The {@code sendMessage} limit. */
  public static final int MESSAGE_LIMIT = 4096;

  private TextSplitter() {}

  /** See {@link dev.tether.chat.TextSplitter#split}. */
  public static List<String> split(String text, int max) {
    return dev.tether.chat.TextSplitter.split(text, max);
  }
}
