package dev.tether.images;

import static dev.tether.images.Wire.image;
import static dev.tether.images.Wire.payload;
import static dev.tether.images.Wire.smallImage;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tether.api.ErrorCode;
import dev.tether.api.Frame;
import dev.tether.api.FrameCodec;
import dev.tether.api.Limits;
import dev.tether.api.MediaType;
import dev.tether.api.TetherException;
import dev.tether.api.internal.ApiInternals;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every error code at every consumer entry point of {@link FrameValidator}: the same frame must
 * be rejected with the same code, image index and an actionable message whether it arrives as
 * bytes, as a stream, as a {@link Frame} or as a bare payload.
 */
class ConsumerValidationTest {
  /** Small limits, so that every limit is reachable with small images. */
  static final Limits SMALL = Limits.builder()
      .maxImageBytes(2000).maxFrameImageBytes(3000).maxImagesPerMessage(3).maxFrameBytes(1 << 20).build();
  static final FrameValidator VALIDATOR = FrameValidator.withLimits(SMALL);

  static String png(int size) {
    return image(MediaType.PNG, SampleImages.ofSize(MediaType.PNG, size));
  }

  /**
   * One bad frame: the code, the image index (-1 for the frame as a whole) and words the message
   * must contain to tell a user what to do.
   */
  record Case(String name, ErrorCode code, int index, String advice, byte[] wire) {
    @Override
    public String toString() {
      return name;
    }
  }

  static List<Case> cases() {
    String png = smallImage(MediaType.PNG);
    String jpegBase64 = SampleImages.smallBase64(MediaType.JPEG);
    List<Case> c = new ArrayList<>();
    c.add(new Case("no text", ErrorCode.MALFORMED_FRAME, -1, "\"text\"",
        Wire.frame("user.message", "{\"images\":[" + png + "]}")));
    c.add(new Case("text not a string", ErrorCode.MALFORMED_FRAME, -1, "\"text\"",
        Wire.frame("assistant.done", "{\"text\":[1]}")));
    c.add(new Case("images not an array", ErrorCode.MALFORMED_FRAME, -1, "array",
        Wire.frame("user.message", "{\"text\":\"\",\"images\":{}}")));
    c.add(new Case("image not an object", ErrorCode.MALFORMED_FRAME, 1, "object",
        Wire.userMessage(List.of(png, "\"" + jpegBase64 + "\""))));
    c.add(new Case("image without data (ref only)", ErrorCode.MALFORMED_FRAME, 0, "\"ref\" is reserved",
        Wire.userMessage(List.of("{\"media_type\":\"image/png\",\"ref\":\"sha256:abc\",\"size\":3}"))));
    c.add(new Case("data not a string", ErrorCode.MALFORMED_FRAME, 0, "base64 string",
        Wire.userMessage(List.of("{\"media_type\":\"image/png\",\"data\":12}"))));
    c.add(new Case("payload not an object", ErrorCode.MALFORMED_FRAME, -1, "object",
        Wire.frame("user.message", "[\"text\"]")));
    c.add(new Case("unsupported media type", ErrorCode.UNSUPPORTED_MEDIA_TYPE, 1, "image/png, image/jpeg, image/gif or image/webp",
        Wire.userMessage(List.of(png, image("image/bmp", "Qk0=")))));
    c.add(new Case("media type in upper case", ErrorCode.UNSUPPORTED_MEDIA_TYPE, 0, "use one of",
        Wire.userMessage(List.of(image("IMAGE/PNG", SampleImages.smallBase64(MediaType.PNG))))));
    c.add(new Case("media type missing", ErrorCode.UNSUPPORTED_MEDIA_TYPE, 0, "missing",
        Wire.userMessage(List.of("{\"data\":\"" + SampleImages.smallBase64(MediaType.PNG) + "\"}"))));
    c.add(new Case("declared png, bytes jpeg", ErrorCode.MEDIA_TYPE_MISMATCH, 1, "declared as image/png but its bytes are image/jpeg",
        Wire.frame("assistant.done", payload("chart", List.of(smallImage(MediaType.GIF), image("image/png", jpegBase64))))));
    c.add(new Case("declared webp, bytes not an image", ErrorCode.MEDIA_TYPE_MISMATCH, 0, "not a PNG, JPEG, GIF or WebP",
        Wire.frame("assistant.message", payload("", List.of(image("image/webp", "AAAAAAAAAAAAAAAA"))))));
    c.add(new Case("whitespace in base64", ErrorCode.INVALID_BASE64, 0, "normalizeBase64",
        Wire.userMessage(List.of(image("image/png", "iVBORw0K\\nGgo=")))));
    c.add(new Case("url-safe base64", ErrorCode.INVALID_BASE64, 1, "standard base64",
        Wire.userMessage(List.of(png, image("image/png", "iVBORw0K_-go=")))));
    c.add(new Case("truncated base64", ErrorCode.INVALID_BASE64, 0, "truncated",
        Wire.userMessage(List.of(image("image/png", "iVBORw0KG")))));
    c.add(new Case("bad padding", ErrorCode.INVALID_BASE64, 0, "padding",
        Wire.userMessage(List.of(image("image/png", "iVBORw0KGgo==")))));
    c.add(new Case("empty data", ErrorCode.INVALID_BASE64, 0, "empty",
        Wire.userMessage(List.of(image("image/png", "")))));
    c.add(new Case("data URI prefix", ErrorCode.DATA_URI_NOT_ALLOWED, 0, "Images.fromDataUri",
        Wire.userMessage(List.of(image("image/png", "data:image/png;base64," + SampleImages.smallBase64(MediaType.PNG))))));
    c.add(new Case("one image too large", ErrorCode.IMAGE_TOO_LARGE, 1, "(2001 bytes) decoded; the limit is 2.0 KiB (2000 bytes) per image, so resize or recompress it",
        Wire.userMessage(List.of(png(100), png(2001)))));
    c.add(new Case("images too large together", ErrorCode.FRAME_IMAGES_TOO_LARGE, -1, "(3001 bytes) decoded; a frame may carry at most 2.9 KiB (3000 bytes) of images, so send some in another message",
        Wire.frame("assistant.done", payload("", List.of(png(1500), png(1501))))));
    c.add(new Case("too many images", ErrorCode.TOO_MANY_IMAGES, -1, "at most 3",
        Wire.userMessage(List.of(png, png, png, png))));
    c.add(new Case("images on a delta", ErrorCode.IMAGES_NOT_ALLOWED, -1, "assistant.done",
        Wire.frame("assistant.delta", payload("x", List.of(png)))));
    c.add(new Case("images on presence", ErrorCode.IMAGES_NOT_ALLOWED, -1, "cannot carry images",
        Wire.frame("status.presence", "{\"state\":\"thinking\",\"images\":[]}")));
    return c;
  }

  static Stream<Arguments> casesAtEveryEntryPoint() {
    return cases().stream().flatMap(c -> Stream.of(Wire.Consumer.values()).map(e -> Arguments.of(c, e)));
  }

  @ParameterizedTest(name = "{0} via {1}")
  @MethodSource("casesAtEveryEntryPoint")
  void badFrame_isRejectedAlikeAtEveryConsumerEntryPoint(Case c, Wire.Consumer entry) throws Exception {
    TetherException e = entry.outcome(VALIDATOR, c.wire).orElseThrow(() -> new AssertionError(entry + " accepted " + c));
    assertEquals(c.code, e.code(), e.getMessage());
    if (c.index < 0) {
      assertTrue(e.imageIndex().isEmpty(), "no image index expected: " + e.getMessage());
    } else {
      assertEquals(c.index, e.imageIndex().orElseThrow(), e.getMessage());
      assertTrue(e.getMessage().startsWith("image " + c.index), e.getMessage());
    }
    assertTrue(e.getMessage().contains(c.advice), "message '" + e.getMessage() + "' lacks '" + c.advice + "'");
  }

  @Test
  void caseTable_coversEveryCodeButTheWireLimitAndTheEnvelopeVersion() {
    // The version is an envelope rule, which payload entry points never see: it has its own test.
    Set<ErrorCode> covered = EnumSet.noneOf(ErrorCode.class);
    cases().forEach(c -> covered.add(c.code));
    Set<ErrorCode> wire = EnumSet.noneOf(ErrorCode.class);
    for (ErrorCode code : ErrorCode.values()) {
      if (code.kind() == ErrorCode.Kind.WIRE) {
        wire.add(code);
      }
    }
    // Blob refs have their own test (BlobRefValidationTest): the codec reads inline images only.
    wire.removeAll(EnumSet.of(ErrorCode.FRAME_TOO_LARGE, ErrorCode.UNSUPPORTED_VERSION,
        ErrorCode.INVALID_BLOB_REF, ErrorCode.BLOB_NOT_FOUND, ErrorCode.BLOB_CORRUPTED));
    assertEquals(wire, covered);
  }

  /** The byte entry points and the codec behind VALIDATE_FRAME: every one that sees the envelope. */
  private static final List<Wire.Consumer> ENVELOPE_ENTRIES = List.of(Wire.Consumer.VALIDATE_BYTES,
      Wire.Consumer.VALIDATE_BYTES_RANGE, Wire.Consumer.READ_STREAM, Wire.Consumer.READ_BYTES, Wire.Consumer.VALIDATE_FRAME);

  @Test
  void frameWithoutV_isMalformedAndAnotherVersionIsUnsupported_alikeInValidatorAndCodec() throws Exception {
    String rest = "\"type\":\"user.message\",\"payload\":{\"text\":\"hi\"}}";
    for (Wire.Consumer entry : ENVELOPE_ENTRIES) {
      TetherException missing = entry.outcome(VALIDATOR, ("{" + rest).getBytes(StandardCharsets.UTF_8)).orElseThrow();
      assertEquals(ErrorCode.MALFORMED_FRAME, missing.code(), entry.toString());
      assertEquals(dev.tether.api.internal.WireRules.VERSION_MISSING, missing.getMessage(), entry.toString());
      for (String v : List.of("2", "0", "-1", "2147483648")) {
        TetherException e = entry.outcome(VALIDATOR, ("{\"v\":" + v + "," + rest).getBytes(StandardCharsets.UTF_8)).orElseThrow();
        assertEquals(ErrorCode.UNSUPPORTED_VERSION, e.code(), entry + " v=" + v);
        assertEquals(dev.tether.api.internal.WireRules.versionUnsupported(v), e.getMessage(), entry + " v=" + v);
      }
      for (String v : List.of("1.0", "\"1\"", "null", "1e0")) {
        TetherException e = entry.outcome(VALIDATOR, ("{\"v\":" + v + "," + rest).getBytes(StandardCharsets.UTF_8)).orElseThrow();
        assertEquals(ErrorCode.MALFORMED_FRAME, e.code(), entry + " v=" + v);
        assertEquals(dev.tether.api.internal.WireRules.VERSION_NOT_INTEGER, e.getMessage(), entry + " v=" + v);
      }
    }
  }

  @Test
  void unpairedSurrogateEscape_isMalformedWithTheCodecsWords_inAnyString() throws Exception {
    for (String escape : List.of("\\ud800", "\\udfff", "\\ud800\\u0041", "\\udc00\\ud800")) {
      for (String json : List.of(
          "{\"v\":1,\"type\":\"user.message\",\"payload\":{\"text\":\"" + escape + "\"}}",
          "{\"v\":1,\"type\":\"x.y\",\"session\":{\"channel\":\"" + escape + "\",\"id\":\"d\"}}",
          "{\"v\":1,\"type\":\"x.y\",\"" + escape + "\":[{\"k\":1}]}",
          "{\"v\":1,\"type\":\"assistant.done\",\"payload\":{\"text\":\"\",\"images\":[{\"media_type\":\"image/png\",\"data\":\"" + escape + "\"}]}}")) {
        for (Wire.Consumer entry : ENVELOPE_ENTRIES) {
          TetherException e = entry.outcome(VALIDATOR, json.getBytes(StandardCharsets.UTF_8))
              .orElseThrow(() -> new AssertionError(entry + " accepted " + json));
          assertEquals(ErrorCode.MALFORMED_FRAME, e.code(), entry + ": " + json);
          assertTrue(e.getMessage().startsWith(dev.tether.api.internal.WireRules.LONE_SURROGATE), entry + ": " + e.getMessage());
        }
      }
    }
    // A paired escape is fine, and so is an escaped backslash followed by "ud800".
    VALIDATOR.validate("{\"v\":1,\"type\":\"user.message\",\"payload\":{\"text\":\"\\ud83d\\ude00 \\\\ud800\"}}"
        .getBytes(StandardCharsets.UTF_8));
  }

  @ParameterizedTest
  @EnumSource(value = Wire.Consumer.class, names = {"VALIDATE_BYTES", "VALIDATE_BYTES_RANGE", "READ_STREAM", "READ_BYTES"})
  void frameOverTheWireLimit_isFrameTooLargeAtTheWireEntryPoints(Wire.Consumer entry) throws Exception {
    FrameValidator tight = FrameValidator.withLimits(SMALL.toBuilder().maxFrameBytes(500).build());
    byte[] wire = Wire.userMessage(List.of(png(400)));
    assertTrue(wire.length > 500);
    TetherException e = entry.outcome(tight, wire).orElseThrow();
    assertEquals(ErrorCode.FRAME_TOO_LARGE, e.code());
    assertTrue(e.imageIndex().isEmpty());
    assertTrue(e.getMessage().contains("500 bytes") && e.getMessage().contains("fewer or smaller images"), e.getMessage());
  }

  @Test
  void readStream_overTheLimit_readsAtMostLimitPlusOneBytes() {
    int limit = 10_000;
    FrameValidator tight = FrameValidator.withLimits(SMALL.toBuilder().maxFrameBytes(limit).build());
    long[] served = {0};
    java.io.InputStream endless = new java.io.InputStream() {
      @Override
      public int read() {
        served[0]++;
        return ' ';
      }

      @Override
      public int read(byte[] b, int off, int len) {
        java.util.Arrays.fill(b, off, off + len, (byte) ' ');
        served[0] += len;
        return len;
      }
    };
    assertEquals(ErrorCode.FRAME_TOO_LARGE, assertThrows(TetherException.class, () -> tight.read(endless)).code());
    assertEquals(limit + 1, served[0]);
  }

  @ParameterizedTest
  @EnumSource(Wire.Consumer.class)
  void goodFrames_passEveryConsumerEntryPoint(Wire.Consumer entry) throws Exception {
    List<byte[]> good = List.of(
        Wire.userMessage(List.of(smallImage(MediaType.PNG), smallImage(MediaType.JPEG), smallImage(MediaType.WEBP))),
        Wire.frame("assistant.done", payload("here", List.of(smallImage(MediaType.GIF)))),
        Wire.frame("assistant.message", payload("", List.of(image("image/png", SampleImages.unpadded(SampleImages.smallBase64(MediaType.PNG)))))),
        Wire.frame("user.message", "{\"text\":\"\",\"images\":[{\"ref\":\"sha256:x\",\"size\":9,\"media_type\":\"image/gif\",\"data\":\""
            + SampleImages.smallBase64(MediaType.GIF) + "\",\"extra\":{\"k\":[1]}}],\"user\":{\"id\":5}}"),
        Wire.frame("assistant.delta", "{\"text\":\"x\",\"images\":null}"),
        Wire.frame("status.presence", "{\"state\":\"thinking\"}"),
        Wire.frame("control.cancel", "{}"),
        Wire.frame("reasoning.done", "{\"images\":\"anything goes for types the SDK does not model\"}"),
        Wire.frame("user.message", payload("", List.of(png(2000), png(1000)))));
    for (byte[] wire : good) {
      java.util.Optional<TetherException> outcome = entry.outcome(VALIDATOR, wire);
      assertTrue(outcome.isEmpty(), () -> entry + " rejected " + new String(wire, StandardCharsets.UTF_8) + ": " + outcome);
    }
  }

  @Test
  void escapedBase64_isUnderstood() {
    // JSON may escape any character; "\/" and "\u0041" are '/' and 'A' in the data.
    String data = SampleImages.smallBase64(MediaType.PNG);
    String escaped = data.substring(0, 4) + String.format("\\u%04x", (int) data.charAt(4)) + data.substring(5).replace("/", "\\/");
    VALIDATOR.validate(Wire.userMessage(List.of(image("image/png", escaped))));
    // A JSON-escaped line break is still whitespace inside base64.
    TetherException e = assertThrows(TetherException.class,
        () -> VALIDATOR.validate(Wire.userMessage(List.of(image("image/png", data.substring(0, 8) + "\\r\\n" + data.substring(8))))));
    assertEquals(ErrorCode.INVALID_BASE64, e.code());
  }

  @Test
  void malformedJson_isMalformedFrameAtTheByteEntryPoints() throws Exception {
    List<String> bad = List.of("", "{", "[]", "{\"v\":1,\"type\":\"user.message\",\"payload\":{\"text\":\"\"}",
        "{\"v\":1,\"type\":\"user.message\",\"type\":\"user.message\"}", "{\"v\":1,\"type\":\"a\",\"payload\":{\"text\":\"\",\"text\":\"\"}}",
        "{\"v\":1,\"type\":\"user.message\",\"payload\":{\"text\":\"\",\"images\":[{\"media_type\":\"image/png\",\"media_type\":\"image/png\"}]}}",
        "{\"payload\":{}}", "{\"v\":1,\"type\":7}", "{\"v\":1,\"type\":\"a\"} {}", "{\"v\":1,\"type\":\"a\",\"x\":tru}", "{\"v\":1,\"type\":\"a\",\"x\":\"\\q\"}",
        "{\"v\":1,\"type\":\"a\",\"x\":" + "[".repeat(300) + "]".repeat(300) + "}");
    for (String json : bad) {
      byte[] wire = json.getBytes(StandardCharsets.UTF_8);
      for (Wire.Consumer entry : List.of(Wire.Consumer.VALIDATE_BYTES, Wire.Consumer.READ_STREAM, Wire.Consumer.READ_BYTES)) {
        assertEquals(ErrorCode.MALFORMED_FRAME, entry.rejectCode(VALIDATOR, wire), entry + ": " + json);
      }
    }
  }

  @Test
  void duplicateImagesField_isMalformedEvenWhenTheFirstIsNull() throws Exception {
    // A lenient consumer might take either field; the SDK's codec rejects the frame, so must the validator.
    for (String payload : List.of("{\"text\":\"\",\"images\":null,\"images\":[" + smallImage(MediaType.GIF) + "]}",
        "{\"text\":\"\",\"images\":[" + smallImage(MediaType.GIF) + "],\"images\":null}",
        "{\"text\":\"\",\"images\":\"x\",\"images\":[]}")) {
      byte[] wire = Wire.frame("user.message", payload);
      for (Wire.Consumer entry : List.of(Wire.Consumer.VALIDATE_BYTES, Wire.Consumer.READ_STREAM, Wire.Consumer.VALIDATE_PAYLOAD)) {
        TetherException e = entry.outcome(VALIDATOR, wire).orElseThrow(() -> new AssertionError(entry + " accepted " + payload));
        assertEquals(ErrorCode.MALFORMED_FRAME, e.code(), entry + ": " + payload);
        assertTrue(e.getMessage().contains("duplicate"), e.getMessage());
      }
    }
  }

  @Test
  void limitsAllowingMoreImagesThanTheScanTracks_areRefused() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> FrameValidator.withLimits(Limits.builder().maxImagesPerMessage(65).build()));
    assertTrue(e.getMessage().startsWith("maxImagesPerMessage must be <= 64"), e.getMessage());
    // At the largest allowed limit, 64 images are judged one by one and 65 are too many.
    FrameValidator wide = FrameValidator.withLimits(Limits.builder().maxImagesPerMessage(64).build());
    String gif = smallImage(MediaType.GIF);
    wide.validate(Wire.userMessage(java.util.Collections.nCopies(64, gif)));
    List<String> badLast = new ArrayList<>(java.util.Collections.nCopies(63, gif));
    badLast.add(image("image/gif", "!!!!"));
    TetherException bad = assertThrows(TetherException.class, () -> wide.validate(Wire.userMessage(badLast)));
    assertEquals(ErrorCode.INVALID_BASE64, bad.code());
    assertEquals(63, bad.imageIndex().orElseThrow());
    assertEquals(ErrorCode.TOO_MANY_IMAGES,
        assertThrows(TetherException.class, () -> wide.validate(Wire.userMessage(java.util.Collections.nCopies(65, gif)))).code());
  }

  @Test
  void validatePayload_checksTheSyntaxOfBytesItDidNotParse() {
    for (String payload : List.of("{\"text\":\"\",}", "{\"text\":\"a\"} x", "{\"text\":\"\",\"k\":[1,]}", "{\"text\":\"\",\"text\":\"\"}")) {
      byte[] bytes = payload.getBytes(StandardCharsets.UTF_8);
      TetherException e = assertThrows(TetherException.class,
          () -> VALIDATOR.validatePayload("user.message", ApiInternals.wrapTrusted(bytes, 0, bytes.length)), payload);
      assertEquals(ErrorCode.MALFORMED_FRAME, e.code(), payload);
    }
  }

  @Test
  void readStream_returnsTheFrameSharingTheOneBuffer() throws Exception {
    byte[] wire = Wire.userMessage(List.of(smallImage(MediaType.PNG)));
    Frame frame = VALIDATOR.read(new ByteArrayInputStream(wire));
    assertEquals(FrameCodec.standard().read(wire), frame);
    assertEquals(List.of(new dev.tether.api.Image(MediaType.PNG, SampleImages.smallBase64(MediaType.PNG))), frame.payloadView().images());
  }

  @Test
  void unknownTypes_passThroughWithoutImageChecks() throws Exception {
    byte[] wire = Wire.frame("x.custom", "{\"images\":[{\"media_type\":\"image/bmp\",\"data\":\"!!\"}],\"n\":1}");
    for (Wire.Consumer entry : Wire.Consumer.values()) {
      assertFalse(entry.outcome(VALIDATOR, wire).isPresent(), entry.toString());
    }
  }

  @Test
  void validateImages_andFrameValidation_agreeOnTypedImages() {
    List<dev.tether.api.Image> images = List.of(
        new dev.tether.api.Image(MediaType.PNG, Base64.getEncoder().encodeToString(SampleImages.ofSize(MediaType.PNG, 1500))),
        new dev.tether.api.Image(MediaType.JPEG, Base64.getEncoder().encodeToString(SampleImages.ofSize(MediaType.JPEG, 1501))));
    TetherException producer = assertThrows(TetherException.class, () -> VALIDATOR.validateImages(images));
    Frame frame = dev.tether.api.Frames.hostUserMessage("default", "", images);
    TetherException consumer = assertThrows(TetherException.class, () -> VALIDATOR.validate(FrameCodec.standard().write(frame)));
    assertEquals(ErrorCode.FRAME_IMAGES_TOO_LARGE, producer.code());
    assertEquals(producer.code(), consumer.code());
    assertEquals(producer.getMessage(), consumer.getMessage());
  }
}
