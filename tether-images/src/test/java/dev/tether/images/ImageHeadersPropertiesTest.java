package dev.tether.images;

import dev.tether.api.testing.TestImages;
import static dev.tether.api.testing.TestImages.ascii;
import static dev.tether.api.testing.TestImages.bytes;
import static dev.tether.api.testing.TestImages.concat;
import static dev.tether.api.testing.TestImages.gif;
import static dev.tether.api.testing.TestImages.jpeg;
import static dev.tether.api.testing.TestImages.png;
import static dev.tether.api.testing.TestImages.segment;
import static dev.tether.api.testing.TestImages.sofPayload;
import static dev.tether.api.testing.TestImages.u16be;
import static dev.tether.api.testing.TestImages.webpVp8;
import static dev.tether.api.testing.TestImages.webpVp8l;
import static dev.tether.api.testing.TestImages.webpVp8x;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.arbitrary;
import static org.quicktheories.generators.SourceDSL.booleans;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;

import dev.tether.images.ImageHeaders.Dimensions;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.quicktheories.api.Pair;
import org.quicktheories.core.Gen;
import org.quicktheories.generators.Generate;

class ImageHeadersPropertiesTest {

  private static final List<Integer> SOF_MARKERS =
      List.of(0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF);

  /** Marker codes of segments with a length that a walker must skip: not SOFn, RSTn, SOI, EOI, SOS. */
  private static final List<Integer> SKIPPABLE_MARKERS = IntStream.rangeClosed(0x02, 0xFE)
      .filter(m -> !SOF_MARKERS.contains(m) && (m < 0xD0 || m > 0xDA))
      .boxed()
      .toList();

  /** A header and the dimensions it declares. */
  record Sample(byte[] image, Dimensions expected) {
    @Override
    public String toString() {
      return expected + " " + hex(image);
    }
  }

  /**
   * Dimensions, or empty for an InvalidImageHeaderException whose message names a format. Any other
   * exception propagates and fails the property.
   */
  private static Optional<Dimensions> outcome(byte[] bytes, int offset, int length) {
    try {
      return Optional.of(ImageHeaders.dimensions(bytes, offset, length));
    } catch (InvalidImageHeaderException e) {
      String message = e.getMessage();
      assertTrue(message.matches("(Unrecognized|Invalid (PNG|JPEG|GIF|WebP)|(PNG|JPEG|GIF|WebP) header is).*\\."),
          message);
      return Optional.empty();
    }
  }

  private static Optional<Dimensions> outcome(byte[] bytes) {
    return outcome(bytes, 0, bytes.length);
  }

  // ---- never anything but Dimensions or InvalidImageHeaderException ----

  @Test
  void randomBytes_yieldDimensionsOrInvalidHeader() {
    qt().withExamples(2000).forAll(byteArrays(64)).checkAssert(bytes -> outcome(bytes));
  }

  @Test
  void signatureThenRandomBytes_yieldDimensionsOrInvalidHeader() {
    AtomicInteger dimensions = new AtomicInteger();
    AtomicInteger invalid = new AtomicInteger();
    qt().withExamples(2000)
        .forAll(signatures(), byteArrays(300))
        .checkAssert((signature, tail) ->
            (outcome(concat(signature, tail)).isPresent() ? dimensions : invalid).incrementAndGet());
    assertTrue(dimensions.get() > 0 && invalid.get() > 0,
        "expected both outcomes but saw " + dimensions + " dimensions and " + invalid + " invalid");
  }

  private static Gen<byte[]> signatures() {
    byte[] pngSignature = bytes(0x89, 'P', 'N', 'G', 0x0D, 0x0A, 0x1A, 0x0A);
    return arbitrary().pick(List.of(
        pngSignature,
        concat(pngSignature, bytes(0, 0, 0, 13), ascii("IHDR")),
        bytes(0xFF, 0xD8, 0xFF),
        ascii("GIF87a"),
        ascii("GIF89a"),
        concat(ascii("RIFF"), bytes(0xFF, 0xFF, 0xFF, 0x7F), ascii("WEBP")),
        concat(ascii("RIFF"), bytes(0xFF, 0xFF, 0xFF, 0x7F), ascii("WEBPVP8 ")),
        concat(ascii("RIFF"), bytes(0xFF, 0xFF, 0xFF, 0x7F), ascii("WEBPVP8L")),
        concat(ascii("RIFF"), bytes(0xFF, 0xFF, 0xFF, 0x7F), ascii("WEBPVP8X"))))
        .describedAs(ImageHeadersPropertiesTest::hex);
  }

  @Test
  void jpegMarkerSoup_yieldsDimensionsOrInvalidHeader() {
    AtomicInteger dimensions = new AtomicInteger();
    qt().withExamples(2000).forAll(jpegMarkerSoup()).checkAssert(image -> {
      if (outcome(image).isPresent()) {
        dimensions.incrementAndGet();
      }
    });
    assertTrue(dimensions.get() > 0, "no marker soup reached a start-of-frame segment");
  }

  /** SOI, then a random mix of fill bytes, markers with random lengths, and stray bytes. */
  private static Gen<byte[]> jpegMarkerSoup() {
    Gen<byte[]> markerSegment = integers().between(0, 255).zip(integers().between(0, 40), byteArrays(40),
        (marker, length, payload) -> concat(bytes(0xFF, marker), u16be(length), payload));
    Gen<byte[]> sof = arbitrary().pick(SOF_MARKERS).zip(integers().between(0, 3), integers().between(0, 3),
        (marker, width, height) -> segment(marker, sofPayload(width, height)));
    Gen<byte[]> piece = Generate.frequency(
        Pair.of(6, markerSegment),
        Pair.of(2, sof),
        Pair.of(1, arbitrary().pick(List.of(bytes(0xFF), bytes(0xFF, 0x01), bytes(0xFF, 0xD3)))),
        Pair.of(1, byteArrays(4)));
    return lists().of(piece).ofSizeBetween(0, 8)
        .map(pieces -> jpeg(pieces.toArray(byte[][]::new)))
        .describedAs(ImageHeadersPropertiesTest::hex);
  }

  // ---- valid headers round-trip ----

  @Test
  void validHeaders_reportTheirDeclaredDimensions() {
    qt().withExamples(2000)
        .forAll(validHeaders())
        .checkAssert(sample -> assertEquals(sample.expected(), ImageHeaders.dimensions(sample.image())));
  }

  @Test
  void prefixesOfValidHeaders_neverReportOtherDimensions() {
    qt().withExamples(2000)
        .forAll(validHeaders(), integers().between(0, 200))
        .checkAssert((sample, cut) -> {
          int length = Math.max(0, sample.image().length - cut);
          outcome(sample.image(), 0, length).ifPresent(found -> assertEquals(sample.expected(), found));
        });
  }

  @Test
  void bytesAroundTheWindow_doNotMatter() {
    qt().withExamples(1000)
        .forAll(validHeaders(), byteArrays(20), byteArrays(20))
        .checkAssert((sample, before, after) -> {
          byte[] padded = concat(before, sample.image(), after);
          assertEquals(sample.expected(),
              ImageHeaders.dimensions(padded, before.length, sample.image().length));
        });
  }

  private static Gen<Sample> validHeaders() {
    Gen<Integer> u16 = integers().between(1, 65535);
    Gen<Integer> vp8Size = integers().between(1, 16383);
    Gen<Integer> vp8lSize = integers().between(1, 16384);
    Gen<Integer> positiveInt = integers().between(1, Integer.MAX_VALUE);
    return Generate.oneOf(
        positiveInt.zip(positiveInt, (w, h) -> new Sample(png(w, h), new Dimensions(w, h))),
        arbitrary().pick(List.of("GIF87a", "GIF89a")).zip(u16, u16,
            (version, w, h) -> new Sample(gif(version, w, h), new Dimensions(w, h))),
        jpegPreamble().zip(arbitrary().pick(SOF_MARKERS), u16, u16,
            (preamble, marker, w, h) -> new Sample(
                jpeg(preamble, segment(marker, sofPayload(w, h))), new Dimensions(w, h))),
        vp8Size.zip(vp8Size, (w, h) -> new Sample(webpVp8(w, h), new Dimensions(w, h))),
        vp8lSize.zip(vp8lSize, (w, h) -> new Sample(webpVp8l(w, h), new Dimensions(w, h))),
        vp8xCanvases().map(wh -> new Sample(webpVp8x(wh._1, wh._2), new Dimensions(wh._1, wh._2))));
  }

  /**
   * VP8X canvases of at most 2^32 - 1 pixels, each side 1 to 2^24. Rather than filtering uniform
   * pairs (almost all of which are too large), one side is drawn freely and the other within what
   * the area allows; which side is drawn first is random, so both can be large.
   */
  private static Gen<Pair<Integer, Integer>> vp8xCanvases() {
    int maxSide = 1 << 24;
    return integers().between(1, maxSide).zip(integers().between(1, maxSide), booleans().all(),
        (first, raw, firstIsWidth) -> {
          int limit = (int) Math.min(maxSide, 0xFFFF_FFFFL / first);
          int second = 1 + (raw - 1) % limit;
          return firstIsWidth ? Pair.of(first, second) : Pair.of(second, first);
        });
  }

  /** Well-formed segments a walker must skip: fill bytes, standalone markers, non-frame segments. */
  private static Gen<byte[]> jpegPreamble() {
    Gen<byte[]> skippable = Generate.oneOf(
        arbitrary().pick(SKIPPABLE_MARKERS).zip(byteArrays(30), TestImages::segment),
        arbitrary().pick(List.of(
            bytes(0xFF), bytes(0xFF, 0x01), bytes(0xFF, 0xD0), bytes(0xFF, 0xD7), bytes(0xFF, 0xD8))));
    return lists().of(skippable).ofSizeBetween(0, 6).map(pieces -> concat(pieces.toArray(byte[][]::new)));
  }

  @Test
  void imageIoImages_reportTheirSize() {
    qt().withExamples(60)
        .forAll(arbitrary().pick(List.of("png", "jpeg", "gif")), integers().between(1, 300),
            integers().between(1, 300))
        .checkAssert((format, width, height) -> assertEquals(new Dimensions(width, height),
            ImageHeaders.dimensions(TestImages.encode(format, width, height))));
  }

  // ---- generators ----

  /** Byte arrays of 0 to {@code maxLength} bytes with any byte values, shown as hex on failure. */
  private static Gen<byte[]> byteArrays(int maxLength) {
    return Generate.byteArrays(integers().between(0, maxLength),
        Generate.bytes(Byte.MIN_VALUE, Byte.MAX_VALUE, (byte) 0))
        .describedAs(ImageHeadersPropertiesTest::hex);
  }

  private static String hex(byte[] bytes) {
    return HexFormat.of().formatHex(bytes);
  }
}
