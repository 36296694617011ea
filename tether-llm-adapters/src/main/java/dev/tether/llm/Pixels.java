package dev.tether.llm;

import dev.tether.api.Part;
import dev.tether.images.ImageHeaders;
import dev.tether.images.InvalidImageHeaderException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;

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
    int n;
    try (InputStream in = image.data().openStream()) {
      n = in.readNBytes(head, 0, head.length);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
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

  private static Size size(ImageHeaders.Dimensions d) {
    return new Size(d.width(), d.height());
  }

  private static ImageRuleException invalid(int index, ProviderProfile profile, InvalidImageHeaderException e) {
    return ImageRuleException.of(index, profile, ImageRule.INVALID_DATA,
        "its pixel dimensions cannot be read from its header (" + e.getMessage() + "); the image is damaged", e);
  }
}
