package dev.tether.client;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;

/**
 * Host addresses from any text: parsed to a valid address or refused with IllegalArgumentException. In a normal {@code mvn test} Jazzer replays the seeds under
 * {@code src/test/resources/dev/tether/client/HostAddressFuzzTestInputs}; run with {@code JAZZER_FUZZ=1} to fuzz.
 */
class HostAddressFuzzTest {
  @FuzzTest(maxDuration = "30s", maxExecutions = 200_000)
  void address_parsesOrRejectsWithIllegalArgument(FuzzedDataProvider data) {
    try {
      HostAddress a = HostAddress.parse(data.consumeRemainingAsString());
      if (a instanceof HostAddress.Tcp t) {
        assertTrue(t.port() >= 0 && t.port() <= 65535);
      }
    } catch (IllegalArgumentException expected) {
      // not a socket path nor HOST:PORT
    }
  }
}
