package dev.tether.sessions;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;

class SessionLineCodecFuzzTest {
  /** Any bytes either fail as a SessionLineException (nothing else escapes) or give a turn that round-trips. */
  @FuzzTest(maxDuration = "10s")
  void read_eitherRejectsOrRoundTrips(FuzzedDataProvider data) throws Exception {
    byte[] line = data.consumeRemainingAsBytes();
    SessionTurn turn;
    try {
      turn = SessionLineCodec.read(line, 0, line.length);
    } catch (SessionLineException expected) {
      return;
    }
    byte[] again = SessionLineCodec.write(turn);
    assertEquals(turn, SessionLineCodec.read(again, 0, again.length));
  }
}
