package dev.tether.cli;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.logging.ConsoleHandler;
import java.util.logging.Handler;
import java.util.logging.Logger;
import picocli.CommandLine.Option;

/**
 * {@code --log-format text|json} for {@code serve} and the bridges. With {@code json}, every line
 * the process writes to stderr is one JSON object ({@link JsonLogFormatter}): the log records of
 * the libraries (System.Logger, and Jetty through SLF4J, both routed to java.util.logging) and the
 * command's own progress lines ({@code logger} = {@code tether.serve} and so on, {@code level} INFO).
 */
final class LogOptions {
  @Option(names = "--log-format", paramLabel = "text|json", defaultValue = "text",
      description = "How stderr lines are written: text, or json (one object per line with ts, level, logger, msg, and"
          + " instance, session, msg_id, code where they apply). Default: ${DEFAULT-VALUE}.")
  String format;

  /** Applies the format for {@code command}; call first in the command. */
  void install(String command) {
    if ("text".equals(format)) {
      return;
    }
    if (!"json".equals(format)) {
      throw new UsageException("--log-format must be text or json but was '" + format + "'");
    }
    PrintStream original = System.err;
    Logger root = Logger.getLogger("");
    for (Handler h : root.getHandlers()) {
      root.removeHandler(h);
    }
    ConsoleHandler json = new ConsoleHandler(); // writes to the original System.err, captured here
    json.setFormatter(new JsonLogFormatter());
    root.addHandler(json);
    System.setErr(new PrintStream(new JsonLines(original, "tether." + command), true, StandardCharsets.UTF_8));
  }

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
