package dev.tether.api;

import com.code_intelligence.jazzer.junit.FuzzTest;

/**
 * Jazzer fuzz tests for the codec's parsers. Under {@code mvn test} they replay the seeds in
 * {@code src/test/resources/dev/tether/api/FrameCodecFuzzTestInputs/<method>/}; with
 * {@code JAZZER_FUZZ=1} they fuzz. The only exception any input may cause is
 * {@link TetherException}; anything else (and any hang or crash) is a finding.
 */
class FrameCodecFuzzTest {
  private static final FrameCodec CODEC = FrameCodec.withLimits(Limits.builder().maxFrameBytes(1 << 16).build());

  @FuzzTest(maxDuration = "10s")
  void read(byte[] input) {
    try {
      Frame frame = CODEC.read(input);
      // A frame that was read must write and read back to the same frame.
      Frame again = CODEC.read(CODEC.write(frame));
      if (!again.equals(frame)) {
        throw new AssertionError("round trip changed the frame: " + frame + " -> " + again);
      }
    } catch (TetherException expected) {
      // bad input is allowed to be rejected
    }
  }

  @FuzzTest(maxDuration = "10s")
  void payloadView(byte[] input) {
    try {
      Frame frame = CODEC.read(input);
      Payload view = frame.payloadView();
      // The canonical form of a view must parse back to an equal view.
      Frame rebuilt = frame.toBuilder().payload(view).build();
      Payload again = rebuilt.payloadView();
      if (!again.equals(view)) {
        throw new AssertionError("canonical payload changed the view: " + view + " -> " + again);
      }
    } catch (TetherException expected) {
      // bad input is allowed to be rejected
    }
  }
}
