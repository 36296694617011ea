package dev.tether.cli;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Fuzzes the application's parsers of outside input: poll query parameters, host addresses and
 * provider stream lines. Each either returns a value within its invariants or throws its one
 * documented exception. In a normal {@code mvn test} Jazzer replays the seeds under
 * {@code src/test/resources/dev/tether/cli/ParsersFuzzTestInputs}; run with {@code JAZZER_FUZZ=1}
 * to fuzz.
 */
class ParsersFuzzTest {
  private static final String[] NAMES = {"channel", "session_id", "after_seq", "limit", "wait_ms", "types", "reply_to_msg_id"};

  @FuzzTest(maxDuration = "30s", maxExecutions = 200_000)
  void pollParams_clampOrRejectWithIllegalArgument(FuzzedDataProvider data) {
    Map<String, List<String>> params = new HashMap<>();
    int n = data.consumeInt(0, 10);
    for (int i = 0; i < n; i++) {
      params.computeIfAbsent(NAMES[data.consumeInt(0, NAMES.length - 1)], k -> new ArrayList<>()).add(data.consumeString(40));
    }
    try {
      PollParams p = PollParams.parseForPoll(params::get);
      assertTrue(p.waitMs() >= 0 && p.waitMs() <= 30_000);
      assertTrue(p.query().limit() >= 1 && p.query().limit() <= 200);
      assertTrue(p.query().afterSeq() >= 0);
      p.query().types().forEach(t -> assertTrue(!t.isBlank() && !t.contains(",")));
    } catch (IllegalArgumentException expected) {
      // a number that does not parse or a negative after_seq
    }
  }

  @FuzzTest(maxDuration = "30s", maxExecutions = 200_000)
  void address_parsesOrRejectsWithIllegalArgument(FuzzedDataProvider data) {
    try {
      Address a = Address.parse(data.consumeRemainingAsString());
      if (a instanceof Address.Tcp t) {
        assertTrue(t.port() >= 0 && t.port() <= 65535);
      }
    } catch (IllegalArgumentException expected) {
      // not a socket path nor HOST:PORT
    }
  }

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
}
