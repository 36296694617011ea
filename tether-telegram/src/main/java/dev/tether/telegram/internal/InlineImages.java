package dev.tether.telegram.internal;

import dev.tether.api.InlineAnswer;
import dev.tether.api.InlineImage;
import dev.tether.api.Limits;
import dev.tether.api.TetherException;
import dev.tether.images.Images;

/**
 * An answer's images checked and decoded where their base64 sits, in the frame's payload bytes
 * (see {@link InlineAnswer#read}), so the bridge never holds a String copy of an image: the only
 * allocation of size is the decoded image the upload carries. An image whose JSON string had
 * escapes is checked and decoded through its text, as before. Stateless.
 */
public final class InlineImages {
  private InlineImages() {}

  /**
   * Checks {@code image} by the rules of {@link Images#check(InlineImage, Limits)}, with the same errors.
   *
   * @throws TetherException when the image breaks a rule
   */
  public static void check(InlineImage image, Limits limits) {
    Images.check(image, limits);
  }

  /** The bytes of a {@link #check checked} image, decoded by the JDK straight from the payload's bytes. */
  static byte[] decode(InlineImage image) {
    return image.isPlain() ? image.decode() : PhotoUpload.decode(image.toImage().data());
  }
}
