package dev.tether.telegram.internal;

import dev.tether.telegram.BotToken;
import java.lang.System.Logger.Level;
import java.util.Objects;

/**
 * The bridge's log: one {@link System.Logger} named {@code dev.tether.telegram}, with every line
 * passed through {@link BotToken#redact} so that the token cannot leak through a message built
 * from a URL or an answer. Lines are single sentences without stack traces: the failures logged
 * here are the network's or a chat's, not the program's. Thread-safe.
 */
public final class BridgeLog {
  private static final System.Logger LOGGER = System.getLogger("dev.tether.telegram");

  private final BotToken token;

  public BridgeLog(BotToken token) {
    this.token = Objects.requireNonNull(token, "token");
  }

  public void info(String message) {
    LOGGER.log(Level.INFO, token.redact(message));
  }

  public void warn(String message) {
    LOGGER.log(Level.WARNING, token.redact(message));
  }

  /** Whether {@link #debug} lines are written (so a caller can skip building one). */
  public boolean debugging() {
    return LOGGER.isLoggable(Level.DEBUG);
  }

  /**
   * A line per ask at {@code DEBUG}, with its structured fields ({@code LogFields}: instance,
   * session, {@code msg_id}, type) as the last parameter, for a log formatter that writes them.
   */
  public void debug(String message, java.util.Map<String, String> fields) {
    if (LOGGER.isLoggable(Level.DEBUG)) {
      LOGGER.log(Level.DEBUG, "{0}", token.redact(message), fields);
    }
  }

  /** The redacted text of {@code t}: its class and message, without the stack. */
  public String describe(Throwable t) {
    Throwable root = t;
    while ((root instanceof java.util.concurrent.CompletionException
        || root instanceof java.util.concurrent.ExecutionException) && root.getCause() != null) {
      root = root.getCause();
    }
    String message = root.getMessage();
    return token.redact(message == null ? root.getClass().getSimpleName() : message);
  }
}
