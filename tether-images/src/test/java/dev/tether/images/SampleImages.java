package dev.tether.images;

import dev.tether.api.MediaType;
import dev.tether.api.testing.ImageBytes;
import java.awt.Color;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;
import java.util.EnumMap;
import java.util.Map;

/**
 * Real image bytes for the tests: PNG, JPEG and GIF written by {@code javax.imageio}, WebP built
 * by hand (a RIFF/WEBP container with a minimal lossless VP8L chunk). Big images are a real
 * image followed by padding, which decoders ignore after the end marker and the validator only
 * sizes.
 */
final class SampleImages {
  private static final Map<MediaType, byte[]> SMALL = new EnumMap<>(MediaType.class);

  static {
    BufferedImage image = new BufferedImage(3, 2, BufferedImage.TYPE_INT_RGB);
    image.setRGB(0, 0, Color.RED.getRGB());
    image.setRGB(2, 1, Color.BLUE.getRGB());
    SMALL.put(MediaType.PNG, write(image, "png"));
    SMALL.put(MediaType.JPEG, write(image, "jpeg"));
    SMALL.put(MediaType.GIF, write(image, "gif"));
    SMALL.put(MediaType.WEBP, webp());
  }

  private SampleImages() {}

  /** A small real image of {@code type}; a fresh copy. */
  static byte[] small(MediaType type) {
    return SMALL.get(type).clone();
  }

  static String smallBase64(MediaType type) {
    return Base64.getEncoder().encodeToString(SMALL.get(type));
  }

  /** A real image of {@code type} padded with zero bytes to exactly {@code size} bytes. */
  static byte[] ofSize(MediaType type, int size) {
    byte[] head = SMALL.get(type);
    if (size < head.length) {
      throw new IllegalArgumentException("size must be >= " + head.length + " but was " + size);
    }
    return Arrays.copyOf(head, size);
  }

  /** Standard base64 without its '=' padding. */
  static String unpadded(String base64) {
    int end = base64.length();
    while (end > 0 && base64.charAt(end - 1) == '=') {
      end--;
    }
    return base64.substring(0, end);
  }

  private static byte[] write(BufferedImage image, String format) {
    return ImageBytes.encode(image, format);
  }

  /** RIFF header, "WEBP", and a VP8L chunk for a 1x1 image (signature byte 0x2f, then 14-bit sizes). */
  private static byte[] webp() {
    byte[] vp8l = {0x2f, 0, 0, 0, 0x10, 0x07, 0x10, 0x11, 0x11, (byte) 0x88, (byte) 0x88, (byte) 0xfe, 0x07, 0};
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.writeBytes("RIFF".getBytes(StandardCharsets.US_ASCII));
    writeLe32(out, 4 + 8 + vp8l.length);
    out.writeBytes("WEBPVP8L".getBytes(StandardCharsets.US_ASCII));
    writeLe32(out, vp8l.length);
    out.writeBytes(vp8l);
    return out.toByteArray();
  }

  private static void writeLe32(ByteArrayOutputStream out, int v) {
    out.write(v);
    out.write(v >>> 8);
    out.write(v >>> 16);
    out.write(v >>> 24);
  }
}
