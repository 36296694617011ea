package dev.tether.telegram.internal;

import dev.tether.chat.ChatLog;
import dev.tether.telegram.BotToken;
import java.util.Map;

/**
 * The bridge's log: the core's {@link ChatLog} named {@code dev.tether.telegram}, with every line
 * passed through {@link BotToken#redact} so that the token cannot leak through a message built
 * from a URL or an answer. Thread-safe.
 */
public final class BridgeLog {
  private final ChatLog chat;

  public BridgeLog(BotToken token) {
    this.chat = new ChatLog("dev.tether.telegram", token::redact);
  }

  /** The core log, for the core's parts. */
  public ChatLog chat() {
    return chat;
  }

  public void info(String message) {
    chat.info(message);
  }

  public void warn(String message) {
    chat.warn(message);
  }

  /** Whether {@link #debug} lines are written. */
  public boolean debugging() {
    return chat.debugging();
  }

  /** A line at {@code DEBUG} with its structured fields. */
  public void debug(String message, Map<String, String> fields) {
    chat.debug(message, fields);
  }

  /** The redacted text of {@code t}: its message, without the stack. */
  public String describe(Throwable t) {
    return chat.describe(t);
  }
}
