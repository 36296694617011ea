package dev.tether.llm;

import dev.tether.api.ImageData;
import dev.tether.api.MediaType;
import dev.tether.api.Part;
import java.awt.Color;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.List;
import javax.imageio.IIOImage;
import javax.imageio.ImageIO;
import javax.imageio.ImageWriteParam;
import javax.imageio.ImageWriter;
import javax.imageio.stream.ImageOutputStream;

/**
 * Fits one image to a profile with the JDK's ImageIO: a GIF becomes its first frame as PNG, a
 * PNG or JPEG is re-encoded (JPEG at falling quality) and downscaled until it is within the
 * profile's side and size limits. WebP cannot be fitted: the JDK has no WebP codec.
 *
 * <p>Stateless and thread-safe; uses only {@code BufferedImage} and ImageIO, which need no display.
 * The header is checked before decoding, so a file claiming more than {@link #MAX_FIT_PIXELS}
 * pixels is refused instead of exhausting the heap.
 */
final class ImageFitter {
  private static final int MAX_ATTEMPTS = 12;
  /**
   * 40 megapixels: the largest image fitting decodes (160 MB as ARGB). The header is read first,
   * so a small file that claims huge dimensions (a decompression bomb) is refused, not decoded.
   */
  static final long MAX_FIT_PIXELS = 40_000_000L;
  private static final float[] JPEG_QUALITIES = {0.9f, 0.8f, 0.7f, 0.6f};

  record Fitted(Part.Image image, FitReport.Change change) {}

  private ImageFitter() {}

  static Fitted fit(ProviderProfile profile, Part.Image image, int index, int maxDimension, List<String> reasons) {
    MediaType from = image.mediaType();
    if (from == MediaType.WEBP) {
      throw ImageRuleException.of(index, profile, profile.formats().contains(from) ? ImageRule.SIZE : ImageRule.FORMAT,
          reasons.get(0) + ", and WebP cannot be fitted automatically (the JDK has no WebP codec); convert it first");
    }
    MediaType target = target(profile, from);
    if (target == null) {
      throw ImageRuleException.of(index, profile, ImageRule.FORMAT,
          reasons.get(0) + ", and fitting can only produce PNG or JPEG, which this profile does not accept");
    }
    Pixels.Size declared = Pixels.of(image, index, profile);
    if ((long) declared.width() * declared.height() > MAX_FIT_PIXELS) {
      throw ImageRuleException.of(index, profile, profile.formats().contains(from) ? ImageRule.DIMENSIONS : ImageRule.FORMAT,
          reasons.get(0) + ", and at " + declared.width() + "x" + declared.height()
              + " px it is too large to fit automatically (the limit is " + MAX_FIT_PIXELS + " pixels); downscale it first");
    }
    BufferedImage source = read(image.data(), profile, index);
    int width = source.getWidth();
    int height = source.getHeight();
    double scale = 1.0;
    if (maxDimension > 0 && Math.max(width, height) > maxDimension) {
      scale = (double) maxDimension / Math.max(width, height);
    }
    int quality = 0;
    for (int attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      int w = Math.max(1, (int) Math.floor(width * scale));
      int h = Math.max(1, (int) Math.floor(height * scale));
      BufferedImage scaled = scale < 1.0 || target == MediaType.JPEG ? resize(source, w, h, target) : source;
      byte[] bytes = encode(scaled, target, JPEG_QUALITIES[quality]);
      long measured = profile.measure(bytes.length);
      if (measured <= profile.maxImageSize()) {
        Part.Image fitted = new Part.Image(target, ImageData.ofBytes(bytes));
        return new Fitted(fitted, new FitReport.Change(index, from, target, image.data().size(), bytes.length,
            width, height, w, h, reasons));
      }
      if (target == MediaType.JPEG && quality < JPEG_QUALITIES.length - 1) {
        quality++;
      } else {
        scale *= Math.sqrt((double) profile.maxImageSize() / measured) * 0.95;
      }
    }
    throw ImageRuleException.of(index, profile, ImageRule.SIZE,
        reasons.get(0) + ", and it could not be fitted in " + MAX_ATTEMPTS + " attempts; downscale it yourself");
  }

  /** GIFs become PNG; a format the profile lacks becomes the other of PNG and JPEG. */
  private static MediaType target(ProviderProfile profile, MediaType from) {
    MediaType preferred = from == MediaType.GIF ? MediaType.PNG : from;
    if (profile.formats().contains(preferred)) {
      return preferred;
    }
    MediaType other = preferred == MediaType.PNG ? MediaType.JPEG : MediaType.PNG;
    return profile.formats().contains(other) ? other : null;
  }

  private static BufferedImage read(ImageData data, ProviderProfile profile, int index) {
    try (InputStream in = data.openStream()) {
      BufferedImage image = ImageIO.read(in);
      if (image == null) {
        throw ImageRuleException.of(index, profile, ImageRule.INVALID_DATA,
            "its bytes could not be decoded to fit it; the image is damaged");
      }
      return image;
    } catch (IOException | RuntimeException e) {
      if (e instanceof ImageRuleException rule) {
        throw rule;
      }
      throw ImageRuleException.of(index, profile, ImageRule.INVALID_DATA,
          "its bytes could not be decoded to fit it (" + e.getMessage() + "); the image is damaged", e);
    }
  }

  private static BufferedImage resize(BufferedImage source, int w, int h, MediaType target) {
    int type = target == MediaType.JPEG ? BufferedImage.TYPE_INT_RGB : BufferedImage.TYPE_INT_ARGB;
    BufferedImage out = new BufferedImage(w, h, type);
    Graphics2D g = out.createGraphics();
    try {
      g.setRenderingHint(RenderingHints.KEY_INTERPOLATION, RenderingHints.VALUE_INTERPOLATION_BILINEAR);
      g.setRenderingHint(RenderingHints.KEY_RENDERING, RenderingHints.VALUE_RENDER_QUALITY);
      if (target == MediaType.JPEG) {
        g.setColor(Color.WHITE);
        g.fillRect(0, 0, w, h);
      }
      g.drawImage(source, 0, 0, w, h, null);
    } finally {
      g.dispose();
    }
    return out;
  }

  private static byte[] encode(BufferedImage image, MediaType type, float quality) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    ImageWriter writer = ImageIO.getImageWritersByFormatName(type == MediaType.JPEG ? "jpeg" : "png").next();
    try (ImageOutputStream out = ImageIO.createImageOutputStream(bytes)) {
      writer.setOutput(out);
      ImageWriteParam param = writer.getDefaultWriteParam();
      if (type == MediaType.JPEG) {
        param.setCompressionMode(ImageWriteParam.MODE_EXPLICIT);
        param.setCompressionQuality(quality);
      }
      writer.write(null, new IIOImage(image, null, null), param);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } finally {
      writer.dispose();
    }
    return bytes.toByteArray();
  }
}
