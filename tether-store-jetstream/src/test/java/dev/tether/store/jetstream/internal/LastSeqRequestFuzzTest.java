package dev.tether.store.jetstream.internal;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.IOException;

/**
 * Jazzer: any bytes a server (or something posing as one) answers to STREAM.INFO give a seq or an
 * {@link IOException}, nothing else. Under {@code mvn test} the seeds replay; {@code JAZZER_FUZZ=1} fuzzes.
 */
class LastSeqRequestFuzzTest {
  @FuzzTest(maxDuration = "10s")
  void lastSeq(byte[] answer) {
    try {
      long seq = LastSeqRequest.lastSeq(answer);
      if (seq < 0) {
        throw new AssertionError("a negative last_seq was accepted: " + seq);
      }
    } catch (IOException expected) {
      // refused clearly
    }
  }
}
