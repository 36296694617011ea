package dev.tether.cli;

import dev.tether.api.Image;
import dev.tether.images.ImageHeaders;
import dev.tether.images.InvalidImageHeaderException;
import java.util.Base64;
import java.util.Locale;

/** One line per received image: format, pixel size and decoded bytes, read from its headers. */
final class ImageDescriber {
  private ImageDescriber() {}

  /** For example {@code image 1: PNG, 640x480 pixels, 12,345 bytes}. */
  static String describe(int index, Image image) {
    byte[] bytes = Base64.getDecoder().decode(image.data());
    String format = switch (image.mediaType()) {
      case PNG -> "PNG";
      case JPEG -> "JPEG";
      case GIF -> "GIF";
      case WEBP -> "WebP";
    };
    String size;
    try {
      ImageHeaders.Dimensions d = ImageHeaders.dimensions(bytes);
      size = d.width() + "x" + d.height() + " pixels";
    } catch (InvalidImageHeaderException e) {
      size = "unknown pixel size (" + e.getMessage() + ")";
    }
    return String.format(Locale.ROOT, "image %d: %s, %s, %,d bytes", index + 1, format, size, bytes.length);
  }
}
