package dev.tether.api;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;
import java.util.Objects;

/**
 * One inline image of an answer ({@link InlineAnswer}) with its base64 left where it is: a range of
 * the payload's bytes when the JSON string is plain ASCII without escapes (all that valid base64 can
 * be), else the string's text as the parser unescaped it. A consumer that decodes images (a chat
 * bridge) checks and decodes the base64 from the frame's bytes instead of a String copy of it.
 *
 * <p>Immutable: the payload's bytes are never handed out. {@link #toImage()} and {@link #decode()}
 * copy what they return. Check an image ({@code dev.tether.images.Images#check(InlineImage,
 * Limits)}) before you decode it.
 */
public final class InlineImage {
  private final MediaType mediaType;
  private final byte[] array;
  private final int offset;
  private final int length;
  private final String text;
  private final boolean verified;

  private InlineImage(MediaType mediaType, byte[] array, int offset, int length, String text, boolean verified) {
    this.mediaType = Objects.requireNonNull(mediaType, "mediaType");
    this.array = array;
    this.offset = offset;
    this.length = length;
    this.text = text;
    this.verified = verified;
  }

  /**
   * The base64 is {@code array[offset, offset + length)}: plain ASCII, no escapes. {@code verified}:
   * a validator passed these bytes as this image's data under {@code mediaType} (see {@link ImageProof}).
   */
  static InlineImage plain(MediaType mediaType, byte[] array, int offset, int length, boolean verified) {
    Objects.checkFromIndexSize(offset, length, array.length);
    return new InlineImage(mediaType, array, offset, length, null, verified);
  }

  /** The base64 is {@code text}: the JSON string held escapes or bytes beyond ASCII. Never verified. */
  static InlineImage text(MediaType mediaType, String text) {
    return new InlineImage(mediaType, null, 0, 0, Objects.requireNonNull(text, "text"), false);
  }

  public MediaType mediaType() {
    return mediaType;
  }

  /** Whether the base64 is a range of plain ASCII payload bytes, else a String the parser unescaped. */
  public boolean isPlain() {
    return array != null;
  }

  /**
   * The typed image: for a plain image one Latin-1 copy of its bytes, the same text either way; with
   * an {@link ImageProof} for that copy when a validator passed the bytes.
   */
  public Image toImage() {
    if (!isPlain()) {
      return new Image(mediaType, text);
    }
    String data = new String(array, offset, length, StandardCharsets.ISO_8859_1);
    return new Image(mediaType, data, verified ? new ImageProof(mediaType, data) : null);
  }

  /** Whether a validator passed this image's bytes (see {@link ImageProof}); for the checks in tether-images. */
  boolean verified() {
    return verified;
  }

  /**
   * The image's bytes, decoded by the JDK's standard base64 decoder: for a plain image straight
   * from the payload's bytes, with no String between.
   *
   * @throws IllegalArgumentException when the base64 is not standard base64
   */
  public byte[] decode() {
    if (!isPlain()) {
      return Base64.getDecoder().decode(text);
    }
    ByteBuffer decoded = Base64.getDecoder().decode(ByteBuffer.wrap(array, offset, length));
    byte[] bytes = decoded.array();
    // the decoder sizes its array exactly for valid base64; copy only if a JDK ever does otherwise
    return decoded.arrayOffset() == 0 && decoded.remaining() == bytes.length ? bytes
        : Arrays.copyOfRange(bytes, decoded.arrayOffset() + decoded.position(), decoded.arrayOffset() + decoded.limit());
  }

  /** The plain base64 as a view of the payload's array, for the validator only (see {@code ApiInternals}). */
  ByteBuffer plainView() {
    if (array == null) {
      throw new IllegalStateException("the image's base64 had escapes; read it with toImage()");
    }
    return ByteBuffer.wrap(array, offset, length);
  }

  @Override
  public String toString() {
    return "InlineImage[" + mediaType + ", " + (isPlain() ? length + " plain bytes" : text.length() + " chars") + "]";
  }
}
