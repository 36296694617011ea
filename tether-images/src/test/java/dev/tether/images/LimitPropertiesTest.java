package dev.tether.images;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Every limit at its exact boundary, at the producer and consumer entry points, with the
 * default limits (few tries, one big buffer at a time) and with random small limits (many
 * tries). Padded and unpadded base64 of the same bytes must get the same verdict.
 *
 * <p>Seeded JUnit loops rather than jqwik: jqwik 1.10.1 asks AI agents not to use it, and these
 * tests were written by one. Every failure names its seed.
 */
class LimitPropertiesTest {
  private static final Duration HANG_GUARD = Duration.ofSeconds(90);
  private static final int MIB = 1 << 20;
  private static final MediaType[] TYPES = MediaType.values();

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
      Random random = new Random(10);
      List<Integer> sizes = new ArrayList<>(List.of(10 * MIB, 10 * MIB + 1));
      for (int i = 0; i < 3; i++) {
        sizes.add(10 * MIB - 8 + random.nextInt(17));
      }
      for (int size : sizes) {
        MediaType type = TYPES[random.nextInt(TYPES.length)];
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
    });
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
    assertTimeoutPreemptively(HANG_GUARD, () -> {
      for (int i = 0; i < 1000; i++) {
        long seed = 7_000_000L + i;
        try {
          randomLimitsTry(new Random(seed));
        } catch (AssertionError | RuntimeException e) {
          throw new AssertionError("seed " + seed, e);
        }
      }
    });
  }

  private static void randomLimitsTry(Random random) throws Exception {
    int count = random.nextInt(5);
    int[] sizes = new int[count];
    List<String> padded = new ArrayList<>();
    List<String> unpadded = new ArrayList<>();
    MediaType[] types = new MediaType[count];
    long total = 0;
    for (int i = 0; i < count; i++) {
      types[i] = TYPES[random.nextInt(TYPES.length)];
      sizes[i] = SampleImages.small(types[i]).length + random.nextInt(300);
      String b64 = base64(SampleImages.ofSize(types[i], sizes[i]));
      padded.add(b64);
      unpadded.add(SampleImages.unpadded(b64));
      total += sizes[i];
    }
    int largest = Arrays.stream(sizes).max().orElse(1);
    Limits limits = Limits.builder()
        .maxImageBytes(Math.max(1, largest - 2 + random.nextInt(5)))
        .maxFrameImageBytes(Math.max(1, total - 2 + random.nextInt(5)))
        .maxImagesPerMessage(Math.max(0, count - 1 + random.nextInt(3)))
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
    assertTimeoutPreemptively(HANG_GUARD, () -> {
      Random random = new Random(42);
      for (int i = 0; i < 1000; i++) {
        byte[] bytes = new byte[random.nextInt(64)];
        random.nextBytes(bytes);
        if (bytes.length >= 12 && random.nextBoolean()) {
          byte[] head = SampleImages.small(TYPES[random.nextInt(TYPES.length)]);
          System.arraycopy(head, 0, bytes, 0, 12);
        }
        String padded = base64(bytes);
        String unpadded = SampleImages.unpadded(padded);
        String at = "seed 42 try " + i + ": " + padded;
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
      }
    });
  }

  @Test
  void wireBytes_useAsciiOnly() {
    // Guards the fixtures: base64 and the frames built from it are plain ASCII.
    assertEquals(Wire.userMessage(List.of(Wire.smallImage(MediaType.PNG))).length,
        new String(Wire.userMessage(List.of(Wire.smallImage(MediaType.PNG))), StandardCharsets.US_ASCII).length());
  }
}
