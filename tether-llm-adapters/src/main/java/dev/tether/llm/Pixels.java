package dev.tether.llm;

import dev.tether.api.ImageData;
import dev.tether.api.Part;
import dev.tether.images.ImageHeaders;
import dev.tether.images.InvalidImageHeaderException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Base64;

/**
 * Pixel dimensions from an image's headers, without decoding pixels. Reads the first 64 KiB
 * (enough for the header of nearly every image) and only reads the whole image when a JPEG's
 * start-of-frame lies further in, behind large metadata segments.
 */
final class Pixels {
  private static final int PREFIX = 64 * 1024;

  record Size(int width, int height) {}

  private Pixels() {}

  /**
   * The image's size.
   *
   * @throws ImageRuleException {@link ImageRule#INVALID_DATA} when the header is unreadable
   */
  static Size of(Part.Image image, int index, ProviderProfile profile) {
    long size = image.data().size();
    byte[] head = new byte[(int) Math.min(PREFIX, size)];
    int n = readHead(image.data(), head);
    try {
      return size(ImageHeaders.dimensions(head, 0, n));
    } catch (InvalidImageHeaderException first) {
      if (n < size) {
        try {
          return size(ImageHeaders.dimensions(image.data().toByteArray()));
        } catch (InvalidImageHeaderException e) {
          throw invalid(index, profile, e);
        }
      }
      throw invalid(index, profile, first);
    }
  }

  /**
   * Fills {@code head} with the image's first bytes. Base64 text is decoded only as far as the
   * prefix reaches ({@link ImageData#openStream()} would first copy the whole text to bytes).
   * The caller has checked the base64.
   */
  @SuppressWarnings("deprecation") // String.getBytes(int, int, byte[], int): the Latin-1 copy of ASCII
  private static int readHead(ImageData data, byte[] head) {
    if (data.isBase64()) {
      String base64 = data.base64();
      // A multiple of 4 characters unless it is the whole text, whose padding may be left out.
      int chars = (int) Math.min(base64.length(), 4L * ((head.length + 2) / 3));
      byte[] ascii = new byte[chars];
      base64.getBytes(0, chars, ascii, 0);
      byte[] decoded = Base64.getDecoder().decode(ascii);
      int n = Math.min(decoded.length, head.length);
      System.arraycopy(decoded, 0, head, 0, n);
      return n;
    }
    try (InputStream in = data.openStream()) {
      return in.readNBytes(head, 0, head.length);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static Size size(ImageHeaders.Dimensions d) {
    return new Size(d.width(), d.height());
  }

  private static ImageRuleException invalid(int index, ProviderProfile profile, InvalidImageHeaderException e) {
    return ImageRuleException.of(index, profile, ImageRule.INVALID_DATA,
        "its pixel dimensions cannot be read from its header (" + e.getMessage() + "); the image is damaged", e);
  }
}
