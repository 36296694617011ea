package dev.tether.images;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.tether.api.Image;
import dev.tether.api.TetherException;
import java.nio.charset.StandardCharsets;

/**
 * Jazzer fuzz tests for the validator and the data-URI parser. Under {@code mvn test} they
 * replay the seeds in {@code src/test/resources/dev/tether/images/FrameValidatorFuzzTestInputs/<method>/};
 * with {@code JAZZER_FUZZ=1} they fuzz. Only {@link TetherException} may escape; the
 * {@code validate} target also checks that every consumer entry point agrees (see
 * {@link ValidatorPropertiesTest#property}).
 */
class FrameValidatorFuzzTest {
  @FuzzTest(maxDuration = "10s")
  void validate(byte[] input) throws Exception {
    ValidatorPropertiesTest.property(input);
  }

  @FuzzTest(maxDuration = "10s")
  void fromDataUri(byte[] input) {
    String uri = new String(input, StandardCharsets.UTF_8);
    try {
      Image image = Images.fromDataUri(uri);
      // What it returns must pass the producer check as it stands.
      Images.of(image.mediaType(), image.data());
    } catch (TetherException expected) {
      // bad input is allowed to be rejected
    }
  }
}
