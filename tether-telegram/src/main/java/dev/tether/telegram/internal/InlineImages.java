package dev.tether.telegram.internal;

import dev.tether.api.Limits;
import dev.tether.api.internal.InlineImage;
import dev.tether.images.Images;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Base64;

/**
 * An answer's images checked and decoded where their base64 sits, in the frame's payload bytes
 * (see {@link dev.tether.api.internal.ApiInternals#readAnswer}), so the bridge never holds a String
 * copy of an image: the only allocation of size is the decoded image the upload carries. An image
 * whose JSON string had escapes is checked and decoded through its text, as before. Stateless.
 */
public final class InlineImages {
  private InlineImages() {}

  /**
   * Checks {@code image} by the rules of {@link Images#of(dev.tether.api.MediaType, String, Limits)}
   * (media type, base64, size, signature), with the same errors.
   *
   * @throws dev.tether.api.TetherException when the image breaks a rule
   */
  public static void check(InlineImage image, Limits limits) {
    if (image.isPlain()) {
      Images.check(image.mediaType(), image.array(), image.offset(), image.length(), limits);
    } else {
      Images.of(image.mediaType(), image.toImage().data(), limits);
    }
  }

  /** The bytes of a {@link #check checked} image, decoded by the JDK straight from the payload's bytes. */
  static byte[] decode(InlineImage image) {
    if (!image.isPlain()) {
      return PhotoUpload.decode(image.toImage().data());
    }
    ByteBuffer decoded = Base64.getDecoder().decode(ByteBuffer.wrap(image.array(), image.offset(), image.length()));
    byte[] bytes = decoded.array();
    // the decoder sizes its array exactly for valid base64; copy only if a JDK ever does otherwise
    return decoded.arrayOffset() == 0 && decoded.remaining() == bytes.length ? bytes
        : Arrays.copyOfRange(bytes, decoded.arrayOffset() + decoded.position(), decoded.arrayOffset() + decoded.limit());
  }
}
