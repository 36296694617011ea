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
 * @param proof the validator's {@link ImageProof} for exactly this data and type, or null (the
 *     image is then checked in full by whoever consumes it)
 */
public record Image(MediaType mediaType, String data, ImageProof proof) {
  /**
   * @throws IllegalArgumentException when {@code proof} is not null and does not cover exactly
   *     {@code data} under {@code mediaType}
   */
  public Image {
    Objects.requireNonNull(mediaType, "mediaType");
    Objects.requireNonNull(data, "data");
    if (proof != null && !proof.covers(mediaType, data)) {
      throw new IllegalArgumentException("the proof was made for other data or another media type");
    }
  }

  /** An image without a proof of validation: consumers check it in full. */
  public Image(MediaType mediaType, String data) {
    this(mediaType, data, null);
  }

  /** Whether a validator's {@link ImageProof} comes with the image. */
  public boolean isVerified() {
    return proof != null;
  }

  /** Equal when type and data are; the proof is not part of the value. */
  @Override
  public boolean equals(Object o) {
    return o instanceof Image other && mediaType == other.mediaType && data.equals(other.data);
  }

  @Override
  public int hashCode() {
    return 31 * mediaType.hashCode() + data.hashCode();
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
