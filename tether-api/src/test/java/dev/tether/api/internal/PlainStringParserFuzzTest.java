package dev.tether.api.internal;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.util.List;

/**
 * Jazzer fuzz test: any input reads the same through {@link PlainStringParser}'s one-scan skip as
 * through Jackson's own parser (see {@link PlainStringParserTest}). Under {@code mvn test} it
 * replays the seeds in {@code src/test/resources/dev/tether/api/internal/PlainStringParserFuzzTestInputs/};
 * with {@code JAZZER_FUZZ=1} it fuzzes. Any difference is a finding.
 */
class PlainStringParserFuzzTest {
  @FuzzTest(maxDuration = "10s")
  void sameAsJackson(byte[] input) {
    for (PlainStringParserTest.Mode mode : PlainStringParserTest.Mode.values()) {
      for (boolean names : new boolean[] {false, true}) {
        List<String> plain = PlainStringParserTest.walk(PlainStringParserTest.PLAIN, input, 0, input.length, mode, names);
        List<String> fast = PlainStringParserTest.walk(PlainStringParserTest.FAST, input, 0, input.length, mode, names);
        if (!plain.equals(fast)) {
          throw new AssertionError(mode + " names=" + names + ": Jackson " + plain + " but fast " + fast);
        }
      }
    }
  }
}
