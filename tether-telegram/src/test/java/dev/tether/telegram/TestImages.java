package dev.tether.telegram;

import dev.tether.api.Image;
import dev.tether.api.MediaType;
import dev.tether.api.testing.ImageBytes;
import dev.tether.images.Images;
import java.awt.Color;
import java.awt.Graphics2D;
import java.awt.image.BufferedImage;
import java.util.Arrays;

/** Real encoded images for the tests (the JDK's ImageIO writers). */
final class TestImages {
  private TestImages() {}

  static byte[] jpeg(int width, int height) {
    return ImageBytes.encode(picture(width, height, BufferedImage.TYPE_INT_RGB), "jpeg");
  }

  static byte[] png(int width, int height) {
    return ImageBytes.encode(picture(width, height, BufferedImage.TYPE_INT_ARGB), "png");
  }

  static Image pngImage(int width, int height) {
    return Images.fromBytes(png(width, height), MediaType.PNG);
  }

  /** A JPEG of {@code size} bytes: a real small JPEG padded with zeros after its end marker. */
  static byte[] paddedJpeg(int size) {
    byte[] real = jpeg(8, 8);
    return Arrays.copyOf(real, Math.max(size, real.length));
  }

  private static BufferedImage picture(int width, int height, int type) {
    BufferedImage image = new BufferedImage(width, height, type);
    Graphics2D g = image.createGraphics();
    g.setColor(new Color(30, 120, 200));
    g.fillRect(0, 0, width, height);
    g.setColor(Color.ORANGE);
    g.fillOval(width / 4, height / 4, Math.max(1, width / 2), Math.max(1, height / 2));
    g.dispose();
    return image;
  }
}
