package dev.tether.images;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.quicktheories.QuickTheory.qt;

import dev.tether.api.testing.RandomJson;
import dev.tether.api.ErrorCode;
import dev.tether.api.Frame;
import dev.tether.api.FrameCodec;
import dev.tether.api.Image;
import dev.tether.api.Payload;
import dev.tether.api.TetherException;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.quicktheories.core.Gen;

/**
 * Properties of the validator over generated input: any bytes or JSON fed to
 * {@code validate(byte[])}, {@code read(InputStream)}, {@code validate(Frame)} and
 * {@code validatePayload} yield a verdict or a {@link TetherException}, never another exception
 * and never a hang; all entry points agree on the verdict; and a frame the validator passes is
 * one a consumer can use.
 *
 * <p>The properties are QuickTheories properties over {@link RandomJson} generators: a failure
 * is shrunk and reported with its input (hex and text) and the seed. Each runs a fixed number of
 * examples from a fixed seed, so a run is reproducible and the pass/fail counts below are stable.
 * The timeout is a hang guard, not a speed assertion.
 */
class ValidatorPropertiesTest {
  private static final int TRIES = 1000;
  private static final Duration HANG_GUARD = Duration.ofSeconds(60);
  private static final FrameValidator VALIDATOR = FrameValidator.withLimits(ConsumerValidationTest.SMALL);
  private static final FrameCodec CODEC = FrameCodec.withLimits(ConsumerValidationTest.SMALL);

  /** Checks the property on {@code TRIES} generated inputs; returns how many failed [0] and passed [1] validation. */
  private static int[] forAll(long seed, Gen<byte[]> inputs) {
    int[] outcomes = new int[2];
    assertTimeoutPreemptively(HANG_GUARD, () -> qt().withExamples(TRIES).withFixedSeed(seed)
        .forAll(inputs)
        .checkAssert(input -> {
          try {
            outcomes[property(input) ? 1 : 0]++;
          } catch (Exception e) {
            throw new AssertionError(e);
          }
        }));
    return outcomes;
  }

  private static Optional<ErrorCode> verdict(Runnable call) {
    try {
      call.run();
      return Optional.empty();
    } catch (TetherException e) {
      return Optional.of(e.code());
    }
  }

  /** Returns whether the validator passed the input. */
  static boolean property(byte[] input) throws Exception {
    Optional<ErrorCode> bytes = verdict(() -> VALIDATOR.validate(input));
    Optional<ErrorCode> stream;
    Frame streamed = null;
    try {
      streamed = VALIDATOR.read(new ByteArrayInputStream(input));
      stream = Optional.empty();
    } catch (TetherException e) {
      stream = Optional.of(e.code());
    }
    Frame frame;
    try {
      frame = CODEC.read(input);
    } catch (TetherException e) {
      // The codec refuses it: then no consumer entry point may accept it.
      assertTrue(stream.isPresent(), "read(InputStream) accepted what the codec refuses: " + e.getMessage());
      return bytes.isEmpty();
    }
    // The converse: a modelled frame whose view reads and whose images pass the producer check
    // must pass the validator too (it is not stricter than the producers).
    if (bytes.isPresent() && isTextType(frame.type())) {
      try {
        Payload view = frame.payloadView();
        VALIDATOR.validateImages(view.images());
        throw new AssertionError("the validator rejects (" + bytes.get() + ") a frame the view and producer check accept");
      } catch (TetherException expected) {
        // consistent: the view or the producer check rejects it as well
      }
    }
    // The codec reads it: the validator's verdict is the same at every entry point.
    assertEquals(bytes, stream, "validate(byte[]) vs read(InputStream)");
    assertEquals(bytes, verdict(() -> VALIDATOR.validate(frame)), "validate(byte[]) vs validate(Frame)");
    assertEquals(bytes, verdict(() -> VALIDATOR.validatePayload(frame.type(), frame.payload())), "vs validatePayload");
    if (bytes.isPresent()) {
      return false;
    }
    assertEquals(frame, streamed);
    // A frame the validator passes is usable: its view has no image problem, and each of its
    // images passes the producer's check too.
    Payload view;
    try {
      view = frame.payloadView();
    } catch (TetherException e) {
      assertEquals(ErrorCode.MALFORMED_FRAME, e.code(), e.getMessage());
      assertTrue(e.imageIndex().isEmpty(), "the validator passed an image the view refuses: " + e.getMessage());
      return true;
    }
    VALIDATOR.validateImages(view.images());
    for (Image image : view.images()) {
      Images.of(image.mediaType(), image.data(), ConsumerValidationTest.SMALL);
    }
    return true;
  }

  private static boolean isTextType(String type) {
    return switch (type) {
      case "user.message", "assistant.delta", "assistant.done", "assistant.message" -> true;
      default -> false;
    };
  }

  @Test
  void randomBytes_yieldAVerdictOrTetherException() {
    forAll(11_000_000L, RandomJson.gen(SampleImages::smallBase64, r -> r.bytes(300)));
  }

  @Test
  void randomJsonValues_yieldAVerdictOrTetherException() {
    forAll(12_000_000L, RandomJson.gen(SampleImages::smallBase64, r -> RandomJson.utf8(r.value(5))));
  }

  @Test
  void randomFrames_yieldAVerdictOrTetherException() {
    int[] outcomes = forAll(13_000_000L, RandomJson.gen(SampleImages::smallBase64, r -> RandomJson.utf8(r.frame())));
    assertTrue(outcomes[1] > TRIES / 20, "too few generated frames pass, the property tests little: " + outcomes[1]);
  }

  @Test
  void randomImageFrames_getTheSameVerdictFromEveryConsumerAndTheProducers() {
    int[] outcomes = forAll(16_000_000L, RandomJson.gen(SampleImages::smallBase64, r -> RandomJson.utf8(r.imageFrame())));
    assertTrue(outcomes[1] > TRIES / 5, "too few pass: " + outcomes[1]);
    assertTrue(outcomes[0] > TRIES / 5, "too few fail: " + outcomes[0]);
  }

  @Test
  void mutatedImageFrames_yieldAVerdictOrTetherException() {
    forAll(17_000_000L, RandomJson.gen(SampleImages::smallBase64, r -> r.mutate(RandomJson.utf8(r.imageFrame()))));
  }

  @Test
  void mutatedFrames_yieldAVerdictOrTetherException() {
    forAll(14_000_000L, RandomJson.gen(SampleImages::smallBase64, r -> r.mutate(RandomJson.utf8(r.frame()))));
  }

  @Test
  void randomDataUris_yieldAnImageOrTetherException() {
    Gen<String> uris = RandomJson.genOf(r -> r.pick(List.of("data:", "DATA:", "data:image/png", "", "x"))
        + r.pick(List.of(";base64,", ",", ";charset=x;base64,", ";base64", "image/gif;base64,"))
        + new String(r.bytes(40), StandardCharsets.ISO_8859_1));
    assertTimeoutPreemptively(HANG_GUARD, () -> qt().withExamples(TRIES).withFixedSeed(15_000_000L)
        .forAll(uris)
        .describedAs(uri -> "\"" + uri + "\"")
        .checkAssert(uri -> {
          try {
            Image image = Images.fromDataUri(uri);
            Images.of(image.mediaType(), image.data());
          } catch (TetherException expected) {
            // rejected is fine
          }
        }));
  }
}
