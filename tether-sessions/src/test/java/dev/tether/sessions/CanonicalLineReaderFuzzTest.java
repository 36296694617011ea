package dev.tether.sessions;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;

/**
 * Differential: for any bytes the fast reading of a session line either declines or gives exactly
 * the turn the strict codec gives; it never accepts a line the strict codec refuses. Seeds (in
 * {@code CanonicalLineReaderFuzzTestInputs}) are lines the codec writes and near misses of them.
 */
class CanonicalLineReaderFuzzTest {
  @FuzzTest(maxDuration = "10s")
  void read_declinesOrAgreesWithTheStrictCodec(FuzzedDataProvider data) throws Exception {
    byte[] line = data.consumeRemainingAsBytes();
    CanonicalLineReaderTest.assertDeclinesOrAgrees(line);
  }
}
