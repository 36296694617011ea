package dev.tether.api.testing;

import java.awt.Color;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.zip.CRC32;
import javax.imageio.IIOImage;
import javax.imageio.ImageIO;
import javax.imageio.ImageWriteParam;
import javax.imageio.ImageWriter;

/**
 * Real images written by javax.imageio, hand-built headers with their byte layouts documented, and
 * signature-only blobs of a given byte size for the attachment and media tests.
 */
public final class TestImages {
  private TestImages() {}

  // ---- signature-only blobs of a given size (attachment and media tests) ----

  /** {@code size} bytes starting with the PNG signature, then filler: enough for a signature check only. */
  public static byte[] png(int size) {
    byte[] b = filled(size);
    byte[] sig = {(byte) 0x89, 'P', 'N', 'G', 0x0D, 0x0A, 0x1A, 0x0A};
    System.arraycopy(sig, 0, b, 0, sig.length);
    return b;
  }

  /** {@code size} bytes starting with the JPEG SOI marker and a marker prefix (FF D8 FF), then filler. */
  public static byte[] jpeg(int size) {
    byte[] b = filled(size);
    b[0] = (byte) 0xFF;
    b[1] = (byte) 0xD8;
    b[2] = (byte) 0xFF;
    return b;
  }

  private static byte[] filled(int size) {
    if (size < 12) {
      throw new IllegalArgumentException("size must be >= 12 but was " + size);
    }
    byte[] b = new byte[size];
    Arrays.fill(b, (byte) 0x42);
    return b;
  }

  // ---- javax.imageio ----

  /** A real image of the given size; {@code format} is an ImageIO name: "png", "jpeg" or "gif". */
  public static byte[] encode(String format, int width, int height) {
    var out = new ByteArrayOutputStream();
    try {
      if (!ImageIO.write(picture(width, height), format, out)) {
        throw new IllegalStateException("no ImageIO writer for " + format);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toByteArray();
  }

  /** A progressive JPEG, which ImageIO writes with an SOF2 marker. */
  public static byte[] encodeProgressiveJpeg(int width, int height) {
    ImageWriter writer = ImageIO.getImageWritersByFormatName("jpeg").next();
    ImageWriteParam param = writer.getDefaultWriteParam();
    param.setProgressiveMode(ImageWriteParam.MODE_DEFAULT);
    var out = new ByteArrayOutputStream();
    try (var stream = ImageIO.createImageOutputStream(out)) {
      writer.setOutput(stream);
      writer.write(null, new IIOImage(picture(width, height), null, null), param);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } finally {
      writer.dispose();
    }
    return out.toByteArray();
  }

  private static BufferedImage picture(int width, int height) {
    var image = new BufferedImage(width, height, BufferedImage.TYPE_INT_RGB);
    var graphics = image.createGraphics();
    graphics.setColor(Color.ORANGE);
    graphics.fillRect(0, 0, width / 2 + 1, height);
    graphics.dispose();
    return image;
  }

  // ---- PNG ----

  /**
   * Signature 89 50 4E 47 0D 0A 1A 0A, then the IHDR chunk: length u32 BE (13), type "IHDR", width and
   * height u32 BE, bit depth 8, color type 6 (RGBA), compression, filter, interlace 0, CRC-32.
   */
  public static byte[] png(long width, long height) {
    return png("IHDR", 13, width, height);
  }

  public static byte[] png(String chunkType, long declaredLength, long width, long height) {
    byte[] typeAndData = concat(ascii(chunkType), u32be(width), u32be(height), bytes(8, 6, 0, 0, 0));
    var crc = new CRC32();
    crc.update(typeAndData);
    return concat(bytes(0x89, 'P', 'N', 'G', 0x0D, 0x0A, 0x1A, 0x0A), u32be(declaredLength),
        typeAndData, u32be(crc.getValue()));
  }

  // ---- GIF ----

  /**
   * "GIF89a" (or "GIF87a"), then the logical screen descriptor: width and height u16 LE, packed
   * fields 0 (no global color table), background color 0, aspect ratio 0; then the trailer 0x3B.
   */
  public static byte[] gif(String version, int width, int height) {
    return concat(ascii(version), u16le(width), u16le(height), bytes(0, 0, 0, 0x3B));
  }

  // ---- JPEG ----

  /** SOI (FF D8) followed by the given segments. */
  public static byte[] jpeg(byte[]... segments) {
    return concat(bytes(0xFF, 0xD8), concat(segments));
  }

  /** FF, the marker code, length u16 BE counting itself (payload + 2), then the payload. */
  public static byte[] segment(int marker, byte[] payload) {
    return concat(bytes(0xFF, marker), u16be(payload.length + 2), payload);
  }

  /** FF, marker code, length u16 BE = 2 + declared payload size, but the payload bytes as given. */
  public static byte[] segmentWithLength(int marker, int declaredLength, byte[] payload) {
    return concat(bytes(0xFF, marker), u16be(declaredLength), payload);
  }

  /**
   * A start-of-frame segment payload: precision 8, height and width u16 BE, one component
   * (id 1, sampling 0x11, quantization table 0). Its segment length is 11.
   */
  public static byte[] sofPayload(int width, int height) {
    return concat(bytes(8), u16be(height), u16be(width), bytes(1, 1, 0x11, 0));
  }

  /** An APP1 "Exif" segment whose payload contains fake SOF0 bytes that a walker must skip. */
  public static byte[] app1WithDecoySof() {
    return segment(0xE1, concat(ascii("Exif"), bytes(0, 0), bytes(0xFF, 0xC0, 0, 11), sofPayload(7, 7)));
  }

  /** The JPEG with {@code extra} inserted right after its SOI marker. */
  public static byte[] insertAfterSoi(byte[] jpeg, byte[] extra) {
    return concat(Arrays.copyOfRange(jpeg, 0, 2), extra, Arrays.copyOfRange(jpeg, 2, jpeg.length));
  }

  /** Index of the first FF followed by {@code marker}, or -1. */
  public static int indexOfMarker(byte[] jpeg, int marker) {
    for (int i = 0; i + 1 < jpeg.length; i++) {
      if ((jpeg[i] & 0xFF) == 0xFF && (jpeg[i + 1] & 0xFF) == marker) {
        return i;
      }
    }
    return -1;
  }

  // ---- WebP ----

  /** "RIFF", size u32 LE = bytes after this field ("WEBP" + chunks), "WEBP", then the chunks. */
  public static byte[] riff(byte[]... chunks) {
    byte[] body = concat(ascii("WEBP"), concat(chunks));
    return concat(ascii("RIFF"), u32le(body.length), body);
  }

  /** FourCC, payload size u32 LE, payload, and a zero pad byte when the size is odd. */
  public static byte[] chunk(String fourCc, byte[] payload) {
    byte[] pad = new byte[payload.length % 2];
    return concat(ascii(fourCc), u32le(payload.length), payload, pad);
  }

  /**
   * VP8 (lossy) key frame header: a 3-byte frame tag u24 LE (bit 0: 0 = key frame, bits 1-3: version
   * 0, bit 4: show frame 1, bits 5-23: first partition size, here 0), start code 9d 01 2a, then
   * width and height u16 LE whose low 14 bits are the size and top 2 bits a scale (0 here).
   */
  public static byte[] vp8Payload(int width, int height) {
    return concat(bytes(0x10, 0, 0), bytes(0x9D, 0x01, 0x2A), u16le(width), u16le(height));
  }

  /**
   * VP8L (lossless) header: signature 0x2f, then 32 bits LE holding width - 1 (bits 0-13),
   * height - 1 (bits 14-27), alpha-is-used (bit 28, 0 here) and version (bits 29-31, must be 0).
   */
  public static byte[] vp8lPayload(int width, int height) {
    long bits = (width - 1L) | ((height - 1L) << 14);
    return concat(bytes(0x2F), u32le(bits));
  }

  /** VP8X (extended) header: flags (1 byte, 0), reserved (3), canvas width - 1 and height - 1 u24 LE. */
  public static byte[] vp8xPayload(int width, int height) {
    return concat(bytes(0, 0, 0, 0), u24le(width - 1), u24le(height - 1));
  }

  public static byte[] webpVp8(int width, int height) {
    return riff(chunk("VP8 ", vp8Payload(width, height)));
  }

  public static byte[] webpVp8l(int width, int height) {
    return riff(chunk("VP8L", vp8lPayload(width, height)));
  }

  /** A VP8X file as real encoders write it: VP8X first, then the image data chunk (here VP8L). */
  public static byte[] webpVp8x(int width, int height) {
    return riff(chunk("VP8X", vp8xPayload(width, height)), chunk("VP8L", vp8lPayload(1, 1)));
  }

  // ---- bytes ----

  public static byte[] bytes(int... values) {
    byte[] result = new byte[values.length];
    for (int i = 0; i < values.length; i++) {
      result[i] = (byte) values[i];
    }
    return result;
  }

  public static byte[] ascii(String text) {
    return text.getBytes(StandardCharsets.US_ASCII);
  }

  public static byte[] u16be(int value) {
    return bytes(value >>> 8, value);
  }

  public static byte[] u16le(int value) {
    return bytes(value, value >>> 8);
  }

  public static byte[] u24le(int value) {
    return bytes(value, value >>> 8, value >>> 16);
  }

  public static byte[] u32be(long value) {
    return bytes((int) (value >>> 24), (int) (value >>> 16), (int) (value >>> 8), (int) value);
  }

  public static byte[] u32le(long value) {
    return bytes((int) value, (int) (value >>> 8), (int) (value >>> 16), (int) (value >>> 24));
  }

  public static byte[] concat(byte[]... parts) {
    var out = new ByteArrayOutputStream();
    for (byte[] part : parts) {
      out.writeBytes(part);
    }
    return out.toByteArray();
  }

  /** A copy with one byte replaced. */
  public static byte[] with(byte[] original, int index, int value) {
    byte[] copy = original.clone();
    copy[index] = (byte) value;
    return copy;
  }
}
