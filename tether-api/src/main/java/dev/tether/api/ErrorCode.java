package dev.tether.api;

/**
 * Stable, machine-readable reasons for rejecting input from the wire, or for refusing it when
 * a store has no room left ({@link #STORE_FULL}, {@link #TOO_MANY_INSTANCES}).
 *
 * <p>The names are part of the wire contract: HTTP error bodies, MCP tool errors and CLI
 * output carry them verbatim, so they never change once released.
 */
public enum ErrorCode {
  /** Not JSON, not an object, a required field missing or of the wrong type. */
  MALFORMED_FRAME,
  /** {@code v} is a number other than 1, the only protocol version there is. */
  UNSUPPORTED_VERSION,
  /** The encoded frame is larger than {@link Limits#maxFrameBytes()}. */
  FRAME_TOO_LARGE,
  /** One image decodes to more than {@link Limits#maxImageBytes()}. */
  IMAGE_TOO_LARGE,
  /** The images of one frame decode to more than {@link Limits#maxFrameImageBytes()} together. */
  FRAME_IMAGES_TOO_LARGE,
  /** More images than {@link Limits#maxImagesPerMessage()}. */
  TOO_MANY_IMAGES,
  /** A {@code media_type} other than image/png, image/jpeg, image/gif or image/webp. */
  UNSUPPORTED_MEDIA_TYPE,
  /** The declared {@code media_type} does not match the image's signature bytes. */
  MEDIA_TYPE_MISMATCH,
  /** {@code data} is not standard base64 (RFC 4648 alphabet, optional padding, no whitespace). */
  INVALID_BASE64,
  /** {@code data} starts with a {@code data:} URI prefix, which the wire does not allow. */
  DATA_URI_NOT_ALLOWED,
  /** Images on a frame type that cannot carry them, such as {@code assistant.delta}. */
  IMAGES_NOT_ALLOWED,
  /**
   * The store's byte budget across all instances is used up and evicting older frames of other
   * instances did not make room; retry later or remove instances (HTTP 507).
   */
  STORE_FULL,
  /** The store already holds its maximum number of instances; remove one first (HTTP 503). */
  TOO_MANY_INSTANCES,
  /** The instance is not registered on this server (HTTP 404). */
  INSTANCE_NOT_FOUND,
  /**
   * An image's {@code blob} is not a blob key for its media type, declares another size than the
   * blob has, or names something that is not a plain file (a symbolic link, say).
   */
  INVALID_BLOB_REF,
  /** An image's {@code blob} names a blob that is not in the instance's blob store (HTTP 404). */
  BLOB_NOT_FOUND,
  /** A blob's bytes do not hash to its key. */
  BLOB_CORRUPTED
}
