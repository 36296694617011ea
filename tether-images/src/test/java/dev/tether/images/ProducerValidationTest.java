package dev.tether.images;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tether.api.ErrorCode;
import dev.tether.api.Image;
import dev.tether.api.Limits;
import dev.tether.api.MediaType;
import dev.tether.api.TetherException;
import java.util.Base64;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The producer entry points: {@link Images#fromBytes}, {@link Images#of},
 * {@link Images#fromDataUri} and {@link FrameValidator#validateImages}. Each error code that can
 * arise there is produced, with the image index and a message that says what to do.
 */
class ProducerValidationTest {
  private static final Limits SMALL = ConsumerValidationTest.SMALL;
  private static final FrameValidator VALIDATOR = ConsumerValidationTest.VALIDATOR;
  private static final Set<ErrorCode> PRODUCED = EnumSet.noneOf(ErrorCode.class);

  private static TetherException rejects(ErrorCode code, int index, String advice, Executable call) {
    TetherException e = assertThrows(TetherException.class, call);
    assertEquals(code, e.code(), e.getMessage());
    if (index < 0) {
      assertTrue(e.imageIndex().isEmpty(), e.getMessage());
    } else {
      assertEquals(index, e.imageIndex().orElseThrow(), e.getMessage());
      assertTrue(e.getMessage().startsWith("image " + index), e.getMessage());
    }
    assertTrue(e.getMessage().contains(advice), "message '" + e.getMessage() + "' lacks '" + advice + "'");
    synchronized (PRODUCED) {
      PRODUCED.add(code);
    }
    return e;
  }

  private static String base64(byte[] bytes) {
    return Base64.getEncoder().encodeToString(bytes);
  }

  @ParameterizedTest
  @EnumSource(MediaType.class)
  void realImagesOfEachType_passEveryProducerEntryPoint(MediaType type) {
    byte[] bytes = SampleImages.small(type);
    Image fromBytes = Images.fromBytes(bytes, type);
    assertEquals(new Image(type, base64(bytes)), fromBytes);
    assertEquals(fromBytes, Images.of(type, base64(bytes)));
    assertEquals(new Image(type, SampleImages.unpadded(base64(bytes))), Images.of(type, SampleImages.unpadded(base64(bytes))));
    assertEquals(fromBytes, Images.fromDataUri("data:" + type.mimeType() + ";base64," + base64(bytes)));
    assertEquals(bytes.length, fromBytes.decodedSize());
    VALIDATOR.validateImages(List.of(fromBytes));
    assertArrayEquals(bytes, Base64.getDecoder().decode(fromBytes.data()));
  }

  @Test
  void fromBytes_rejectsOversizeAndMismatch() {
    rejects(ErrorCode.IMAGE_TOO_LARGE, 0, "(2001 bytes) decoded; the limit is 2.0 KiB (2000 bytes) per image, so resize",
        () -> Images.fromBytes(SampleImages.ofSize(MediaType.PNG, 2001), MediaType.PNG, SMALL));
    Images.fromBytes(SampleImages.ofSize(MediaType.PNG, 2000), MediaType.PNG, SMALL);
    rejects(ErrorCode.MEDIA_TYPE_MISMATCH, 0, "declared as image/gif but its bytes are image/png; declare the type",
        () -> Images.fromBytes(SampleImages.small(MediaType.PNG), MediaType.GIF));
    rejects(ErrorCode.MEDIA_TYPE_MISMATCH, 0, "are not a PNG, JPEG, GIF or WebP image",
        () -> Images.fromBytes(new byte[] {'B', 'M', 0, 0}, MediaType.PNG));
    rejects(ErrorCode.MEDIA_TYPE_MISMATCH, 0, "not a PNG", () -> Images.fromBytes(new byte[0], MediaType.JPEG));
    // RIFF without WEBP at bytes 8..11 is not WebP (a WAV file, say).
    byte[] wav = SampleImages.small(MediaType.WEBP);
    wav[8] = 'W';
    wav[9] = 'A';
    wav[10] = 'V';
    wav[11] = 'E';
    rejects(ErrorCode.MEDIA_TYPE_MISMATCH, 0, "declared as image/webp", () -> Images.fromBytes(wav, MediaType.WEBP));
  }

  @Test
  void of_rejectsEveryKindOfBadBase64() {
    String png = SampleImages.smallBase64(MediaType.PNG);
    rejects(ErrorCode.DATA_URI_NOT_ALLOWED, 0, "send only the base64 after the comma",
        () -> Images.of(MediaType.PNG, "data:image/png;base64," + png));
    rejects(ErrorCode.INVALID_BASE64, 0, "whitespace at character 8; remove line breaks and spaces (Images.normalizeBase64",
        () -> Images.of(MediaType.PNG, png.substring(0, 8) + "\r\n" + png.substring(8)));
    rejects(ErrorCode.INVALID_BASE64, 0, "URL-safe alphabet", () -> Images.of(MediaType.PNG, png.replace('+', '-').replace('/', '_') + "-_"));
    rejects(ErrorCode.INVALID_BASE64, 0, "outside the base64 alphabet at character 3", () -> Images.of(MediaType.PNG, "iVB\u00e9Rw0KGgo="));
    rejects(ErrorCode.INVALID_BASE64, 0, "continues after its '=' padding", () -> Images.of(MediaType.PNG, "iVBORw0KGgo=AAAA"));
    rejects(ErrorCode.INVALID_BASE64, 0, "more than two '='", () -> Images.of(MediaType.PNG, "iVBORw0KGg==="));
    rejects(ErrorCode.INVALID_BASE64, 0, "looks truncated", () -> Images.of(MediaType.PNG, "iVBORw0KG"));
    rejects(ErrorCode.INVALID_BASE64, 0, "data is empty", () -> Images.of(MediaType.PNG, ""));
    rejects(ErrorCode.INVALID_BASE64, 0, "only padding", () -> Images.of(MediaType.PNG, "=="));
    rejects(ErrorCode.IMAGE_TOO_LARGE, 0, "resize or recompress",
        () -> Images.of(MediaType.PNG, base64(SampleImages.ofSize(MediaType.PNG, 2001)), SMALL));
    rejects(ErrorCode.MEDIA_TYPE_MISMATCH, 0, "declared as image/webp but its bytes are image/jpeg",
        () -> Images.of(MediaType.WEBP, SampleImages.smallBase64(MediaType.JPEG)));
  }

  @Test
  void of_rejectsCharactersBeyondAscii_evenWhenTheirLowByteIsABase64Symbol() {
    // U+0141 and U+0241 narrow to 'A'; U+00C1 is Latin-1. The check copies chunks of characters
    // as bytes, so each must still be seen as the character it is, in any chunk.
    String big = base64(SampleImages.ofSize(MediaType.PNG, 30_000));
    for (char c : new char[] {'\u0141', '\u0241', '\u00c1', '\uff41'}) {
      rejects(ErrorCode.INVALID_BASE64, 0, "outside the base64 alphabet at character 3",
          () -> Images.of(MediaType.PNG, "iVB" + c + "Rw0KGgo="));
      for (int at : new int[] {4095, 4096, 20_001, big.length() - 1}) {
        rejects(ErrorCode.INVALID_BASE64, 0, "outside the base64 alphabet at character " + at,
            () -> Images.of(MediaType.PNG, big.substring(0, at) + c + big.substring(at + 1)));
      }
    }
  }

  @Test
  void of_longBase64_findsAProblemPastTheFirstChunk() {
    // The producer scans in chunks; a bad character deep in the data must still be found.
    String big = base64(SampleImages.ofSize(MediaType.PNG, 30_000));
    int at = 20_001;
    rejects(ErrorCode.INVALID_BASE64, 0, "at character " + at, () -> Images.of(MediaType.PNG, big.substring(0, at) + "*" + big.substring(at + 1)));
  }

  @Test
  void fromDataUri_stripsThePrefixAndChecksTheType() {
    String gif = SampleImages.smallBase64(MediaType.GIF);
    assertEquals(new Image(MediaType.GIF, gif), Images.fromDataUri("DATA:Image/GIF;base64," + gif));
    assertEquals(new Image(MediaType.GIF, gif), Images.fromDataUri("data:image/gif;name=a.gif;base64," + gif));
    rejects(ErrorCode.MALFORMED_FRAME, 0, "expected data:image/png;base64,<data>", () -> Images.fromDataUri(gif));
    rejects(ErrorCode.MALFORMED_FRAME, 0, "not a data URI", () -> Images.fromDataUri("data:image/gif;base64"));
    rejects(ErrorCode.INVALID_BASE64, 0, "expected ';base64,'", () -> Images.fromDataUri("data:image/gif," + gif));
    rejects(ErrorCode.UNSUPPORTED_MEDIA_TYPE, 0, "'image/svg+xml' is not supported; use one of image/png, image/jpeg, image/gif or image/webp",
        () -> Images.fromDataUri("data:image/svg+xml;base64,PHN2Zz4="));
    rejects(ErrorCode.UNSUPPORTED_MEDIA_TYPE, 0, "use one of", () -> Images.fromDataUri("data:;base64," + gif));
    rejects(ErrorCode.MEDIA_TYPE_MISMATCH, 0, "declared as image/png but its bytes are image/gif",
        () -> Images.fromDataUri("data:image/png;base64," + gif));
    rejects(ErrorCode.INVALID_BASE64, 0, "whitespace", () -> Images.fromDataUri("data:image/gif;base64," + gif.substring(0, 4) + " " + gif.substring(4)));
    rejects(ErrorCode.DATA_URI_NOT_ALLOWED, 0, "data:", () -> Images.fromDataUri("data:image/gif;base64,data:image/gif;base64," + gif));
    rejects(ErrorCode.IMAGE_TOO_LARGE, 0, "per image",
        () -> Images.fromDataUri("data:image/gif;base64," + base64(SampleImages.ofSize(MediaType.GIF, 2001)), SMALL));
  }

  @Test
  void mediaTypeOf_rejectsUnsupportedTypes() {
    rejects(ErrorCode.UNSUPPORTED_MEDIA_TYPE, -1, "use one of image/png", () -> MediaType.of("image/bmp"));
    rejects(ErrorCode.UNSUPPORTED_MEDIA_TYPE, -1, "is missing", () -> MediaType.of(null));
    assertSame(MediaType.WEBP, MediaType.of("image/webp"));
  }

  @Test
  void validateImages_checksCountEachImageAndTheTotal() {
    Image png = Images.fromBytes(SampleImages.small(MediaType.PNG), MediaType.PNG);
    rejects(ErrorCode.TOO_MANY_IMAGES, -1, "the message has 4 images; at most 3 are allowed per message, so send the rest",
        () -> VALIDATOR.validateImages(List.of(png, png, png, png)));
    rejects(ErrorCode.FRAME_IMAGES_TOO_LARGE, -1, "so send some in another message",
        () -> VALIDATOR.validateImages(List.of(
            new Image(MediaType.PNG, base64(SampleImages.ofSize(MediaType.PNG, 1500))),
            new Image(MediaType.PNG, base64(SampleImages.ofSize(MediaType.PNG, 1501))))));
    rejects(ErrorCode.IMAGE_TOO_LARGE, 1, "resize", () -> VALIDATOR.validateImages(List.of(png,
        new Image(MediaType.PNG, base64(SampleImages.ofSize(MediaType.PNG, 2001))))));
    rejects(ErrorCode.MEDIA_TYPE_MISMATCH, 2, "declared as image/jpeg", () -> VALIDATOR.validateImages(List.of(png, png,
        new Image(MediaType.JPEG, SampleImages.smallBase64(MediaType.GIF)))));
    rejects(ErrorCode.INVALID_BASE64, 1, "whitespace", () -> VALIDATOR.validateImages(List.of(png,
        new Image(MediaType.PNG, png.data().substring(0, 8) + "\n" + png.data().substring(8)))));
    rejects(ErrorCode.DATA_URI_NOT_ALLOWED, 0, "Images.fromDataUri", () -> VALIDATOR.validateImages(List.of(
        new Image(MediaType.PNG, "data:image/png;base64," + png.data()))));
    VALIDATOR.validateImages(List.of(png, png, png));
    VALIDATOR.validateImages(List.of());
    FrameValidator textOnly = FrameValidator.withLimits(Limits.builder().maxImagesPerMessage(0).build());
    textOnly.validateImages(List.of());
    rejects(ErrorCode.TOO_MANY_IMAGES, -1, "at most 0", () -> textOnly.validateImages(List.of(png)));
  }

  @Test
  void producerEntryPoints_coverEveryCodeThatCanAriseThere() {
    fromBytes_rejectsOversizeAndMismatch();
    of_rejectsEveryKindOfBadBase64();
    fromDataUri_stripsThePrefixAndChecksTheType();
    validateImages_checksCountEachImageAndTheTotal();
    mediaTypeOf_rejectsUnsupportedTypes();
    // FRAME_TOO_LARGE, UNSUPPORTED_VERSION and IMAGES_NOT_ALLOWED concern wire frames, which
    // producers do not parse.
    Set<ErrorCode> wire = EnumSet.noneOf(ErrorCode.class);
    for (ErrorCode code : ErrorCode.values()) {
      if (code.kind() == ErrorCode.Kind.WIRE) {
        wire.add(code);
      }
    }
    // Blob refs have their own test (BlobRefValidationTest): the codec reads inline images only.
    wire.removeAll(EnumSet.of(ErrorCode.FRAME_TOO_LARGE, ErrorCode.UNSUPPORTED_VERSION, ErrorCode.IMAGES_NOT_ALLOWED,
        ErrorCode.INVALID_BLOB_REF, ErrorCode.BLOB_NOT_FOUND, ErrorCode.BLOB_CORRUPTED));
    assertEquals(wire, PRODUCED);
  }

  @ParameterizedTest
  @ValueSource(strings = {"iVBO\r\nRw0K\nGgo=", " iVBORw0KGgo= ", "iVBORw0KGgo=", "\tiVBO Rw0K Ggo=\r\n"})
  void normalizeBase64_removesMimeWhitespaceOnly(String wrapped) {
    assertEquals("iVBORw0KGgo=", Images.normalizeBase64(wrapped));
  }

  @Test
  void normalizeBase64_ofMimeEncoderOutput_isAcceptedByOf() {
    byte[] bytes = SampleImages.ofSize(MediaType.JPEG, 5000);
    String mime = Base64.getMimeEncoder().encodeToString(bytes);
    assertTrue(mime.contains("\r\n"));
    assertEquals(ErrorCode.INVALID_BASE64, assertThrows(TetherException.class, () -> Images.of(MediaType.JPEG, mime)).code());
    assertEquals(Images.fromBytes(bytes, MediaType.JPEG), Images.of(MediaType.JPEG, Images.normalizeBase64(mime)));
    String same = "abc";
    assertSame(same, Images.normalizeBase64(same), "nothing to remove: no copy");
  }
}
