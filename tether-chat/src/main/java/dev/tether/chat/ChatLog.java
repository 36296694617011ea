package dev.tether.chat;

import java.lang.System.Logger.Level;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.function.UnaryOperator;

/**
 * A bridge's log: one {@link System.Logger} (for example {@code dev.tether.telegram}), with every
 * line passed through the bridge's redactor so that its secrets (a bot token in a URL, a bearer
 * token) cannot leak through a message built from a URL or an answer. Lines are single sentences
 * without stack traces: the failures logged here are the network's or a chat's, not the
 * program's. Thread-safe.
 */
public final class ChatLog {
  private final System.Logger logger;
  private final UnaryOperator<String> redactor;

  /**
   * @param loggerName the logger's name, usually the bridge's module name
   * @param redactor removes the bridge's secrets from a line; applied to every line
   */
  public ChatLog(String loggerName, UnaryOperator<String> redactor) {
    this.logger = System.getLogger(Objects.requireNonNull(loggerName, "loggerName"));
    this.redactor = Objects.requireNonNull(redactor, "redactor");
  }

  public void info(String message) {
    logger.log(Level.INFO, redactor.apply(message));
  }

  public void warn(String message) {
    logger.log(Level.WARNING, redactor.apply(message));
  }

  /** Whether {@link #debug} lines are written (so a caller can skip building one). */
  public boolean debugging() {
    return logger.isLoggable(Level.DEBUG);
  }

  /**
   * A line per ask at {@code DEBUG}, with its structured fields ({@code LogFields}: instance,
   * session, {@code msg_id}, type) as the last parameter, for a log formatter that writes them.
   */
  public void debug(String message, Map<String, String> fields) {
    if (logger.isLoggable(Level.DEBUG)) {
      logger.log(Level.DEBUG, "{0}", redactor.apply(message), fields);
    }
  }

  /** The redacted text of {@code t}: its message (or class), without the stack. */
  public String describe(Throwable t) {
    Throwable root = t;
    while ((root instanceof CompletionException || root instanceof ExecutionException) && root.getCause() != null) {
      root = root.getCause();
    }
    String message = root.getMessage();
    return redactor.apply(message == null ? root.getClass().getSimpleName() : message);
  }

  /** {@code text} as the redactor leaves it. */
  public String redact(String text) {
    return redactor.apply(text);
  }
}
