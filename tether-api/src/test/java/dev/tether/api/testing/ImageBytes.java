package dev.tether.api.testing;

import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import javax.imageio.ImageIO;

/**
 * Encodes test images with the JDK's {@code javax.imageio} writers (published in tether-api's
 * test-jar, so every module's image fixtures encode the same way). Stateless; thread-safe.
 */
public final class ImageBytes {
  private ImageBytes() {}

  /**
   * {@code image} encoded as {@code format} ("png", "jpeg", "gif", ...).
   *
   * @throws IllegalStateException if the JDK has no writer for {@code format}
   */
  public static byte[] encode(BufferedImage image, String format) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try {
      if (!ImageIO.write(image, format, out)) {
        throw new IllegalStateException("no ImageIO writer for " + format);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toByteArray();
  }
}
