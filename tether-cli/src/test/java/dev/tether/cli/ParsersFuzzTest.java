package dev.tether.cli;


import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.IOException;

/**
 * Fuzzes the application's parsers of outside input: provider stream lines, and the
 * {@code --media-ttl} durations of {@code tether telegram}. Each either returns a value within its invariants or throws its one
 * documented exception. In a normal {@code mvn test} Jazzer replays the seeds under
 * {@code src/test/resources/dev/tether/cli/ParsersFuzzTestInputs}; run with {@code JAZZER_FUZZ=1}
 * to fuzz.
 */
class ParsersFuzzTest {

  @FuzzTest(maxDuration = "30s", maxExecutions = 200_000)
  void streamLine_parsesOrFailsWithIOException(FuzzedDataProvider data) {
    ModelReplier.Kind kind = ModelReplier.Kind.values()[data.consumeInt(0, 2)];
    try {
      ModelReplier.StreamEvent e = ModelReplier.StreamEvent.parse(kind, data.consumeRemainingAsString());
      assertTrue(e != null);
    } catch (IOException expected) {
      // not JSON
    }
  }

  @FuzzTest(maxDuration = "30s", maxExecutions = 200_000)
  void mediaTtl_parsesToAPositiveDurationOrFailsWithIllegalArgument(FuzzedDataProvider data) {
    String text = data.consumeRemainingAsString();
    try {
      java.time.Duration d = ChatBridgeOptions.duration(text);
      assertTrue(!d.isNegative() && !d.isZero(), d.toString());
    } catch (IllegalArgumentException expected) {
      // not a duration; the command reports it as a usage error
    } catch (ArithmeticException expected) {
      // an ISO duration beyond what a Duration holds: also refused
    }
  }
}
