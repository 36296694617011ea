package dev.tether.chat;

import dev.tether.api.InlineImage;
import dev.tether.api.Limits;
import dev.tether.images.Images;
import java.util.Arrays;
import java.util.Base64;

/**
 * An answer's images checked and decoded where their base64 sits, in the frame's payload bytes
 * (see {@link dev.tether.api.InlineAnswer#read}), so a bridge never holds a String
 * copy of an image: the only allocation of size is the decoded image the upload carries. An image
 * whose JSON string had escapes is checked and decoded through its text. Stateless.
 */
public final class AnswerImages {
  private static final int CHUNK = 4 * 16 * 1024;

  private AnswerImages() {}

  /**
   * Checks {@code image} by the rules of {@link Images#of(dev.tether.api.MediaType, String, Limits)}
   * (media type, base64, size, signature), with the same errors.
   *
   * @throws dev.tether.api.TetherException when the image breaks a rule
   */
  public static void check(InlineImage image, Limits limits) {
    Images.check(image, limits);
  }

  /** The bytes of a {@link #check checked} image, decoded by the JDK straight from the payload's bytes. */
  public static byte[] decode(InlineImage image) {
    return image.isPlain() ? image.decode() : decode(image.toImage().data());
  }

  /**
   * The JDK decoder over validated base64 text, chunk by chunk into one exactly sized array:
   * {@code Base64.Decoder.decode(String)} would first copy the whole text into a byte array.
   *
   * @throws IllegalArgumentException when the text is not base64
   */
  @SuppressWarnings("deprecation") // String.getBytes(int, int, byte[], int): the Latin-1 copy of ASCII
  public static byte[] decode(String base64) {
    int symbols = base64.length();
    while (symbols > 0 && base64.charAt(symbols - 1) == '=') {
      symbols--;
    }
    if (symbols % 4 == 1) {
      throw new IllegalArgumentException("base64 of " + symbols + " symbols is truncated");
    }
    byte[] out = new byte[(int) (symbols * 3L / 4)];
    Base64.Decoder decoder = Base64.getDecoder();
    byte[] src = new byte[Math.min(CHUNK, base64.length())];
    byte[] dst = new byte[CHUNK / 4 * 3];
    int at = 0;
    for (int from = 0; from < base64.length(); from += CHUNK) {
      int n = Math.min(CHUNK, base64.length() - from);
      base64.getBytes(from, from + n, src, 0);
      if (n == CHUNK) {
        int decoded = decoder.decode(src, dst);
        System.arraycopy(dst, 0, out, at, decoded);
        at += decoded;
      } else {
        byte[] last = decoder.decode(Arrays.copyOf(src, n));
        System.arraycopy(last, 0, out, at, last.length);
        at += last.length;
      }
    }
    return out;
  }
}
