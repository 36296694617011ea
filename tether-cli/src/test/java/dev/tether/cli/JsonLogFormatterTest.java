package dev.tether.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tether.api.ErrorCode;
import dev.tether.api.TetherException;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import org.junit.jupiter.api.Test;

class JsonLogFormatterTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @Test
  void record_withFieldsMapAndTetherException_isOneObjectWithThem() throws Exception {
    LogRecord r = new LogRecord(Level.WARNING, "frame {0} refused");
    r.setLoggerName("dev.tether.server");
    r.setParameters(new Object[] {"x", Map.of("instance", "vm1", "session", "host:s", "msg_id", "host-1", "other", "ignored")});
    r.setThrown(TetherException.of(ErrorCode.STORE_FULL, "full \"now\"\nreally"));
    String line = new JsonLogFormatter().format(r);
    assertTrue(line.endsWith("\n") && line.indexOf('\n') == line.length() - 1, "exactly one line: " + line);
    JsonNode o = JSON.readTree(line);
    assertEquals("WARNING", o.get("level").asText());
    assertEquals("dev.tether.server", o.get("logger").asText());
    assertEquals("frame x refused", o.get("msg").asText());
    assertEquals("vm1", o.get("instance").asText());
    assertEquals("host:s", o.get("session").asText());
    assertEquals("host-1", o.get("msg_id").asText());
    assertEquals("STORE_FULL", o.get("code").asText());
    assertTrue(o.get("error").asText().contains("full \"now\"\nreally"));
    assertEquals(null, o.get("other"));
  }

  @Test
  void librariesInstanceLines_carryTheInstanceField() throws Exception {
    LogRecord r = new LogRecord(Level.WARNING, "instance {0}: skipping stream message {1}: {2}");
    r.setLoggerName("dev.tether.store.jetstream.internal.InstanceMirror");
    r.setParameters(new Object[] {"vm7", 12L, "bad"});
    JsonNode o = JSON.readTree(new JsonLogFormatter().format(r));
    assertEquals("vm7", o.get("instance").asText());
    assertEquals("instance vm7: skipping stream message 12: bad", o.get("msg").asText());
    LogRecord plain = new LogRecord(Level.INFO, "no instance here {0}");
    plain.setParameters(new Object[] {"x"});
    assertEquals(null, JSON.readTree(new JsonLogFormatter().format(plain)).get("instance"));
  }

  @Test
  void stderrLines_becomeOneObjectEach_evenWithQuotesAndControlCharacters() throws Exception {
    ByteArrayOutputStream sink = new ByteArrayOutputStream();
    PrintStream err = new PrintStream(new LogOptions.JsonLines(new PrintStream(sink, true, StandardCharsets.UTF_8), "tether.serve"),
        true, StandardCharsets.UTF_8);
    err.println("tether serve: listening on \"x\"\t\u0001");
    err.print("partial ");
    err.println("line\r");
    String[] lines = sink.toString(StandardCharsets.UTF_8).split("\n");
    assertEquals(2, lines.length);
    assertEquals("tether serve: listening on \"x\"\t\u0001", JSON.readTree(lines[0]).get("msg").asText());
    assertEquals("partial line", JSON.readTree(lines[1]).get("msg").asText());
    assertEquals("tether.serve", JSON.readTree(lines[1]).get("logger").asText());
  }
}
