package dev.tether.api;

import java.util.Objects;

/**
 * The wire image object {@code {"media_type": ..., "data": ...}}.
 *
 * <p>{@code data} is held exactly as it travels: standard base64 text. Constructing an image
 * does not validate the base64 or the limits; that is the job of the validator in
 * {@code tether-images}, which producers call before sending and consumers call again on receipt.
 * The reserved {@code ref} and {@code size} fields are never represented.
 *
 * @param mediaType one of the four supported types
 * @param data standard base64 of the image bytes, as on the wire
 */
public record Image(MediaType mediaType, String data) {
  public Image {
    Objects.requireNonNull(mediaType, "mediaType");
    Objects.requireNonNull(data, "data");
  }

  /** The decoded size in bytes, computed from the base64 length without decoding. */
  public long decodedSize() {
    return Base64Lengths.decodedLength(data);
  }

  @Override
  public String toString() {
    return "Image[" + mediaType + ", " + data.length() + " base64 chars]";
  }
}
