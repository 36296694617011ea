package dev.tether.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;

import java.time.Instant;
import java.util.List;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import org.junit.jupiter.api.Test;
import org.quicktheories.core.Gen;

/** The one escaper of text log lines ({@link LogText}) and the text formatter that uses it. */
class LogTextTest {
  /** Characters an attacker would reach for, mixed with plain ones, so that the properties can fail. */
  private static final String NASTY = "\n\r\t\\u\u0000\u001b[\u007f\u0085\u009b\u2028\u2029\u202e\u2066\u200f\u061c"
      + "\ud83d\ude00\ud800\udc00aZ0 é";

  /** Strings of any UTF-16 units (lone surrogates too), half of them drawn from {@link #NASTY}. */
  private static Gen<String> anyText() {
    Gen<Integer> unit = integers().between(0, 0xFFFF).mix(integers().between(0, NASTY.length() - 1).map(i -> (int) NASTY.charAt(i)), 50);
    return lists().of(unit).ofSizeBetween(0, 40).map(units -> {
      StringBuilder b = new StringBuilder(units.size());
      units.forEach(u -> b.append((char) u.intValue()));
      return b.toString();
    });
  }

  @Test
  void escaped_hasNoCharacterThatCanBreakTheLineOrDriveTheTerminal() {
    qt().withExamples(20_000).forAll(anyText()).checkAssert(text -> {
      String escaped = LogText.escape(text);
      for (int i = 0; i < escaped.length(); i++) {
        assertTrue(!LogText.needsEscape(escaped, i), "unit " + i + " of " + escaped.chars().boxed().toList());
        char c = escaped.charAt(i);
        assertTrue(c >= 0x20 && c != 0x7f && (c < 0x80 || c > 0x9f), "a control character in " + escaped);
      }
    });
  }

  @Test
  void escaped_decodesBackToTheText_soTwoTextsNeverPrintTheSame() {
    qt().withExamples(20_000).forAll(anyText()).checkAssert(text -> assertEquals(text, LogText.unescape(LogText.escape(text))));
  }

  @Test
  void examples() {
    assertEquals("plain text, é and \ud83d\ude00 stay", LogText.escape("plain text, é and \ud83d\ude00 stay"));
    assertEquals("a\\nb\\r\\tc\\u001b[31m\\u009b\\u202e\\u2028", LogText.escape("a\nb\r\tc\u001b[31m\u009b\u202e\u2028"));
    assertEquals("C:\\\\temp \\\\n", LogText.escape("C:\\temp \\n"), "a backslash is doubled, so \\n typed by a user stays apart");
    assertEquals("\\ud800x\\udc00", LogText.escape("\ud800x\udc00"), "lone surrogates");
    assertEquals("null", LogText.escape(null));
    for (String bad : List.of("\\", "\\q", "\\u12", "\\u12g4", "\\u１２３４")) {
      assertThrows(IllegalArgumentException.class, () -> LogText.unescape(bad), bad);
    }
  }

  @Test
  void textFormatter_writesOneLinePerRecord_withTheMessageAndTheExceptionEscaped() {
    LogRecord record = new LogRecord(Level.FINE, "accepted {0} msg_id {1}");
    record.setParameters(new Object[] {"user.message", "m\ntether serve: listening on x\u001b[31m"});
    record.setLoggerName("dev.tether.server.ingress");
    record.setInstant(Instant.parse("2026-11-27T04:00:00Z"));
    assertEquals("2026-11-27T04:00:00Z DEBUG dev.tether.server.ingress: accepted user.message msg_id"
        + " m\\ntether serve: listening on x\\u001b[31m\n", new TextLogFormatter().format(record));

    record.setThrown(new IllegalStateException("bad\nname", new java.io.IOException("deeper\r\nstill")));
    String[] lines = new TextLogFormatter().format(record).split("\n");
    assertTrue(lines[1].equals("\tjava.lang.IllegalStateException: bad\\nname"), lines[1]);
    for (int i = 1; i < lines.length; i++) {
      assertTrue(lines[i].startsWith("\t"), "a continuation line: " + lines[i]);
    }
    assertTrue(List.of(lines).contains("\tcaused by java.io.IOException: deeper\\r\\nstill"), String.join("\n", lines));
  }
}
