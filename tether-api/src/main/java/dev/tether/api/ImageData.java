package dev.tether.api;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Arrays;
import java.util.Base64;
import java.util.Objects;

/**
 * The bytes of an image in a conversation, held either decoded or as the base64 text that came
 * off the wire, so that neither form is converted until an adapter writes it out.
 *
 * <p>Immutable and thread-safe: {@link #ofBytes(byte[])} copies its argument and no method
 * exposes internal arrays. Two instances are equal when they hold the same image bytes, whatever
 * their form.
 */
public final class ImageData {
  private final byte[] bytes;
  private final String base64;
  private final ImageProof proof;

  private ImageData(byte[] bytes, String base64, ImageProof proof) {
    this.bytes = bytes;
    this.base64 = base64;
    this.proof = proof;
  }

  /** Decoded image bytes; the array is copied. */
  public static ImageData ofBytes(byte[] bytes) {
    return new ImageData(bytes.clone(), null, null);
  }

  /** Standard base64 text as on the wire; not decoded until needed. The caller has validated it. */
  public static ImageData ofBase64(String base64) {
    return new ImageData(null, Objects.requireNonNull(base64, "base64"), null);
  }

  /** The wire image's data, with the image's {@link ImageProof} when it has one. */
  public static ImageData of(Image image) {
    return new ImageData(null, image.data(), image.proof());
  }

  /**
   * Whether a validator's {@link ImageProof} covers this exact base64 text declared as {@code
   * type}: strict base64 whose signature is {@code type}'s. False for decoded bytes, for text
   * without a proof and for any other type; consumers then check the data in full.
   */
  public boolean isVerifiedAs(MediaType type) {
    return proof != null && proof.covers(type, base64);
  }

  /** Whether the data is held as base64 text (and {@link #base64()} costs nothing). */
  public boolean isBase64() {
    return base64 != null;
  }

  /** The decoded size in bytes, computed without decoding. */
  public long size() {
    return bytes != null ? bytes.length : Base64Lengths.decodedLength(base64);
  }

  /** Standard padded base64; free when held as base64 text, encoded on each call otherwise. */
  public String base64() {
    return base64 != null ? base64 : Base64.getEncoder().encodeToString(bytes);
  }

  /** A copy of the decoded bytes. */
  public byte[] toByteArray() {
    return bytes != null ? bytes.clone() : Base64.getDecoder().decode(base64);
  }

  /**
   * The decoded bytes as a stream; nothing is copied when they are held decoded, and base64 text is
   * decoded a chunk at a time as the stream is read. Text that is not base64 fails a read with an
   * {@link IOException}.
   */
  public InputStream openStream() {
    return bytes != null ? new ByteArrayInputStream(bytes) : new Base64TextStream(base64);
  }

  /** Writes the decoded bytes to {@code out}. */
  public void writeTo(OutputStream out) throws IOException {
    if (bytes != null) {
      out.write(bytes);
    } else {
      try (InputStream in = openStream()) {
        in.transferTo(out);
      }
    }
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof ImageData other)) {
      return false;
    }
    if (base64 != null && other.base64 != null) {
      return base64.equals(other.base64) || Arrays.equals(toByteArray(), other.toByteArray());
    }
    return Arrays.equals(bytes != null ? bytes : toByteArray(), other.bytes != null ? other.bytes : other.toByteArray());
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(bytes != null ? bytes : toByteArray());
  }

  @Override
  public String toString() {
    return "ImageData[" + size() + " bytes" + (isBase64() ? ", base64" : "") + "]";
  }
}
