package dev.tether.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.strings;

import dev.tether.api.ErrorCode;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** {@link AttachmentGrep}: matches, the bounds (matches, time, file kinds) and hostile patterns. */
class AttachmentGrepTest {
  private static final long BUDGET = TimeUnit.MILLISECONDS.toNanos(300);

  private static String grep(String regex, int max, AttachmentGrep.File... files) {
    return new AttachmentGrep(AttachmentGrep.compile("grep_attachment", regex), max, BUDGET, System::nanoTime)
        .search(List.of(files));
  }

  private static AttachmentGrep.File text(String name, String content) {
    return new AttachmentGrep.File(name, content.getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void matchingLines_areReportedWithFileAndLineNumber_binaryAndOversizedFilesSkipped() {
    byte[] png = {(byte) 0x89, 'P', 'N', 'G', 0, 0, 0, 13, 'h', 'e', 'l', 'l', 'o'};
    String report = grep("hel+o", 50, text("a.py", "def hello():\r\n  pass\nhello again"), new AttachmentGrep.File("shot.png", png),
        new AttachmentGrep.File("huge.log", null), text("b.txt", "nothing here"));
    assertEquals("a.py:1: def hello():\na.py:3: hello again\n2 matching lines in 1 file (of 4 searched);"
        + " skipped shot.png (binary), huge.log (larger than " + AttachmentGrep.MAX_FILE_BYTES + " bytes)", report);
  }

  @Test
  void nestedQuantifierOnALongRun_isCutOffWithinItsBudget_andSaysSo() {
    String evil = "a".repeat(5_000) + "!";
    String report = assertTimeoutPreemptively(Duration.ofSeconds(10), () -> grep("(a+)+$", 50, text("evil.txt", evil)));
    // The JDK's regex engine memoizes some nested loops and may finish this one quickly (then it
    // rightly finds nothing); where it backtracks, the budget cuts it off and the answer says where.
    assertTrue(report.contains("cut off in evil.txt line 1") && report.contains("time budget")
        || report.startsWith("0 matching lines in 0 files (of 1 searched)"), report);
    String alternation = assertTimeoutPreemptively(Duration.ofSeconds(10),
        () -> grep("(a|aa)*b", 50, text("alt.txt", "a".repeat(3_000))));
    assertTrue(alternation.contains("cut off"), alternation);
  }

  @Test
  void hugeInput_isSearchedWithinTheBudget_orCutOff_neverHangs() {
    String big = ("x".repeat(200) + "\n").repeat(40_000) + "needle\n"; // 8 MB
    String report = assertTimeoutPreemptively(Duration.ofSeconds(20), () -> grep("needle", 50, text("big.txt", big)));
    assertTrue(report.contains("big.txt:40001: needle") || report.contains("cut off"), report);
    String oneLine = "y".repeat(2_000_000);
    String longLine = assertTimeoutPreemptively(Duration.ofSeconds(20), () -> grep("y", 5, text("line.txt", oneLine)));
    assertTrue(longLine.startsWith("line.txt:1: " + "y".repeat(AttachmentGrep.MAX_LINE_CHARS) + "...\n"), longLine.substring(0, 80));
  }

  @Test
  void badPatterns_areInvalidArgument() {
    for (String regex : List.of("", "(unclosed", "x".repeat(AttachmentGrep.MAX_PATTERN_CHARS + 1), "*a")) {
      ToolError e = assertThrows(ToolError.class, () -> AttachmentGrep.compile("grep_attachment", regex));
      assertEquals(ErrorCode.INVALID_ARGUMENT, e.code(), regex);
    }
  }

  @Test
  void property_neverReportsMoreLinesThanMaxMatches() {
    qt().withExamples(200).withFixedSeed(33L).forAll(integers().between(1, 20), integers().between(0, 60),
        strings().basicLatinAlphabet().ofLengthBetween(0, 12)).checkAssert((max, lines, word) -> {
          String content = String.join("\n", java.util.Collections.nCopies(lines, "match " + word));
          String report = grep("match", max, text("f.txt", content));
          long reported = report.lines().filter(l -> l.startsWith("f.txt:")).count();
          assertEquals(Math.min(max, lines), reported, report);
          assertEquals(lines > max, report.contains("stopped at max_matches=" + max), report);
        });
  }
}
