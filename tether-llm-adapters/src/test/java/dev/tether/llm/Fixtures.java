package dev.tether.llm;

import dev.tether.api.Conversation;
import dev.tether.api.ImageData;
import dev.tether.api.MediaType;
import dev.tether.api.Part;
import dev.tether.api.RawJson;
import dev.tether.api.Turn;
import dev.tether.api.User;
import dev.tether.api.testing.ImageBytes;
import java.awt.image.BufferedImage;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Real images and the conversations of the golden tests. */
final class Fixtures {
  /** A real 1x1 PNG, as base64 text (the wire form). */
  static final String PNG_1X1 =
      "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";
  /** A real 2x1 JPEG written by ImageIO. */
  static final String JPEG_2X1 = "/9j/4AAQSkZJRgABAgAAAQABAAD/2wBDAAgGBgcGBQgHBwcJCQgKDBQNDAsLDBkSEw8UHRofHh0aHBwgJC4nICIsIxwcKDcpLDAxNDQ0Hyc5PTgyPC4zNDL/2wBDAQkJCQwLDBgNDRgyIRwhMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjL/wAARCAABAAIDASIAAhEBAxEB/8QAHwAAAQUBAQEBAQEAAAAAAAAAAAECAwQFBgcICQoL/8QAtRAAAgEDAwIEAwUFBAQAAAF9AQIDAAQRBRIhMUEGE1FhByJxFDKBkaEII0KxwRVS0fAkM2JyggkKFhcYGRolJicoKSo0NTY3ODk6Q0RFRkdISUpTVFVWV1hZWmNkZWZnaGlqc3R1dnd4eXqDhIWGh4iJipKTlJWWl5iZmqKjpKWmp6ipqrKztLW2t7i5usLDxMXGx8jJytLT1NXW19jZ2uHi4+Tl5ufo6erx8vP09fb3+Pn6/8QAHwEAAwEBAQEBAQEBAQAAAAAAAAECAwQFBgcICQoL/8QAtREAAgECBAQDBAcFBAQAAQJ3AAECAxEEBSExBhJBUQdhcRMiMoEIFEKRobHBCSMzUvAVYnLRChYkNOEl8RcYGRomJygpKjU2Nzg5OkNERUZHSElKU1RVVldYWVpjZGVmZ2hpanN0dXZ3eHl6goOEhYaHiImKkpOUlZaXmJmaoqOkpaanqKmqsrO0tba3uLm6wsPExcbHyMnK0tPU1dbX2Nna4uPk5ebn6Onq8vP09fb3+Pn6/9oADAMBAAIRAxEAPwDyK7/4/J/+ujfzooor9nwX+7U/8K/I5cX/ALxU9X+Z/9k=";

  private Fixtures() {}

  static Part.Image png() {
    return new Part.Image(MediaType.PNG, ImageData.ofBase64(PNG_1X1));
  }

  /** The JPEG held as decoded bytes, as a blob-backed session turn holds it. */
  static Part.Image jpegBytes() {
    return new Part.Image(MediaType.JPEG, ImageData.ofBytes(Base64.getDecoder().decode(JPEG_2X1)));
  }

  static Part.Text text(String text) {
    return new Part.Text(text);
  }

  /** The seven golden scenarios, by file name. */
  static Map<String, Conversation> scenarios() {
    Map<String, Conversation> s = new LinkedHashMap<>();
    s.put("text_only", new Conversation("", List.of(Turn.user(text("Hello")))));
    s.put("text_two_images", new Conversation("", List.of(Turn.user(text("Compare these"), png(), jpegBytes()))));
    s.put("image_only", new Conversation("", List.of(Turn.user(text(""), png()))));
    s.put("tool_result_image", new Conversation("", List.of(
        Turn.user(text("Take a screenshot")),
        Turn.assistant(text("Taking it."), new Part.ToolUse("call_1", "screenshot", RawJson.of("{\"region\":\"full\"}"))),
        Turn.user(new Part.ToolResult("call_1", List.of(text("Here it is"), png()), false)))));
    s.put("multi_turn_system", new Conversation("You are terse.", List.of(
        Turn.user(text("Hi")),
        Turn.user(text("Are you there?")),
        Turn.assistant(text("Yes.")),
        Turn.user(text("Bye")))));
    s.put("user_attribution", new Conversation("", List.of(
        Turn.user(text(Attribution.prefix(new User("123", "Alice"), "Analyze this chart")), png()))));
    // Empty text beside content is dropped for every format; the turn of empty text only merges
    // into the next user turn for Claude and Gemini and stays one empty text for the others.
    s.put("empty_text_parts", new Conversation("", List.of(
        Turn.user(text("")),
        Turn.user(text("What is this?"), text(""), png()),
        Turn.assistant(text(""), text("A pixel.")))));
    return s;
  }

  /**
   * A PNG signature and a real IHDR declaring {@code width x height}, padded with zeros to
   * {@code totalSize} bytes: enough for header checks and size limits, without the cost of pixels.
   */
  static byte[] pngHeader(int width, int height, int totalSize) {
    java.nio.ByteBuffer b = java.nio.ByteBuffer.allocate(Math.max(totalSize, 33));
    b.put(new byte[] {(byte) 0x89, 'P', 'N', 'G', 0x0D, 0x0A, 0x1A, 0x0A});
    b.putInt(13);
    int crcFrom = b.position();
    b.put(new byte[] {'I', 'H', 'D', 'R'}).putInt(width).putInt(height).put(new byte[] {8, 6, 0, 0, 0});
    java.util.zip.CRC32 crc = new java.util.zip.CRC32();
    crc.update(b.array(), crcFrom, b.position() - crcFrom);
    b.putInt((int) crc.getValue());
    return b.array();
  }

  static Part.Image pngPart(int width, int height, int totalSize) {
    return new Part.Image(MediaType.PNG, ImageData.ofBytes(pngHeader(width, height, totalSize)));
  }

  /** A RIFF/WEBP signature followed by a lossless VP8L header for {@code width x height}. */
  static byte[] webp(int width, int height) {
    java.nio.ByteBuffer b = java.nio.ByteBuffer.allocate(30).order(java.nio.ByteOrder.LITTLE_ENDIAN);
    b.put(new byte[] {'R', 'I', 'F', 'F'}).putInt(22).put(new byte[] {'W', 'E', 'B', 'P', 'V', 'P', '8', 'L'}).putInt(10);
    b.put((byte) 0x2f);
    int bits = (width - 1) | (height - 1) << 14;
    b.putInt(bits);
    return b.array();
  }

  static Conversation userTurn(Part... parts) {
    return new Conversation("", List.of(Turn.user(parts)));
  }

  /** A real PNG of the given size, drawn with a gradient so it does not compress to nothing. */
  static byte[] pngOf(int width, int height) {
    return encode(gradient(width, height, BufferedImage.TYPE_INT_ARGB), "png");
  }

  static byte[] jpegOf(int width, int height) {
    return encode(gradient(width, height, BufferedImage.TYPE_INT_RGB), "jpeg");
  }

  static byte[] gifOf(int width, int height) {
    return encode(gradient(width, height, BufferedImage.TYPE_INT_RGB), "gif");
  }

  private static BufferedImage gradient(int width, int height, int type) {
    BufferedImage image = new BufferedImage(width, height, type);
    java.util.Random random = new java.util.Random(width * 31L + height);
    for (int y = 0; y < height; y++) {
      for (int x = 0; x < width; x++) {
        image.setRGB(x, y, 0xff000000 | (x * 255 / width) << 16 | (y * 255 / height) << 8 | random.nextInt(64));
      }
    }
    return image;
  }

  private static byte[] encode(BufferedImage image, String format) {
    return ImageBytes.encode(image, format);
  }
}
