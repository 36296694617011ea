package dev.tether.mcp;

import dev.tether.api.testing.ImageBytes;
import java.awt.Color;
import java.awt.image.BufferedImage;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;

/** Real small images, encoded by the JDK, as base64 and as tool-argument maps. */
final class TestImages {
  private TestImages() {}

  /** A {@code format} ("png", "gif", "jpeg") image of one colour, as standard base64. */
  static String base64(String format, int width, int height, Color color) {
    BufferedImage image = new BufferedImage(width, height, BufferedImage.TYPE_INT_RGB);
    for (int y = 0; y < height; y++) {
      for (int x = 0; x < width; x++) {
        image.setRGB(x, y, color.getRGB());
      }
    }
    return Base64.getEncoder().encodeToString(ImageBytes.encode(image, format));
  }

  static Map<String, Object> arg(String mediaType, String data) {
    Map<String, Object> image = new LinkedHashMap<>();
    image.put("media_type", mediaType);
    image.put("data", data);
    return image;
  }

  static Map<String, Object> png(Color color) {
    return arg("image/png", base64("png", 4, 3, color));
  }

  static Map<String, Object> gif(Color color) {
    return arg("image/gif", base64("gif", 2, 2, color));
  }
}
