package dev.tether.images;

import static dev.tether.api.testing.TestImages.app1WithDecoySof;
import static dev.tether.api.testing.TestImages.ascii;
import static dev.tether.api.testing.TestImages.bytes;
import static dev.tether.api.testing.TestImages.chunk;
import static dev.tether.api.testing.TestImages.concat;
import static dev.tether.api.testing.TestImages.encode;
import static dev.tether.api.testing.TestImages.encodeProgressiveJpeg;
import static dev.tether.api.testing.TestImages.gif;
import static dev.tether.api.testing.TestImages.indexOfMarker;
import static dev.tether.api.testing.TestImages.insertAfterSoi;
import static dev.tether.api.testing.TestImages.jpeg;
import static dev.tether.api.testing.TestImages.png;
import static dev.tether.api.testing.TestImages.riff;
import static dev.tether.api.testing.TestImages.segment;
import static dev.tether.api.testing.TestImages.segmentWithLength;
import static dev.tether.api.testing.TestImages.sofPayload;
import static dev.tether.api.testing.TestImages.u16le;
import static dev.tether.api.testing.TestImages.u32le;
import static dev.tether.api.testing.TestImages.vp8Payload;
import static dev.tether.api.testing.TestImages.vp8lPayload;
import static dev.tether.api.testing.TestImages.vp8xPayload;
import static dev.tether.api.testing.TestImages.webpVp8;
import static dev.tether.api.testing.TestImages.webpVp8l;
import static dev.tether.api.testing.TestImages.webpVp8x;
import static dev.tether.api.testing.TestImages.with;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tether.api.MediaType;
import dev.tether.images.ImageHeaders.Dimensions;
import java.time.Duration;
import java.util.Arrays;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

class ImageHeadersTest {

  private static Stream<Arguments> imageIoSizes() {
    return Stream.of(Arguments.of(1, 1), Arguments.of(37, 19), Arguments.of(640, 480), Arguments.of(8001, 3));
  }

  private static Dimensions dims(byte[] image) {
    return ImageHeaders.dimensions(image);
  }

  /** Asserts an InvalidImageHeaderException whose message contains every fragment. */
  private static void assertInvalid(byte[] image, String... messageFragments) {
    var e = assertThrows(InvalidImageHeaderException.class, () -> ImageHeaders.dimensions(image));
    for (String fragment : messageFragments) {
      assertTrue(e.getMessage().contains(fragment), () -> "'" + e.getMessage() + "' lacks '" + fragment + "'");
    }
  }

  // ---- signature ----

  private static Stream<Arguments> signatures() {
    return Stream.of(
        Arguments.of(MediaType.PNG, bytes(0x89, 'P', 'N', 'G', 0x0D, 0x0A, 0x1A, 0x0A)),
        Arguments.of(MediaType.JPEG, bytes(0xFF, 0xD8, 0xFF)),
        Arguments.of(MediaType.GIF, ascii("GIF87a")),
        Arguments.of(MediaType.GIF, ascii("GIF89a")),
        Arguments.of(MediaType.WEBP, concat(ascii("RIFF"), bytes(0, 0, 0, 0), ascii("WEBP"))));
  }

  @ParameterizedTest
  @MethodSource("signatures")
  void signature_recognizesEachSignatureAloneAndInFullImages(MediaType type, byte[] signature) {
    assertEquals(Optional.of(type), signature(signature));
    assertEquals(Optional.of(type), signature(concat(signature, bytes(0, 0xFF, 'x'))));
  }

  @ParameterizedTest
  @MethodSource("signatures")
  void signature_recognizesEachSignatureInAWindowAtAnOffset(MediaType type, byte[] signature) {
    byte[] padded = concat(bytes(0xFF, 0xD8, 0xFF, 'G'), signature, bytes(7, 7));
    assertEquals(Optional.of(type), ImageHeaders.signature(padded, 4, signature.length));
    assertEquals(Optional.of(type), ImageHeaders.signature(padded, 4, signature.length + 2));
  }

  @ParameterizedTest
  @MethodSource("signatures")
  void signature_isEmptyWhenTheWindowEndsOneByteBeforeTheSignatureDoes(MediaType type, byte[] signature) {
    byte[] padded = concat(bytes(1, 2), signature, bytes(7, 7));
    assertEquals(Optional.empty(), ImageHeaders.signature(padded, 2, signature.length - 1), type.mimeType());
    assertEquals(Optional.empty(), ImageHeaders.signature(padded, 2, 0), type.mimeType());
    assertEquals(Optional.empty(), signature(Arrays.copyOf(signature, signature.length - 1)), type.mimeType());
  }

  @ParameterizedTest
  @MethodSource("signatures")
  void signature_isEmptyWhenTheWindowStartsOneByteLate(MediaType type, byte[] signature) {
    byte[] padded = concat(bytes(1), signature, bytes(7, 7));
    assertEquals(Optional.empty(), ImageHeaders.signature(padded, 2, padded.length - 2), type.mimeType());
    assertEquals(Optional.empty(), ImageHeaders.signature(padded, 0, padded.length), type.mimeType());
  }

  @Test
  void signature_isEmptyForLookalikes() {
    assertEquals(Optional.empty(), signature(new byte[0]));
    assertEquals(Optional.empty(), signature(ascii("GIF88a")));
    assertEquals(Optional.empty(), signature(ascii("GIF89b")));
    assertEquals(Optional.empty(), signature(concat(ascii("RIFF"), bytes(0, 0, 0, 0), ascii("WAVE"))));
    assertEquals(Optional.empty(), signature(concat(ascii("RIFX"), bytes(0, 0, 0, 0), ascii("WEBP"))));
    assertEquals(Optional.empty(), signature(bytes(0xFF, 0xD8, 0x00)));
    assertEquals(Optional.empty(), signature(with(png(3, 4), 7, 0x0B)));
    assertEquals(Optional.empty(), signature(concat(ascii("BM"), new byte[60])));
  }

  @Test
  void signature_looksOnlyInsideTheWindow() {
    byte[] padded = concat(bytes(1, 2, 3), ascii("GIF89a"), bytes(4, 5));
    assertEquals(Optional.of(MediaType.GIF), ImageHeaders.signature(padded, 3, 6));
    assertEquals(Optional.empty(), ImageHeaders.signature(padded, 3, 5));
    assertEquals(Optional.empty(), ImageHeaders.signature(padded, 0, padded.length));
  }

  @Test
  void signature_rejectsWindowOutsideTheArray() {
    assertThrows(IndexOutOfBoundsException.class, () -> ImageHeaders.signature(new byte[4], 2, 3));
    assertThrows(IndexOutOfBoundsException.class, () -> ImageHeaders.signature(new byte[4], -1, 2));
    assertThrows(IndexOutOfBoundsException.class, () -> ImageHeaders.signature(new byte[4], 0, -1));
    assertThrows(NullPointerException.class, () -> ImageHeaders.signature(null, 0, 0));
  }

  private static Optional<MediaType> signature(byte[] image) {
    return ImageHeaders.signature(image, 0, image.length);
  }

  // ---- PNG ----

  @ParameterizedTest
  @MethodSource("imageIoSizes")
  void png_readsImageIoImages(int width, int height) {
    assertEquals(new Dimensions(width, height), dims(encode("png", width, height)));
  }

  @Test
  void png_readsLargestWidthAndHeight() {
    assertEquals(new Dimensions(Integer.MAX_VALUE, 5), dims(png(Integer.MAX_VALUE, 5)));
    assertEquals(new Dimensions(5, Integer.MAX_VALUE), dims(png(5, Integer.MAX_VALUE)));
  }

  @Test
  void png_rejectsWidthWithHighBitSet() {
    assertInvalid(png(0x8000_0000L, 5), "PNG", "2147483648");
  }

  @ParameterizedTest
  @ValueSource(strings = {"IHDX", "IDAT", "ihdr"})
  void png_rejectsWrongFirstChunkName(String chunkType) {
    assertInvalid(png(chunkType, 13, 3, 4), "PNG", "'" + chunkType + "'", "IHDR");
  }

  @ParameterizedTest
  @ValueSource(longs = {0, 12, 14, 0xFFFF_FFFFL})
  void png_rejectsIhdrLengthOtherThan13(long declaredLength) {
    assertInvalid(png("IHDR", declaredLength, 3, 4), "PNG", "IHDR chunk length is " + declaredLength);
  }

  @ParameterizedTest
  @CsvSource({"0, 4", "3, 0", "0, 0"})
  void png_rejectsZeroWidthOrHeight(int width, int height) {
    assertInvalid(png(width, height), "PNG", "width " + width + " and height " + height);
  }

  // ---- JPEG ----

  @ParameterizedTest
  @MethodSource("imageIoSizes")
  void jpeg_readsImageIoImages(int width, int height) {
    assertEquals(new Dimensions(width, height), dims(encode("jpeg", width, height)));
  }

  @Test
  void jpeg_readsProgressiveSof2() {
    byte[] progressive = encodeProgressiveJpeg(123, 45);
    assertTrue(indexOfMarker(progressive, 0xC2) > 0, "ImageIO should have written an SOF2 marker");
    assertEquals(new Dimensions(123, 45), dims(progressive));
  }

  @Test
  void jpeg_skipsApp1BeforeSof0() {
    byte[] withExif = insertAfterSoi(encode("jpeg", 37, 19), app1WithDecoySof());
    assertEquals(new Dimensions(37, 19), dims(withExif));
  }

  @ParameterizedTest
  @ValueSource(ints = {0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF})
  void jpeg_readsEveryStartOfFrameMarker(int sofMarker) {
    assertEquals(new Dimensions(300, 200), dims(jpeg(segment(sofMarker, sofPayload(300, 200)))));
  }

  @ParameterizedTest
  @ValueSource(ints = {0xC4, 0xC8, 0xCC, 0xDB, 0xDD, 0xE0, 0xEF, 0xFE, 0x02, 0xF0})
  void jpeg_skipsNonFrameSegmentsThatLookLikeFrames(int marker) {
    byte[] image = jpeg(segment(marker, sofPayload(5, 5)), segment(0xC0, sofPayload(9, 4)));
    assertEquals(new Dimensions(9, 4), dims(image));
  }

  @Test
  void jpeg_skipsFillBytesBeforeMarkers() {
    byte[] image = jpeg(bytes(0xFF, 0xFF, 0xFF), segment(0xE0, ascii("JFIF\0")),
        bytes(0xFF), segment(0xC0, sofPayload(64, 48)));
    assertEquals(new Dimensions(64, 48), dims(image));
  }

  @Test
  void jpeg_skipsStandaloneMarkers() {
    byte[] image = jpeg(bytes(0xFF, 0x01, 0xFF, 0xD0, 0xFF, 0xD7, 0xFF, 0xD8),
        segment(0xC1, sofPayload(10, 20)));
    assertEquals(new Dimensions(10, 20), dims(image));
  }

  @Test
  void jpeg_ignoresEverythingAfterSof() {
    byte[] real = encode("jpeg", 37, 19);
    int sof = indexOfMarker(real, 0xC0);
    int sofEnd = sof + 2 + (((real[sof + 2] & 0xFF) << 8) | (real[sof + 3] & 0xFF));
    byte[] garbageTail = real.clone();
    Arrays.fill(garbageTail, sofEnd, garbageTail.length, (byte) 0x00);
    assertEquals(new Dimensions(37, 19), dims(garbageTail));
  }

  @ParameterizedTest
  @ValueSource(ints = {0, 1})
  void jpeg_rejectsSegmentLengthBelowTwo(int length) {
    byte[] image = jpeg(segmentWithLength(0xE0, length, new byte[20]), segment(0xC0, sofPayload(9, 4)));
    assertInvalid(image, "JPEG", "segment 0xFFe0 at byte 2 has length " + length);
  }

  @Test
  void jpeg_rejectsSegmentLengthPastTheEnd() {
    byte[] image = jpeg(segmentWithLength(0xE1, 500, new byte[20]), segment(0xC0, sofPayload(9, 4)));
    assertInvalid(image, "JPEG", "truncated", "needs at least 504 bytes");
  }

  @Test
  void jpeg_rejectsSosBeforeSof() {
    byte[] image = jpeg(segment(0xDA, bytes(1, 1, 0, 0, 63, 0)), segment(0xC0, sofPayload(9, 4)));
    assertInvalid(image, "JPEG", "0xFFda", "before any start-of-frame");
  }

  @Test
  void jpeg_rejectsEoiBeforeSof() {
    assertInvalid(jpeg(segment(0xE0, ascii("JFIF\0")), bytes(0xFF, 0xD9)), "JPEG", "0xFFd9");
  }

  @Test
  void jpeg_rejectsGarbageWhereMarkerExpected() {
    byte[] image = jpeg(segment(0xE0, ascii("JFIF\0")), bytes(0x42), segment(0xC0, sofPayload(9, 4)));
    assertInvalid(image, "JPEG", "expected a marker at byte 11 but found 0x42");
  }

  @Test
  void jpeg_rejectsStuffedZeroWhereMarkerExpected() {
    assertInvalid(jpeg(bytes(0xFF, 0x00), segment(0xC0, sofPayload(9, 4))), "JPEG", "0xFF00");
  }

  @Test
  void jpeg_rejectsZeroHeightDeferredToDnl() {
    assertInvalid(jpeg(segment(0xC0, sofPayload(9, 0))), "JPEG", "width 9 and height 0");
  }

  @Test
  void jpeg_rejectsSofTooShortForItsComponents() {
    byte[] oneComponent = sofPayload(9, 4);
    assertInvalid(jpeg(segment(0xC0, Arrays.copyOf(oneComponent, 6))), "JPEG", "SOF", "length 8");
    assertInvalid(jpeg(segment(0xC0, Arrays.copyOf(oneComponent, 5))), "JPEG", "SOF", "length 7");
    assertInvalid(jpeg(segment(0xC0, with(oneComponent, 5, 2))), "JPEG", "2 component(s)");
    assertInvalid(jpeg(segment(0xC0, with(oneComponent, 5, 0))), "JPEG", "0 component(s)");
  }

  @Test
  void jpeg_onlyFillBytesEndInTruncationQuickly() {
    byte[] image = new byte[10_000_000];
    Arrays.fill(image, (byte) 0xFF);
    image[1] = (byte) 0xD8;
    assertTimeoutPreemptively(Duration.ofSeconds(5), () -> assertInvalid(image, "JPEG", "truncated"));
  }

  // ---- GIF ----

  @ParameterizedTest
  @MethodSource("imageIoSizes")
  void gif_readsImageIoImages(int width, int height) {
    assertEquals(new Dimensions(width, height), dims(encode("gif", width, height)));
  }

  @ParameterizedTest
  @ValueSource(strings = {"GIF87a", "GIF89a"})
  void gif_readsBothVersions(String version) {
    assertEquals(new Dimensions(65535, 258), dims(gif(version, 65535, 258)));
  }

  @ParameterizedTest
  @CsvSource({"0, 4", "3, 0"})
  void gif_rejectsZeroWidthOrHeight(int width, int height) {
    assertInvalid(gif("GIF89a", width, height), "GIF", "width " + width + " and height " + height);
  }

  // ---- WebP ----

  @ParameterizedTest
  @CsvSource({"1, 1", "37, 19", "16383, 16383"})
  void webp_readsVp8KeyFrame(int width, int height) {
    assertEquals(new Dimensions(width, height), dims(webpVp8(width, height)));
  }

  @Test
  void webp_vp8IgnoresScaleBits() {
    byte[] scaled = riff(chunk("VP8 ", concat(Arrays.copyOf(vp8Payload(1, 1), 6),
        u16le(0xC000 | 640), u16le(0x4000 | 480))));
    assertEquals(new Dimensions(640, 480), dims(scaled));
  }

  @ParameterizedTest
  @CsvSource({"1, 1", "37, 19", "16384, 16384"})
  void webp_readsVp8l(int width, int height) {
    assertEquals(new Dimensions(width, height), dims(webpVp8l(width, height)));
  }

  @ParameterizedTest
  @CsvSource({"1, 1", "37, 19", "16777216, 255"})
  void webp_readsVp8xCanvas(int width, int height) {
    assertEquals(new Dimensions(width, height), dims(webpVp8x(width, height)));
  }

  @Test
  void webp_rejectsRiffSizeSmallerThanFirstChunk() {
    byte[] image = webpVp8l(5, 5);
    byte[] lying = concat(Arrays.copyOf(image, 4), u32le(16), Arrays.copyOfRange(image, 8, image.length));
    assertInvalid(lying, "WebP", "RIFF size 16", "17 bytes");
  }

  @Test
  void webp_rejectsVp8WithoutStartCode() {
    assertInvalid(with(webpVp8(5, 5), 24, 0x02), "WebP", "start code 9d 01 2a");
  }

  @Test
  void webp_rejectsVp8InterFrame() {
    assertInvalid(with(webpVp8(5, 5), 20, 0x11), "WebP", "not a key frame");
  }

  @Test
  void webp_rejectsVp8ZeroWidth() {
    assertInvalid(webpVp8(0, 5), "WebP", "width 0 and height 5");
  }

  @Test
  void webp_rejectsVp8lWrongSignature() {
    assertInvalid(with(webpVp8l(5, 5), 20, 0x2E), "WebP", "0x2e");
  }

  @Test
  void webp_rejectsVp8lNonZeroVersion() {
    assertInvalid(with(webpVp8l(5, 5), 24, 0x20), "WebP", "version is 1");
  }

  @Test
  void webp_rejectsChunkSizeSmallerThanItsHeader() {
    byte[] image = webpVp8x(5, 5);
    assertInvalid(with(image, 16, 9), "WebP", "VP8X chunk size 9");
  }

  @Test
  void webp_rejectsUnknownFirstChunk() {
    assertInvalid(riff(chunk("ALPH", new byte[10])), "WebP", "'ALPH'");
  }

  @Test
  void webp_rejectsVp8xCanvasAbove2Pow32Pixels() {
    assertInvalid(webpVp8x(65537, 65536), "WebP", "65537x65536");
  }

  // ---- dimensions in general ----

  @Test
  void dimensions_rejectsUnrecognizedFormats() {
    assertInvalid(new byte[0], "Unrecognized", "0 bytes");
    assertInvalid(concat(ascii("BM"), new byte[60]), "Unrecognized", "62 bytes");
  }

  @Test
  void dimensions_readsOnlyInsideTheWindow() {
    byte[] gif = gif("GIF89a", 300, 200);
    byte[] padded = concat(new byte[7], gif, bytes(0xFF, 0xFF, 0xFF));
    assertEquals(new Dimensions(300, 200), ImageHeaders.dimensions(padded, 7, gif.length));
    var e = assertThrows(InvalidImageHeaderException.class, () -> ImageHeaders.dimensions(padded, 7, 12));
    assertTrue(e.getMessage().contains("only 12 are available"), e.getMessage());
  }

  @Test
  void dimensions_rejectsWindowOutsideTheArray() {
    assertThrows(IndexOutOfBoundsException.class, () -> ImageHeaders.dimensions(new byte[10], 5, 6));
    assertThrows(IndexOutOfBoundsException.class, () -> ImageHeaders.dimensions(new byte[10], -1, 2));
  }

  @Test
  void dimensionsRecord_rejectsNonPositiveSizes() {
    assertThrows(IllegalArgumentException.class, () -> new Dimensions(0, 1));
    assertThrows(IllegalArgumentException.class, () -> new Dimensions(1, -1));
  }

  // ---- truncation ----

  private static Stream<Arguments> headersAndTheirMinimumLength() {
    byte[] jpeg = encode("jpeg", 37, 19);
    byte[] progressive = encodeProgressiveJpeg(37, 19);
    return Stream.of(
        Arguments.of("png", encode("png", 37, 19), 33),
        Arguments.of("gif", encode("gif", 37, 19), 13),
        Arguments.of("jpeg", jpeg, endOfSegment(jpeg, 0xC0)),
        Arguments.of("progressive jpeg", progressive, endOfSegment(progressive, 0xC2)),
        Arguments.of("jpeg with exif", insertAfterSoi(jpeg, app1WithDecoySof()),
            endOfSegment(jpeg, 0xC0) + app1WithDecoySof().length),
        Arguments.of("webp vp8", webpVp8(37, 19), 30),
        Arguments.of("webp vp8l", webpVp8l(37, 19), 25),
        Arguments.of("webp vp8x", webpVp8x(37, 19), 30));
  }

  /** Where the first segment with this marker ends, read from its length field. */
  private static int endOfSegment(byte[] jpeg, int marker) {
    int start = indexOfMarker(jpeg, marker);
    assertTrue(start > 0, "marker not found");
    return start + 2 + (((jpeg[start + 2] & 0xFF) << 8) | (jpeg[start + 3] & 0xFF));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("headersAndTheirMinimumLength")
  void truncation_everyPrefixFailsUntilTheHeaderIsCompleteThenSucceeds(String name, byte[] image, int minimum) {
    Dimensions full = new Dimensions(37, 19);
    assertTrue(minimum <= image.length, "fixture is shorter than its header");
    for (int length = 0; length <= image.length; length++) {
      int prefix = length;
      if (prefix < minimum) {
        var e = assertThrows(InvalidImageHeaderException.class,
            () -> ImageHeaders.dimensions(image, 0, prefix), name + " prefix " + prefix);
        assertTrue(e.getMessage().contains("truncated") || e.getMessage().startsWith("Unrecognized"),
            () -> name + " prefix " + prefix + " should be reported as truncated: " + e.getMessage());
      } else {
        assertEquals(full, ImageHeaders.dimensions(image, 0, prefix), name + " prefix " + prefix);
      }
    }
  }
}
