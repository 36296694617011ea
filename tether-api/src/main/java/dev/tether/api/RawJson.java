package dev.tether.api;

import dev.tether.api.internal.ApiInternals;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Objects;

/**
 * One JSON value held as its UTF-8 bytes, exactly as it arrived.
 *
 * <p>Frame payloads travel through stores, journals and HTTP as {@code RawJson} so that no layer
 * re-encodes them. Instances are immutable: the public factories copy their input and no method
 * exposes the backing array, so a {@code RawJson} may be shared freely between threads. Equality
 * compares the bytes, so two spellings of the same JSON value ({@code {"a":1}} and
 * {@code { "a": 1 }}) are different values.
 */
public final class RawJson {
  /** The empty JSON object {@code {}}. */
  public static final RawJson EMPTY_OBJECT = new RawJson(new byte[] {'{', '}'}, 0, 2);

  static {
    ApiInternals.install(new InternalsBridge());
  }

  final byte[] array;
  final int offset;
  final int length;
  private int hash;
  /**
   * What a validator proved about this payload's {@code images}, or null when none has judged
   * them. Set after validation, by {@link InternalsBridge} only; the bytes never change, so a
   * thread that sees it sees a fact about them.
   */
  private volatile VerifiedImages verifiedImages;

  RawJson(byte[] array, int offset, int length) {
    this.array = array;
    this.offset = offset;
    this.length = length;
  }

  void markImagesVerified(VerifiedImages facts) {
    verifiedImages = facts;
  }

  /** What a validator proved about the images, or null. */
  VerifiedImages verifiedImages() {
    return verifiedImages;
  }

  /**
   * Parses {@code json} to check that it is exactly one JSON value.
   *
   * @throws TetherException with {@link ErrorCode#MALFORMED_FRAME} when it is not
   */
  public static RawJson of(String json) {
    byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
    JsonSupport.requireSingleValue(bytes, 0, bytes.length);
    return new RawJson(bytes, 0, bytes.length);
  }

  /**
   * Copies and checks UTF-8 JSON text.
   *
   * @throws TetherException with {@link ErrorCode#MALFORMED_FRAME} when it is not exactly one value
   */
  public static RawJson ofUtf8(byte[] utf8) {
    byte[] copy = utf8.clone();
    JsonSupport.requireSingleValue(copy, 0, copy.length);
    return new RawJson(copy, 0, copy.length);
  }

  /**
   * Copies and checks the UTF-8 JSON text {@code utf8[offset, offset + length)}.
   *
   * @throws TetherException with {@link ErrorCode#MALFORMED_FRAME} when it is not exactly one value
   * @throws IndexOutOfBoundsException when the range is not inside {@code utf8}
   */
  public static RawJson ofUtf8(byte[] utf8, int offset, int length) {
    Objects.checkFromIndexSize(offset, length, utf8.length);
    byte[] copy = Arrays.copyOfRange(utf8, offset, offset + length);
    JsonSupport.requireSingleValue(copy, 0, copy.length);
    return new RawJson(copy, 0, copy.length);
  }

  /** The number of UTF-8 bytes. */
  public int size() {
    return length;
  }

  /** A copy of the UTF-8 bytes. */
  public byte[] toByteArray() {
    return Arrays.copyOfRange(array, offset, offset + length);
  }

  /** A read-only view of the bytes; nothing is copied. */
  public ByteBuffer asReadOnlyByteBuffer() {
    return ByteBuffer.wrap(array, offset, length).slice().asReadOnlyBuffer();
  }

  /** A stream over the bytes; nothing is copied. */
  public InputStream openStream() {
    return new ByteArrayInputStream(array, offset, length);
  }

  /** Writes the bytes to {@code out} without copying them first. */
  public void writeTo(OutputStream out) throws IOException {
    out.write(array, offset, length);
  }

  /** True when the value is a JSON object. */
  public boolean isObject() {
    for (int i = offset, end = offset + length; i < end; i++) {
      byte b = array[i];
      if (b != ' ' && b != '\t' && b != '\n' && b != '\r') {
        return b == '{';
      }
    }
    return false;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof RawJson other
        && Arrays.equals(array, offset, offset + length, other.array, other.offset, other.offset + other.length);
  }

  @Override
  public int hashCode() {
    int h = hash;
    if (h == 0) {
      h = 1;
      for (int i = offset, end = offset + length; i < end; i++) {
        h = 31 * h + array[i];
      }
      hash = h;
    }
    return h;
  }

  /** The JSON text. */
  @Override
  public String toString() {
    return new String(array, offset, length, StandardCharsets.UTF_8);
  }
}
