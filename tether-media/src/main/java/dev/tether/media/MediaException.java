package dev.tether.media;

import java.util.Objects;

/**
 * A media or attachment request that cannot be served, with a stable {@link Reason} and a
 * sentence an agent can act on. Tools report the message verbatim as a tool error.
 *
 * <p>Image validation failures (a declared type that does not match the bytes, an image over the
 * size limit) are reported as {@link dev.tether.api.TetherException} with its error code instead,
 * exactly as for images on the wire; download and disk failures are {@link java.io.IOException}s.
 */
public final class MediaException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** Why a request failed. The names are stable and may appear in tool results. */
  public enum Reason {
    /** No reference with that id was ever registered (or it was evicted to respect the size bound). */
    UNKNOWN_REF,
    /** The reference existed but its time to live has passed. */
    EXPIRED_REF,
    /** No downloader is configured for the reference's channel. */
    NO_DOWNLOADER,
    /** The download is larger than the configured maximum. */
    DOWNLOAD_TOO_LARGE,
    /** No attachment has that file name. */
    UNKNOWN_ATTACHMENT,
    /** An upload is larger than the configured maximum. */
    UPLOAD_TOO_LARGE,
    /** An upload is malformed: bad base64, a missing name, an unusable MIME type. */
    INVALID_UPLOAD,
    /** read_attachment on a file that is not text. */
    BINARY_ATTACHMENT,
    /** view_attachment on a file whose MIME type is not an image type a model can view. */
    NOT_AN_IMAGE,
    /** view_attachment for a target model that cannot see images. */
    VISION_UNSUPPORTED
  }

  private final Reason reason;

  public MediaException(Reason reason, String message) {
    super(message);
    this.reason = Objects.requireNonNull(reason, "reason");
  }

  public Reason reason() {
    return reason;
  }
}
