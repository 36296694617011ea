package dev.tether.cli;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import dev.tether.api.TetherException;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.logging.Formatter;
import java.util.logging.Level;
import java.util.logging.LogRecord;

/**
 * {@code --log-format json}: one JSON object per line, {@code {"ts","level","logger","msg"}} plus
 * {@code instance}, {@code session}, {@code msg_id}, {@code type}, {@code seq} and {@code code} where
 * the line has them (see {@code dev.tether.api.LogFields}), and
 * {@code error} (the exception's class and message) when one was logged. Where the fields come
 * from: a {@link java.util.Map} among the record's parameters (the convention for structured
 * fields through {@code System.Logger}: {@code LOG.log(level, "msg", Map.of("instance", id))}); the
 * libraries' existing lines of the form {@code "instance {0}: ..."} (the instance as the first
 * parameter); and {@code code} from a logged {@code TetherException}. Thread-safe (stateless).
 */
final class JsonLogFormatter extends Formatter {
  private static final JsonFactory JSON = new JsonFactory();
  static final List<String> FIELDS = List.of("instance", "session", "msg_id", "type", "seq", "code");

  @Override
  public String format(LogRecord record) {
    String msg = formatMessage(record);
    Map<?, ?> fields = null;
    if (record.getParameters() != null) {
      for (Object p : record.getParameters()) {
        if (p instanceof Map<?, ?> m) {
          fields = m;
        }
      }
    }
    if (fields == null && record.getMessage() != null && record.getMessage().startsWith("instance {0}")
        && record.getParameters() != null && record.getParameters().length > 0 && record.getParameters()[0] != null) {
      fields = Map.of("instance", String.valueOf(record.getParameters()[0]));
    }
    String code = null;
    for (Throwable t = record.getThrown(); t != null && code == null; t = t.getCause()) {
      if (t instanceof TetherException e) {
        code = e.code().name();
      }
    }
    return line(record.getInstant(), level(record.getLevel()), record.getLoggerName(), msg, fields, code, record.getThrown());
  }

  /** One line of JSON (ending in a newline) for these parts; null parts are left out. */
  static String line(Instant ts, String level, String logger, String msg, Map<?, ?> fields, String code, Throwable thrown) {
    StringWriter out = new StringWriter(128);
    try (JsonGenerator g = JSON.createGenerator(out)) {
      g.writeStartObject();
      g.writeStringField("ts", ts.toString());
      g.writeStringField("level", level);
      g.writeStringField("logger", logger == null ? "" : logger);
      g.writeStringField("msg", msg == null ? "" : msg);
      if (fields != null) {
        for (String f : FIELDS) {
          Object v = fields.get(f);
          if (v != null) {
            g.writeStringField(f, String.valueOf(v));
          }
        }
      }
      if (code != null && (fields == null || fields.get("code") == null)) {
        g.writeStringField("code", code);
      }
      if (thrown != null) {
        g.writeStringField("error", thrown.getClass().getName() + ": " + thrown.getMessage());
      }
      g.writeEndObject();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out + "\n";
  }

  /** System.Logger's level names (JUL's SEVERE is ERROR, FINE is DEBUG). */
  static String level(Level level) {
    int v = level.intValue();
    return v >= 1000 ? "ERROR" : v >= 900 ? "WARNING" : v >= 800 ? "INFO" : v >= 500 ? "DEBUG" : "TRACE";
  }
}
