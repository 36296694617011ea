package dev.tether.api.internal;

import dev.tether.api.Frame;
import dev.tether.api.InlineImage;
import dev.tether.api.MediaType;
import dev.tether.api.RawJson;
import java.nio.ByteBuffer;
import java.util.Objects;

/**
 * Not API. Zero-copy access to the bytes behind a {@link RawJson} for the three tether modules that
 * must share them (the validator, the HTTP server, the Coven bridge; see {@code module-info}),
 * which would otherwise have to copy megabytes of image data. Other modules read and write payloads
 * through {@code dev.tether.api.json.TetherJson}, which never hands the bytes out.
 *
 * <p>Code outside tether must not use this class: it breaks the immutability that
 * {@code RawJson} promises. It may change in any release.
 */
public final class ApiInternals {
  /** Implemented inside {@code dev.tether.api}. */
  public interface Bridge {
    byte[] array(RawJson json);

    int offset(RawJson json);

    /** Wraps bytes that the caller owns, has checked to be one JSON value, and will never change. */
    RawJson wrapTrusted(byte[] array, int offset, int length);

    /**
     * Reads a frame whose payload shares {@code buffer}, which the caller gives up. For bytes a
     * validator has passed or the SDK stored itself: the surrogate scan is skipped and a missing
     * {@code v} reads as 1.
     */
    Frame readShared(byte[] buffer, int offset, int length);

    /** See {@link ApiInternals#plainBase64}. */
    ByteBuffer plainBase64(InlineImage image);

    /** See {@link ApiInternals#markImagesVerified}. */
    void markImagesVerified(RawJson payload, MediaType[] types, int[] starts, int[] ends);

    /** See {@link ApiInternals#verified}. */
    boolean verified(InlineImage image);

    /** Hands {@code parser}, made over {@code json}'s bytes, what a validator proved about its strings. */
    void proveStrings(RawJson json, PlainStringParser parser);
  }

  private static volatile Bridge bridge;

  private ApiInternals() {}

  /** Called once, from {@code RawJson}'s static initializer. */
  public static void install(Bridge implementation) {
    if (bridge != null) {
      throw new IllegalStateException("the tether API bridge is already installed");
    }
    bridge = Objects.requireNonNull(implementation);
  }

  /** The backing array of {@code json}; its bytes start at {@link #offset(RawJson)}. Never write to it. */
  public static byte[] array(RawJson json) {
    return bridge().array(json);
  }

  public static int offset(RawJson json) {
    return bridge().offset(json);
  }

  /** See {@link Bridge#wrapTrusted}. */
  public static RawJson wrapTrusted(byte[] array, int offset, int length) {
    Objects.checkFromIndexSize(offset, length, array.length);
    return bridge().wrapTrusted(array, offset, length);
  }

  /** See {@link Bridge#readShared}. The caller has already checked the size limit. */
  public static Frame readShared(byte[] buffer, int offset, int length) {
    Objects.checkFromIndexSize(offset, length, buffer.length);
    return bridge().readShared(buffer, offset, length);
  }

  /**
   * A plain image's base64 as a writable view of the payload's own array, for the validator's
   * checks; never write to it.
   *
   * @throws IllegalStateException when the image is not {@link InlineImage#isPlain() plain}
   */
  public static ByteBuffer plainBase64(InlineImage image) {
    return bridge().plainBase64(image);
  }

  /**
   * Records that a validator has judged every image of {@code payload}'s {@code images} (strict
   * base64, no {@code data:} prefix, signature matching the declared type); {@code types[i]} is
   * image {@code i}'s declared type, null for a blob ref; {@code starts[i]} and {@code ends[i]} are
   * where its data string's first byte and closing quote are, relative to the payload's first
   * byte ({@code ends[i]} -1 when the string had escapes). The payload's typed views then give
   * those images an {@code ImageProof} and move past their data without scanning it again, and
   * consumers skip the checks already made. Only the validator and the store's read path (for
   * bytes it stored after validation) may call this.
   */
  public static void markImagesVerified(RawJson payload, MediaType[] types, int[] starts, int[] ends) {
    if (types.length != starts.length || types.length != ends.length) {
      throw new IllegalArgumentException("one type, start and end per image");
    }
    bridge().markImagesVerified(Objects.requireNonNull(payload, "payload"), types, starts, ends);
  }

  /** Whether a validator passed {@code image}'s bytes under its media type (see {@link #markImagesVerified}). */
  public static boolean verified(InlineImage image) {
    return bridge().verified(image);
  }

  /** See {@link Bridge#proveStrings}; for {@code TetherJson.parser(RawJson)}. */
  public static void proveStrings(RawJson json, PlainStringParser parser) {
    bridge().proveStrings(json, parser);
  }

  private static Bridge bridge() {
    Bridge b = bridge;
    if (b == null) {
      // Initialising RawJson installs the bridge.
      Objects.requireNonNull(RawJson.EMPTY_OBJECT);
      b = bridge;
    }
    return b;
  }
}
