package dev.tether.server.testing;

import dev.tether.api.Frame;
import dev.tether.api.FrameCodec;
import dev.tether.api.Frames;
import dev.tether.api.Image;
import dev.tether.api.MediaType;
import dev.tether.api.SessionKey;
import dev.tether.images.Images;
import java.awt.Color;
import java.awt.Graphics2D;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import javax.imageio.ImageIO;

/** Real images and frames for the tests. */
public final class Fixtures {
  private Fixtures() {}

  /** A real image of {@code width}x{@code height} in {@code format} ("png", "jpg", "gif"). */
  public static byte[] picture(String format, int width, int height) {
    BufferedImage img = new BufferedImage(width, height, BufferedImage.TYPE_INT_RGB);
    Graphics2D g = img.createGraphics();
    g.setColor(Color.ORANGE);
    g.fillRect(0, 0, width, height);
    g.setColor(Color.BLUE);
    g.fillOval(0, 0, width / 2 + 1, height / 2 + 1);
    g.dispose();
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try {
      if (!ImageIO.write(img, format, out)) {
        throw new IllegalArgumentException("no writer for " + format);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toByteArray();
  }

  public static Image png(int width, int height) {
    return Images.fromBytes(picture("png", width, height), MediaType.PNG);
  }

  public static Image jpeg(int width, int height) {
    return Images.fromBytes(picture("jpg", width, height), MediaType.JPEG);
  }

  public static Frame userMessage(String session, String text, Image... images) {
    return Frames.userMessage(SessionKey.host(session), dev.tether.api.MsgIds.host(), text, List.of(images), null);
  }

  public static byte[] wire(Frame frame) {
    return FrameCodec.standard().write(frame);
  }

  public static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
