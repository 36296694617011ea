package dev.tether.cli;

import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Set;
import java.util.logging.Formatter;
import java.util.logging.LogRecord;

/**
 * {@code --log-format text} (the default): one line per record,
 * {@code 2026-11-27T04:32:51.123Z WARNING dev.tether.telegram: message}, the message passed through
 * {@link LogText#escape} so that no text from outside (a {@code msg_id}, a session id, a file name,
 * an error that echoes input) can end the line, print a line of its own or reach the terminal as an
 * escape sequence. A logged exception follows on continuation lines that start with a tab: its
 * class and escaped message, each frame, and the same for its causes. Every handler of the root
 * logger uses it in text mode, so the libraries' lines (System.Logger), Jetty's (SLF4J) and the
 * commands' {@link CommandLog} lines are escaped in this one place. Thread-safe (stateless).
 */
final class TextLogFormatter extends Formatter {
  @Override
  public String format(LogRecord record) {
    StringBuilder line = new StringBuilder(128)
        .append(record.getInstant()).append(' ')
        .append(JsonLogFormatter.level(record.getLevel())).append(' ')
        .append(LogText.escape(record.getLoggerName() == null ? "" : record.getLoggerName())).append(": ")
        .append(LogText.escape(formatMessage(record)))
        .append('\n');
    Set<Throwable> seen = Collections.newSetFromMap(new IdentityHashMap<>());
    for (Throwable t = record.getThrown(); t != null && seen.add(t); t = t.getCause()) {
      line.append('\t').append(t == record.getThrown() ? "" : "caused by ").append(LogText.escape(t.toString())).append('\n');
      for (StackTraceElement frame : t.getStackTrace()) {
        line.append("\tat ").append(LogText.escape(frame.toString())).append('\n');
      }
    }
    return line.toString();
  }
}
