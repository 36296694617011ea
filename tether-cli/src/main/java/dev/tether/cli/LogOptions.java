package dev.tether.cli;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.logging.ConsoleHandler;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.Logger;
import picocli.CommandLine.Option;

/**
 * {@code --log-format text|json} and {@code --log-level} for {@code serve}, {@code agent} and the
 * bridges. With {@code json}, every line the process writes to stderr is one JSON object
 * ({@link JsonLogFormatter}): the log records of the libraries (System.Logger, and Jetty through
 * SLF4J, both routed to java.util.logging) and the command's own progress lines ({@code logger} =
 * {@code tether.serve} and so on, {@code level} INFO; those written through {@link CommandLog}
 * also carry their fields). With {@code text}, every log record is one line ({@link TextLogFormatter})
 * and every text from outside in it is escaped ({@link LogText}). The level applies to both formats.
 *
 * <p>A command's line that carries text from outside (a {@code msg_id}, an id or reason a gateway
 * sent, an error that echoes input) goes through {@link CommandLog} or a logger, never straight to
 * {@code System.err}: those two are the places where it is escaped, in either format.
 */
final class LogOptions {
  @Option(names = "--log-format", paramLabel = "text|json", defaultValue = "text",
      description = "How stderr lines are written: text, or json (one object per line with ts, level, logger, msg, and"
          + " instance, session, msg_id, code where they apply). Default: ${DEFAULT-VALUE}.")
  String format;

  @Option(names = "--log-level", paramLabel = "error|warning|info|debug|trace", defaultValue = "info",
      description = "The least severe lines written (debug and trace apply to tether's own loggers; other libraries stay at info). debug adds one line per frame posted to the host (with its"
          + " msg_id, so an ask can be followed from the POST to the agent's assistant.done) and per answer"
          + " handled by the agent and the bridges. Default: ${DEFAULT-VALUE}.")
  String level;

  /** Applies the format and level for {@code command}; call first in the command. */
  void install(String command) {
    Level threshold = julLevel(level);
    if (!"text".equals(format) && !"json".equals(format)) {
      throw new UsageException("--log-format must be text or json but was '" + format + "'");
    }
    // DEBUG and TRACE open tether's own loggers only: a library's debug lines (the JDK HTTP
    // client's, say) would write request URLs, and the Telegram Bot API's carry the bot token.
    Logger root = Logger.getLogger("");
    root.setLevel(threshold.intValue() > Level.INFO.intValue() ? threshold : Level.INFO);
    for (String name : TETHER_LOGGERS) {
      Logger tether = Logger.getLogger(name);
      tether.setLevel(threshold);
      HELD.add(tether);
    }
    if ("text".equals(format)) {
      for (Handler h : root.getHandlers()) {
        h.setLevel(threshold);
      }
      textFormat();
      CommandLog.configure(null, threshold);
      return;
    }
    PrintStream original = System.err;
    for (Handler h : root.getHandlers()) {
      root.removeHandler(h);
    }
    ConsoleHandler json = new ConsoleHandler(); // writes to the original System.err, captured here
    json.setFormatter(new JsonLogFormatter());
    json.setLevel(threshold);
    root.addHandler(json);
    System.setErr(new PrintStream(new JsonLines(original, "tether." + command), true, StandardCharsets.UTF_8));
    CommandLog.configure(original, threshold);
  }

  /**
   * Gives every handler of the root logger the escaping one-line {@link TextLogFormatter}: the
   * text format. {@link Main#main} applies it before any command runs, so the commands without
   * these flags ({@code mcp}, {@code token}, ...) log the same way.
   */
  static void textFormat() {
    TextLogFormatter text = new TextLogFormatter();
    for (Handler h : Logger.getLogger("").getHandlers()) {
      h.setFormatter(text);
    }
  }

  /** The java.util.logging level of a {@code --log-level} value (System.Logger's names). */
  static Level julLevel(String name) {
    return switch (name == null ? "" : name.toLowerCase(Locale.ROOT)) {
      case "error" -> Level.SEVERE;
      case "warning", "warn" -> Level.WARNING;
      case "info" -> Level.INFO;
      case "debug" -> Level.FINE;
      case "trace" -> Level.FINER;
      default -> throw new UsageException("--log-level must be error, warning, info, debug or trace but was '" + name + "'");
    };
  }

  /** The loggers {@code --log-level} opens below INFO: the libraries' ({@code dev.tether.*}). */
  private static final List<String> TETHER_LOGGERS = List.of("dev.tether");

  /** Holds the configured loggers: java.util.logging keeps loggers weakly, and their levels must stick. */
  private static final Set<Logger> HELD = ConcurrentHashMap.newKeySet();

  /** Turns each line written to it into one JSON object on {@code out}. */
  static final class JsonLines extends OutputStream {
    private final PrintStream out;
    private final String logger;
    private final ByteArrayOutputStream line = new ByteArrayOutputStream();

    JsonLines(PrintStream out, String logger) {
      this.out = out;
      this.logger = logger;
    }

    @Override
    public synchronized void write(int b) {
      if (b == '\n') {
        flushLine();
      } else {
        line.write(b);
      }
    }

    @Override
    public synchronized void write(byte[] b, int off, int len) {
      for (int i = off; i < off + len; i++) {
        write(b[i]);
      }
    }

    private void flushLine() {
      String text = line.toString(StandardCharsets.UTF_8);
      line.reset();
      if (text.endsWith("\r")) {
        text = text.substring(0, text.length() - 1);
      }
      out.print(JsonLogFormatter.line(Instant.now(), "INFO", logger, text, null, null, null));
      out.flush();
    }
  }
}
