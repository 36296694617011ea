package dev.tether.cli;

import java.io.PrintStream;
import java.time.Instant;
import java.util.Map;
import java.util.logging.Level;

/**
 * A command's own progress lines that concern one ask (the demo agent's "answering", "answered"):
 * plain text on stderr as always, or under {@code --log-format json} one object with the line's
 * fields ({@code instance}, {@code session}, {@code msg_id}, ...) so the ask can be followed by its
 * {@code msg_id} across the host's, the agent's and the bridges' logs. {@code DEBUG} lines are
 * written only under {@code --log-level debug} or {@code trace}. Configured once by
 * {@link LogOptions#install}; thread-safe. In text mode the line is escaped ({@link LogText}), so a
 * field from outside cannot print a line of its own; in JSON mode the formatter escapes it.
 */
final class CommandLog {
  private static volatile PrintStream json; // the real stderr under --log-format json, else null
  private static volatile Level threshold = Level.INFO;

  private final String logger;

  private CommandLog(String logger) {
    this.logger = logger;
  }

  /** The lines of the command part {@code logger} ({@code tether.agent} and so on). */
  static CommandLog named(String logger) {
    return new CommandLog(logger);
  }

  static void configure(PrintStream jsonOut, Level least) {
    json = jsonOut;
    threshold = least;
  }

  void info(String text, Map<String, String> fields) {
    write(Level.INFO, text, fields);
  }

  /** An INFO line without fields: a command's line that carries text from outside. */
  void info(String text) {
    write(Level.INFO, text, null);
  }

  /** A failure that ends the command: at ERROR, whatever {@code --log-level}. */
  void error(String text) {
    write(Level.SEVERE, text, null);
  }

  void debug(String text, Map<String, String> fields) {
    write(Level.FINE, text, fields);
  }

  boolean debugging() {
    return Level.FINE.intValue() >= threshold.intValue();
  }

  private void write(Level level, String text, Map<String, String> fields) {
    if (level.intValue() < threshold.intValue()) {
      return;
    }
    PrintStream out = json;
    if (out == null) {
      System.err.println(LogText.escape(text)); // one line, whatever the text carries
    } else {
      out.print(JsonLogFormatter.line(Instant.now(), JsonLogFormatter.level(level), logger, text, fields, null, null));
      out.flush();
    }
  }
}
