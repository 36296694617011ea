package dev.tether.images;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.arbitrary;
import static org.quicktheories.generators.SourceDSL.booleans;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;

import dev.tether.api.Base64Lengths;
import dev.tether.api.ErrorCode;
import dev.tether.api.FrameCodec;
import dev.tether.api.Frames;
import dev.tether.api.Image;
import dev.tether.api.Limits;
import dev.tether.api.MediaType;
import dev.tether.api.TetherException;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.quicktheories.core.Gen;
import org.quicktheories.generators.Generate;

/**
 * Every limit at its exact boundary, at the producer and consumer entry points, with the
 * default limits (few examples, one big buffer at a time) and with random small limits (many
 * examples). Padded and unpadded base64 of the same bytes must get the same verdict.
 *
 * <p>The generated cases are QuickTheories properties from fixed seeds (a failure is shrunk and
 * reported with its inputs and the seed); the exact boundaries of the default limits, and the
 * image count from 0 to 6, are checked exhaustively as plain tests. The big-buffer properties
 * run few examples and few shrink cycles so that even a failing run stays cheap.
 */
class LimitPropertiesTest {
  private static final Duration HANG_GUARD = Duration.ofSeconds(90);
  private static final int MIB = 1 << 20;
  private static final MediaType[] TYPES = MediaType.values();
  private static final Gen<MediaType> MEDIA_TYPES = arbitrary().enumValues(MediaType.class);

  /** One image of a random-limits case: a real image of {@code type} padded by {@code extra} bytes. */
  private record ImageSpec(MediaType type, int extra) {
    int size() {
      return SampleImages.small(type).length + extra;
    }
  }

  /** The verdict of one entry point: empty when accepted, else the code. */
  private static Optional<ErrorCode> verdict(Runnable call) {
    try {
      call.run();
      return Optional.empty();
    } catch (TetherException e) {
      return Optional.of(e.code());
    }
  }

  private static Optional<ErrorCode> consumerVerdict(FrameValidator v, byte[] wire) throws Exception {
    Optional<ErrorCode> bytes = verdict(() -> v.validate(wire));
    Optional<ErrorCode> stream = verdict(() -> {
      try {
        v.read(new ByteArrayInputStream(wire));
      } catch (java.io.IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
    });
    assertEquals(bytes, stream, "validate(byte[]) and read(InputStream) disagree");
    if (bytes.orElse(null) != ErrorCode.FRAME_TOO_LARGE) {
      assertEquals(bytes, verdict(() -> v.validate(Wire.ROOMY.read(wire))), "validate(byte[]) and validate(Frame) disagree");
    }
    return bytes;
  }

  private static String base64(byte[] bytes) {
    return Base64.getEncoder().encodeToString(bytes);
  }

  @Test
  void imageOf10MiB_isAcceptedAndOneByteMoreIsNot_paddedOrNot() {
    assertTimeoutPreemptively(HANG_GUARD, () -> {
      // The exact boundary, always; then sizes within 8 bytes of it of random types.
      imageOfSizeGetsItsVerdict(MediaType.PNG, 10 * MIB);
      imageOfSizeGetsItsVerdict(MediaType.WEBP, 10 * MIB + 1);
      qt().withExamples(3).withShrinkCycles(10).withFixedSeed(10L)
          .forAll(MEDIA_TYPES, integers().between(-8, 8))
          .checkAssert((type, offset) -> imageOfSizeGetsItsVerdict(type, 10 * MIB + offset));
    });
  }

  private static void imageOfSizeGetsItsVerdict(MediaType type, int size) {
    byte[] bytes = SampleImages.ofSize(type, size);
    Optional<ErrorCode> expected = size <= Limits.MAX_IMAGE_BYTES ? Optional.empty() : Optional.of(ErrorCode.IMAGE_TOO_LARGE);
    String at = type + " of " + size + " bytes";
    assertEquals(expected, verdict(() -> Images.fromBytes(bytes, type)), at);
    String padded = base64(bytes);
    for (String data : List.of(padded, SampleImages.unpadded(padded))) {
      assertEquals(size, new Image(type, data).decodedSize(), at);
      assertEquals(expected, verdict(() -> Images.of(type, data)), at);
      assertEquals(expected, verdict(() -> FrameValidator.standard().validateImages(List.of(new Image(type, data)))), at);
      assertEquals(expected, verdict(() -> FrameValidator.standard().validate(Wire.userMessage(List.of(Wire.image(type.mimeType(), data))))), at);
    }
  }

  @Test
  void frameTotalOf20MiB_isAcceptedAndOneByteMoreIsNot() throws Exception {
    int gif = SampleImages.small(MediaType.GIF).length;
    for (int extra : new int[] {0, 1}) {
      List<Image> images = List.of(
          new Image(MediaType.PNG, base64(SampleImages.ofSize(MediaType.PNG, 10 * MIB))),
          new Image(MediaType.JPEG, SampleImages.unpadded(base64(SampleImages.ofSize(MediaType.JPEG, 10 * MIB - gif + extra)))),
          new Image(MediaType.GIF, SampleImages.smallBase64(MediaType.GIF)));
      long total = images.stream().mapToLong(Image::decodedSize).sum();
      assertEquals(Limits.MAX_FRAME_IMAGE_BYTES + extra, total);
      Optional<ErrorCode> expected = extra == 0 ? Optional.empty() : Optional.of(ErrorCode.FRAME_IMAGES_TOO_LARGE);
      assertEquals(expected, verdict(() -> FrameValidator.standard().validateImages(images)), "total " + total);
      byte[] wire = FrameCodec.standard().write(Frames.hostUserMessage("default", "", images));
      assertTrue(wire.length <= Limits.MAX_FRAME_BYTES, "20 MiB of images fits the 28 MiB wire limit");
      assertEquals(expected, consumerVerdict(FrameValidator.standard(), wire), "total " + total);
    }
  }

  @Test
  void fourImagesAreAccepted_fiveAreNot() throws Exception {
    Image png = new Image(MediaType.PNG, SampleImages.smallBase64(MediaType.PNG));
    for (int count = 0; count <= 6; count++) {
      List<Image> images = Collections.nCopies(count, png);
      Optional<ErrorCode> expected = count <= 4 ? Optional.empty() : Optional.of(ErrorCode.TOO_MANY_IMAGES);
      assertEquals(expected, verdict(() -> FrameValidator.standard().validateImages(images)), count + " images");
      byte[] wire = FrameCodec.standard().write(Frames.hostUserMessage("default", "", images));
      assertEquals(expected, consumerVerdict(FrameValidator.standard(), wire), count + " images");
    }
  }

  @Test
  void wireLimitOf28MiB_rejectsExactlyAboveIt() throws Exception {
    int max = Limits.MAX_FRAME_BYTES;
    byte[] head = Wire.frame("user.message", "{\"text\":\"\"}");
    byte[] buffer = Arrays.copyOf(head, max + 1);
    Arrays.fill(buffer, head.length, buffer.length, (byte) ' ');
    FrameValidator v = FrameValidator.standard();
    for (int length : new int[] {max - 1, max, max + 1}) {
      Optional<ErrorCode> expected = length <= max ? Optional.empty() : Optional.of(ErrorCode.FRAME_TOO_LARGE);
      assertEquals(expected, verdict(() -> v.validate(buffer, 0, length)), "length " + length);
      ByteArrayInputStream in = new ByteArrayInputStream(buffer, 0, length);
      assertEquals(expected, verdict(() -> {
        try {
          v.read(in);
        } catch (java.io.IOException e) {
          throw new java.io.UncheckedIOException(e);
        }
      }), "length " + length);
    }
    assertEquals(Optional.of(ErrorCode.FRAME_TOO_LARGE), verdict(() -> v.validate(buffer)));
  }

  @Test
  void randomSmallLimits_holdAtTheirBoundaries_paddedOrNot() {
    // Up to 4 images; each limit set within 2 (the count limit within 1) of what the images need.
    Gen<List<ImageSpec>> images = lists().of(MEDIA_TYPES.zip(integers().between(0, 299), ImageSpec::new)).ofSizeBetween(0, 4);
    assertTimeoutPreemptively(HANG_GUARD, () -> qt().withExamples(1000).withFixedSeed(7_000_000L)
        .forAll(images, integers().between(-2, 2), integers().between(-2, 2), integers().between(-1, 1))
        .checkAssert((specs, imageSlack, totalSlack, countSlack) -> {
          try {
            randomLimitsTry(specs, imageSlack, totalSlack, countSlack);
          } catch (Exception e) {
            throw new AssertionError(e);
          }
        }));
  }

  private static void randomLimitsTry(List<ImageSpec> specs, int imageSlack, int totalSlack, int countSlack)
      throws Exception {
    int count = specs.size();
    int[] sizes = new int[count];
    List<String> padded = new ArrayList<>();
    List<String> unpadded = new ArrayList<>();
    MediaType[] types = new MediaType[count];
    long total = 0;
    for (int i = 0; i < count; i++) {
      types[i] = specs.get(i).type();
      sizes[i] = specs.get(i).size();
      String b64 = base64(SampleImages.ofSize(types[i], sizes[i]));
      padded.add(b64);
      unpadded.add(SampleImages.unpadded(b64));
      total += sizes[i];
    }
    int largest = Arrays.stream(sizes).max().orElse(1);
    Limits limits = Limits.builder()
        .maxImageBytes(Math.max(1, largest + imageSlack))
        .maxFrameImageBytes(Math.max(1, total + totalSlack))
        .maxImagesPerMessage(Math.max(0, count + countSlack))
        .build();
    FrameValidator v = FrameValidator.withLimits(limits);
    Optional<ErrorCode> expected;
    if (count > limits.maxImagesPerMessage()) {
      expected = Optional.of(ErrorCode.TOO_MANY_IMAGES);
    } else if (largest > limits.maxImageBytes()) {
      expected = Optional.of(ErrorCode.IMAGE_TOO_LARGE);
    } else if (total > limits.maxFrameImageBytes()) {
      expected = Optional.of(ErrorCode.FRAME_IMAGES_TOO_LARGE);
    } else {
      expected = Optional.empty();
    }
    String at = limits + ", sizes " + Arrays.toString(sizes);
    for (List<String> data : List.of(padded, unpadded)) {
      List<Image> images = new ArrayList<>();
      List<String> objects = new ArrayList<>();
      for (int i = 0; i < count; i++) {
        images.add(new Image(types[i], data.get(i)));
        objects.add(Wire.image(types[i].mimeType(), data.get(i)));
        assertEquals(sizes[i], Base64Lengths.decodedLength(data.get(i)), at);
        Optional<ErrorCode> one = sizes[i] > limits.maxImageBytes() ? Optional.of(ErrorCode.IMAGE_TOO_LARGE) : Optional.empty();
        String d = data.get(i);
        MediaType t = types[i];
        assertEquals(one, verdict(() -> Images.of(t, d, limits)), at);
      }
      assertEquals(expected, verdict(() -> v.validateImages(images)), at);
      assertEquals(expected, consumerVerdict(v, Wire.userMessage(objects)), at);
    }
  }

  @Test
  void paddedAndUnpaddedBase64_decodeToTheSameLengthAndVerdict() {
    // 0 to 63 random bytes; half of those of 12 bytes or more start with a real image's first 12.
    Gen<byte[]> randomBytes = Generate.byteArrays(integers().between(0, 63), Generate.bytes(Byte.MIN_VALUE, Byte.MAX_VALUE, (byte) 0))
        .describedAs(LimitPropertiesTest::base64);
    assertTimeoutPreemptively(HANG_GUARD, () -> qt().withExamples(1000).withFixedSeed(42L)
        .forAll(randomBytes, booleans().all(), MEDIA_TYPES)
        .checkAssert((random, withHead, headType) -> {
          byte[] bytes = random.clone();
          if (bytes.length >= 12 && withHead) {
            System.arraycopy(SampleImages.small(headType), 0, bytes, 0, 12);
          }
          String padded = base64(bytes);
          String unpadded = SampleImages.unpadded(padded);
          String at = padded;
          assertEquals(bytes.length, Base64Lengths.decodedLength(padded), at);
          assertEquals(bytes.length, Base64Lengths.decodedLength(unpadded), at);
          for (MediaType type : TYPES) {
            Optional<ErrorCode> p = verdict(() -> Images.of(type, padded));
            assertEquals(p, verdict(() -> Images.of(type, unpadded)), at + " as " + type);
            byte[] wireP = Wire.userMessage(List.of(Wire.image(type.mimeType(), padded)));
            byte[] wireU = Wire.userMessage(List.of(Wire.image(type.mimeType(), unpadded)));
            assertEquals(p, verdict(() -> FrameValidator.standard().validate(wireP)), at + " as " + type);
            assertEquals(p, verdict(() -> FrameValidator.standard().validate(wireU)), at + " as " + type);
          }
        }));
  }

  @Test
  void wireBytes_useAsciiOnly() {
    // Guards the fixtures: base64 and the frames built from it are plain ASCII.
    assertEquals(Wire.userMessage(List.of(Wire.smallImage(MediaType.PNG))).length,
        new String(Wire.userMessage(List.of(Wire.smallImage(MediaType.PNG))), StandardCharsets.US_ASCII).length());
  }
}
