package dev.tether.server.internal;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Poll parameters from hostile query strings: clamped or refused, never anything else. In a normal {@code mvn test} Jazzer replays the seeds under
 * {@code src/test/resources/dev/tether/server/internal/PollParamsFuzzTestInputs}; run with {@code JAZZER_FUZZ=1} to fuzz.
 */
class PollParamsFuzzTest {
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
}
