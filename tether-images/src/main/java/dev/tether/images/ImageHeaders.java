package dev.tether.images;

import dev.tether.api.MediaType;
import dev.tether.images.internal.Signatures;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * Reads pixel dimensions of PNG, JPEG, GIF and WebP images from their headers, without decoding any
 * pixels and without dependencies beyond the JDK.
 *
 * <p>Only the bytes that hold the dimensions are read: the PNG {@code IHDR} chunk, the JPEG segments
 * up to and including the first start-of-frame (SOF) segment, the GIF logical screen descriptor, and
 * the first WebP chunk's fixed header fields. Those bytes must be complete; anything after them (the
 * pixel data) may be missing. Every method runs in time linear in {@code length}.
 *
 * <p>All methods take a window {@code bytes[offset, offset + length)} and never read outside it. A
 * null array or a window outside the array is a programming error and throws {@link
 * NullPointerException} or {@link IndexOutOfBoundsException}; every problem with the bytes themselves
 * is reported as {@link InvalidImageHeaderException}.
 */
public final class ImageHeaders {
  private static final byte[] IHDR = ascii("IHDR");
  private static final byte[] VP8_START_CODE = {(byte) 0x9D, 0x01, 0x2A};

  private static final int JPEG_TEM = 0x01;
  private static final int JPEG_SOI = 0xD8;
  private static final int JPEG_EOI = 0xD9;
  private static final int JPEG_SOS = 0xDA;

  private ImageHeaders() {}

  /**
   * Which of the four signatures the window {@code bytes[offset, offset + length)} starts with,
   * reading at most its first 12 bytes. This is the check that frame validation uses, so the two
   * always agree on what counts as a PNG, JPEG, GIF or WebP.
   *
   * @return the media type, or empty when the window is too short for, or does not start with, any
   *     of the four signatures
   * @throws IndexOutOfBoundsException when the window is not inside {@code bytes}
   */
  public static Optional<MediaType> signature(byte[] bytes, int offset, int length) {
    return Optional.ofNullable(Signatures.detect(bytes, offset, length));
  }

  /**
   * Pixel dimensions read from the header in the window {@code bytes[offset, offset + length)}.
   *
   * @throws InvalidImageHeaderException when the window does not start with a PNG, JPEG, GIF or WebP
   *     signature, when the header is truncated, or when it contradicts itself (a length running past
   *     the end or past its container, a zero width or height, a JPEG without SOF before SOS or EOI)
   */
  public static Dimensions dimensions(byte[] bytes, int offset, int length) {
    MediaType type = Signatures.detect(bytes, offset, length);
    if (type == null) {
      throw new InvalidImageHeaderException("Unrecognized image format: the " + length
          + " bytes do not start with a PNG, JPEG, GIF or WebP signature.");
    }
    return switch (type) {
      case PNG -> png(new HeaderBytes(bytes, offset, length, "PNG"));
      case JPEG -> jpeg(new HeaderBytes(bytes, offset, length, "JPEG"));
      case GIF -> gif(new HeaderBytes(bytes, offset, length, "GIF"));
      case WEBP -> webp(new HeaderBytes(bytes, offset, length, "WebP"));
    };
  }

  /** Same as {@code dimensions(bytes, 0, bytes.length)}. */
  public static Dimensions dimensions(byte[] bytes) {
    return dimensions(bytes, 0, bytes.length);
  }

  /** Width and height in pixels; both are positive. */
  public record Dimensions(int width, int height) {
    public Dimensions {
      if (width <= 0 || height <= 0) {
        throw new IllegalArgumentException(
            "width and height must be positive but are " + width + "x" + height);
      }
    }
  }

  /** Signature (8), IHDR length (4) and type (4), then IHDR data: width, height (u32 BE) and 5 bytes. */
  private static Dimensions png(HeaderBytes png) {
    png.require(0, 33);
    if (!png.matches(12, IHDR)) {
      throw png.invalid("the first chunk is '" + png.fourCc(12) + "' but must be 'IHDR'");
    }
    long ihdrLength = png.u32be(8);
    if (ihdrLength != 13) {
      throw png.invalid("the IHDR chunk length is " + ihdrLength + " but must be 13");
    }
    return png.dimensions(png.u32be(16), png.u32be(20));
  }

  /** Signature (6), then the logical screen descriptor: width, height (u16 LE) and 3 more bytes. */
  private static Dimensions gif(HeaderBytes gif) {
    gif.require(0, 13);
    return gif.dimensions(gif.u16le(6), gif.u16le(8));
  }

  /**
   * Walks marker segments from just after SOI to the first SOFn. Each step consumes at least two
   * bytes, so the walk ends within {@code length} steps.
   */
  private static Dimensions jpeg(HeaderBytes jpeg) {
    int pos = 2;
    while (true) {
      if (jpeg.u8(pos) != 0xFF) {
        throw jpeg.invalid("expected a marker at byte " + pos + " but found 0x" + hex(jpeg.u8(pos)));
      }
      while (jpeg.u8(pos) == 0xFF) {
        pos++; // the marker's own 0xFF and any 0xFF fill bytes before the marker code
      }
      int marker = jpeg.u8(pos++);
      if (marker == JPEG_TEM || marker == JPEG_SOI || (marker >= 0xD0 && marker <= 0xD7)) {
        continue; // standalone markers carry no length
      }
      if (marker == 0x00) {
        throw jpeg.invalid("found the stuffed byte pair 0xFF00 at byte " + (pos - 2)
            + " where a marker was expected");
      }
      if (marker == JPEG_SOS || marker == JPEG_EOI) {
        throw jpeg.invalid("found marker 0xFF" + hex(marker) + " at byte " + (pos - 2)
            + " before any start-of-frame (SOF) marker");
      }
      int segmentLength = jpeg.u16be(pos);
      if (segmentLength < 2) {
        throw jpeg.invalid("segment 0xFF" + hex(marker) + " at byte " + (pos - 2) + " has length "
            + segmentLength + " but the minimum is 2");
      }
      jpeg.require(pos, segmentLength);
      if (isStartOfFrame(marker)) {
        return startOfFrame(jpeg, pos, segmentLength, marker);
      }
      pos += segmentLength;
    }
  }

  /** SOF0-3, SOF5-7, SOF9-11, SOF13-15; 0xC4 (DHT), 0xC8 (JPG) and 0xCC (DAC) are not frames. */
  private static boolean isStartOfFrame(int marker) {
    return marker >= 0xC0 && marker <= 0xCF && marker != 0xC4 && marker != 0xC8 && marker != 0xCC;
  }

  /** Length (2), precision (1), height (2), width (2), component count (1), 3 bytes per component. */
  private static Dimensions startOfFrame(HeaderBytes jpeg, int pos, int segmentLength, int marker) {
    int components = segmentLength >= 8 ? jpeg.u8(pos + 7) : 0;
    if (components == 0 || segmentLength < 8 + 3 * components) {
      throw jpeg.invalid("SOF segment 0xFF" + hex(marker) + " has length " + segmentLength
          + ", too short for its header and " + components + " component(s)");
    }
    return jpeg.dimensions(jpeg.u16be(pos + 5), jpeg.u16be(pos + 3));
  }

  /** "RIFF", size (u32 LE, counts from byte 8), "WEBP", then the first chunk: FourCC, size, payload. */
  private static Dimensions webp(HeaderBytes webp) {
    webp.require(0, 20);
    long riffSize = webp.u32le(4);
    long chunkSize = webp.u32le(16);
    if (riffSize < 12 + chunkSize) {
      throw webp.invalid("the RIFF size " + riffSize + " is smaller than the " + (12 + chunkSize)
          + " bytes of 'WEBP' and its first chunk");
    }
    String fourCc = webp.fourCc(12);
    return switch (fourCc) {
      case "VP8 " -> vp8(webp, chunkSize);
      case "VP8L" -> vp8l(webp, chunkSize);
      case "VP8X" -> vp8x(webp, chunkSize);
      default -> throw webp.invalid("the first chunk is '" + fourCc + "' but must be VP8, VP8L or VP8X");
    };
  }

  /** Frame tag (3 bytes, bit 0 clear on key frames), start code 9d 01 2a, width, height (u16 LE, 14 bits). */
  private static Dimensions vp8(HeaderBytes webp, long chunkSize) {
    requireChunkFields(webp, "VP8", chunkSize, 10);
    if ((webp.u8(20) & 1) != 0) {
      throw webp.invalid("the VP8 frame is not a key frame");
    }
    if (!webp.matches(23, VP8_START_CODE)) {
      throw webp.invalid("the VP8 key frame does not have the start code 9d 01 2a");
    }
    return webp.dimensions(webp.u16le(26) & 0x3FFF, webp.u16le(28) & 0x3FFF);
  }

  /** Signature 0x2f, then 32 bits LE: width - 1 (14), height - 1 (14), alpha (1), version (3, zero). */
  private static Dimensions vp8l(HeaderBytes webp, long chunkSize) {
    requireChunkFields(webp, "VP8L", chunkSize, 5);
    if (webp.u8(20) != 0x2F) {
      throw webp.invalid("the VP8L signature byte is 0x" + hex(webp.u8(20)) + " but must be 0x2f");
    }
    long bits = webp.u32le(21);
    if ((bits >>> 29) != 0) {
      throw webp.invalid("the VP8L version is " + (bits >>> 29) + " but must be 0");
    }
    return webp.dimensions((bits & 0x3FFF) + 1, ((bits >>> 14) & 0x3FFF) + 1);
  }

  /** Flags (1), reserved (3), canvas width - 1 and canvas height - 1 (u24 LE each). */
  private static Dimensions vp8x(HeaderBytes webp, long chunkSize) {
    requireChunkFields(webp, "VP8X", chunkSize, 10);
    long width = webp.u24le(24) + 1L;
    long height = webp.u24le(27) + 1L;
    if (width * height > 0xFFFF_FFFFL) {
      throw webp.invalid("the VP8X canvas " + width + "x" + height + " exceeds 2^32 - 1 pixels");
    }
    return webp.dimensions(width, height);
  }

  private static void requireChunkFields(HeaderBytes webp, String chunk, long chunkSize, int fields) {
    if (chunkSize < fields) {
      throw webp.invalid("the " + chunk + " chunk size " + chunkSize + " is smaller than its "
          + fields + "-byte header");
    }
    webp.require(20, fields);
  }

  private static String hex(int value) {
    return String.format("%02x", value);
  }

  private static byte[] ascii(String text) {
    return text.getBytes(StandardCharsets.US_ASCII);
  }
}
