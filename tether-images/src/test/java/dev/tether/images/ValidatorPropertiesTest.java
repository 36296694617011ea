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
    if (hasUnpairedSurrogate(input)) {
      assertTrue(bytes.isPresent(), "the validator accepted an unpaired surrogate escape (RFC 7493)");
    }
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

  /** A string of plain characters, ordinary escapes and every shape of surrogate escape. */
  private static String surrogateString(RandomJson r) {
    StringBuilder sb = new StringBuilder("\"");
    int n = r.pick(List.of(0, 1, 2, 3));
    for (int i = 0; i < n; i++) {
      sb.append(r.pick(List.of("a", "\\n", "\\u00e9", "\u00e9", "\\\\", r.pick(RandomJson.SURROGATE_ESCAPES))));
    }
    return sb.append('"').toString();
  }

  /** A well-formed frame whose strings (names and values, in every part) may hold surrogate escapes. */
  private static byte[] surrogateFrame(RandomJson r) {
    boolean message = r.pick(List.of(true, false));
    String s = "{\"v\":1,\"type\":\"" + (message ? "user.message" : "x.custom") + "\""
        + ",\"msg_id\":" + surrogateString(r)
        + ",\"session\":{\"channel\":" + surrogateString(r) + ",\"id\":\"d\"," + surrogateString(r) + ":[" + surrogateString(r) + "]}"
        + ",\"payload\":{\"text\":" + surrogateString(r) + "," + surrogateString(r) + ":{\"k\":" + surrogateString(r) + "}}"
        + "," + surrogateString(r) + ":[1," + surrogateString(r) + "]}";
    return RandomJson.utf8(s);
  }

  /** The oracle: Jackson decodes every name and string, and a decoded unit is checked for a partner. */
  private static boolean hasUnpairedSurrogate(byte[] json) {
    try (com.fasterxml.jackson.core.JsonParser p = new com.fasterxml.jackson.core.JsonFactory().createParser(json)) {
      for (var t = p.nextToken(); t != null; t = p.nextToken()) {
        if (t == com.fasterxml.jackson.core.JsonToken.FIELD_NAME || t == com.fasterxml.jackson.core.JsonToken.VALUE_STRING) {
          String text = p.getText();
          for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))) {
              i++;
            } else if (Character.isSurrogate(c)) {
              return true;
            }
          }
        }
      }
      return false;
    } catch (java.io.IOException e) {
      return e.getMessage().contains("surrogate"); // Jackson refuses broken pairs in names itself
    }
  }

  @Test
  void framesWithSurrogateEscapes_getTheSameVerdictFromValidatorAndCodec() {
    int[] outcomes = new int[2];
    assertTimeoutPreemptively(HANG_GUARD, () -> qt().withExamples(TRIES).withFixedSeed(18_000_000L)
        .forAll(RandomJson.gen(ValidatorPropertiesTest::surrogateFrame))
        .checkAssert(input -> {
          Optional<ErrorCode> validator = verdict(() -> VALIDATOR.validate(input));
          Optional<ErrorCode> codec = verdict(() -> CODEC.read(input).payloadView());
          Optional<ErrorCode> stream = verdict(() -> {
            try {
              VALIDATOR.read(new ByteArrayInputStream(input));
            } catch (java.io.IOException e) {
              throw new java.io.UncheckedIOException(e);
            }
          });
          assertEquals(codec, validator, "validator vs codec");
          if (hasUnpairedSurrogate(input)) {
            assertEquals(Optional.of(ErrorCode.MALFORMED_FRAME), validator, "an unpaired surrogate was accepted");
          }
          assertEquals(validator, stream, "validate(byte[]) vs read(InputStream)");
          outcomes[validator.isPresent() ? 0 : 1]++;
        }));
    // Duplicate names (two surrogate-free empty keys) are malformed too; both verdicts must be common.
    assertTrue(outcomes[0] > TRIES / 5 && outcomes[1] > TRIES / 10, java.util.Arrays.toString(outcomes));
  }
}
