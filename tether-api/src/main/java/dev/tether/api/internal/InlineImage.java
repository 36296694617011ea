package dev.tether.api.internal;

import dev.tether.api.Image;
import dev.tether.api.MediaType;
import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * Not API. One inline image of a payload with its base64 text left where it is: a range of the
 * payload's bytes when the JSON string is plain ASCII without escapes (all that valid base64 can
 * be), else the string's text as the parser unescaped it. Read by {@link ApiInternals#readAnswer}
 * with exactly the rules of {@link dev.tether.api.Frame#payloadView()}, so that a consumer can check
 * and decode the base64 from the frame's bytes instead of a String copy of it.
 *
 * <p>Immutable by convention: {@link #array()} is the payload's own array, never to be written.
 */
public final class InlineImage {
  private final MediaType mediaType;
  private final byte[] array;
  private final int offset;
  private final int length;
  private final String text;

  private InlineImage(MediaType mediaType, byte[] array, int offset, int length, String text) {
    this.mediaType = Objects.requireNonNull(mediaType, "mediaType");
    this.array = array;
    this.offset = offset;
    this.length = length;
    this.text = text;
  }

  /** The base64 is {@code array[offset, offset + length)}: plain ASCII, no escapes. */
  public static InlineImage plain(MediaType mediaType, byte[] array, int offset, int length) {
    Objects.checkFromIndexSize(offset, length, array.length);
    return new InlineImage(mediaType, array, offset, length, null);
  }

  /** The base64 is {@code text}: the JSON string held escapes or bytes beyond ASCII. */
  public static InlineImage text(MediaType mediaType, String text) {
    return new InlineImage(mediaType, null, 0, 0, Objects.requireNonNull(text, "text"));
  }

  public MediaType mediaType() {
    return mediaType;
  }

  /** Whether the base64 is a range of plain ASCII bytes ({@link #array()}), else a String ({@link #toImage()}). */
  public boolean isPlain() {
    return array != null;
  }

  /** The payload's array (plain images only); never write to it. */
  public byte[] array() {
    requirePlain();
    return array;
  }

  public int offset() {
    requirePlain();
    return offset;
  }

  public int length() {
    requirePlain();
    return length;
  }

  /** The typed image: for a plain image one Latin-1 copy of its bytes, the same text either way. */
  public Image toImage() {
    return new Image(mediaType, isPlain() ? new String(array, offset, length, StandardCharsets.ISO_8859_1) : text);
  }

  private void requirePlain() {
    if (array == null) {
      throw new IllegalStateException("the image's base64 had escapes; read it with toImage()");
    }
  }

  @Override
  public String toString() {
    return "InlineImage[" + mediaType + ", " + (isPlain() ? length + " plain bytes" : text.length() + " chars") + "]";
  }
}
