package dev.tether.api;

import java.util.Optional;

/**
 * The one vocabulary of failures a caller can act on, for every transport: why input from the
 * wire was rejected, why a request to a host was refused, why a media or attachment request
 * cannot be served, or why the host could not answer.
 *
 * <p>Each code is mapped here, once, to its transport forms: {@link #httpStatus()} for the HTTP
 * API's JSON error bodies, and {@link #retryable()} for MCP tool errors (a tool error tells the
 * model whether trying again can help). The names are part of the wire contract: HTTP error
 * bodies, MCP tool errors and CLI output carry them verbatim, so they never change once released.
 */
public enum ErrorCode {
  // Frames and images on the wire.

  /** Not JSON, not an object, a required field missing or of the wrong type. */
  MALFORMED_FRAME(Kind.WIRE, 400),
  /** {@code v} is a number other than 1, the only protocol version there is. */
  UNSUPPORTED_VERSION(Kind.WIRE, 400),
  /** The encoded frame is larger than {@link Limits#maxFrameBytes()}. */
  FRAME_TOO_LARGE(Kind.WIRE, 413),
  /** One image decodes to more than {@link Limits#maxImageBytes()}. */
  IMAGE_TOO_LARGE(Kind.WIRE, 413),
  /** The images of one frame decode to more than {@link Limits#maxFrameImageBytes()} together. */
  FRAME_IMAGES_TOO_LARGE(Kind.WIRE, 413),
  /** More images than {@link Limits#maxImagesPerMessage()}. */
  TOO_MANY_IMAGES(Kind.WIRE, 400),
  /** A {@code media_type} other than image/png, image/jpeg, image/gif or image/webp. */
  UNSUPPORTED_MEDIA_TYPE(Kind.WIRE, 400),
  /** The declared {@code media_type} does not match the image's signature bytes. */
  MEDIA_TYPE_MISMATCH(Kind.WIRE, 400),
  /** {@code data} is not standard base64 (RFC 4648 alphabet, optional padding, no whitespace). */
  INVALID_BASE64(Kind.WIRE, 400),
  /** {@code data} starts with a {@code data:} URI prefix, which the wire does not allow. */
  DATA_URI_NOT_ALLOWED(Kind.WIRE, 400),
  /** Images on a frame type that cannot carry them, such as {@code assistant.delta}. */
  IMAGES_NOT_ALLOWED(Kind.WIRE, 400),
  /**
   * An image's {@code blob} is not a blob key for its media type, declares another size than the
   * blob has, or names something that is not a plain file (a symbolic link, say).
   */
  INVALID_BLOB_REF(Kind.WIRE, 400),
  /** An image's {@code blob} names a blob that is not in the instance's blob store. */
  BLOB_NOT_FOUND(Kind.WIRE, 404),
  /** A blob's bytes do not hash to its key. */
  BLOB_CORRUPTED(Kind.WIRE, 400),

  // Requests to a host (HTTP API, MCP tools).

  /** An argument or query parameter is missing, unknown, of the wrong type or out of range. */
  INVALID_ARGUMENT(Kind.REQUEST, 400),
  /** The HTTP request itself is malformed (bad URI encoding, bad chunking, bad headers). */
  BAD_REQUEST(Kind.REQUEST, 400),
  /** Missing or wrong credentials. */
  UNAUTHORIZED(Kind.REQUEST, 401),
  /**
   * Valid credentials that do not reach this resource: an instance token on another instance's
   * routes, or on the registry's.
   */
  PERMISSION_DENIED(Kind.REQUEST, 403),
  /** No such endpoint or resource. */
  NOT_FOUND(Kind.REQUEST, 404),
  /** The host does not know the instance. */
  INSTANCE_NOT_FOUND(Kind.REQUEST, 404),
  /** The request conflicts with the host's state (an instance that already exists, say). */
  CONFLICT(Kind.REQUEST, 409),
  /** The endpoint does not take this HTTP method. */
  METHOD_NOT_ALLOWED(Kind.REQUEST, 405),
  /** The request URI is longer than the server reads. */
  URI_TOO_LONG(Kind.REQUEST, 414),
  /** A {@code Content-Encoding} the server does not implement (only identity is). */
  UNSUPPORTED_CONTENT_ENCODING(Kind.REQUEST, 415),
  /** The request headers are larger than the server reads. */
  HEADERS_TOO_LARGE(Kind.REQUEST, 431),
  /** A {@code Transfer-Encoding} or feature the server does not implement. */
  NOT_IMPLEMENTED(Kind.REQUEST, 501),

  // Lazy media and attachments.

  /** No media reference with that id was ever registered (or it was evicted to respect the size bound). */
  UNKNOWN_REF(Kind.MEDIA, 404),
  /** The media reference existed but its time to live has passed. */
  EXPIRED_REF(Kind.MEDIA, 410),
  /** No downloader is configured for the media reference's channel. */
  NO_DOWNLOADER(Kind.MEDIA, 501),
  /** The download is larger than the configured maximum. */
  DOWNLOAD_TOO_LARGE(Kind.MEDIA, 413),
  /** No attachment has that file name. */
  UNKNOWN_ATTACHMENT(Kind.MEDIA, 404),
  /** An upload is larger than the configured maximum. */
  UPLOAD_TOO_LARGE(Kind.MEDIA, 413),
  /** An upload is malformed: bad base64, a missing name, an unusable MIME type. */
  INVALID_UPLOAD(Kind.MEDIA, 400),
  /** {@code read_attachment} on a file that is not text. */
  BINARY_ATTACHMENT(Kind.MEDIA, 415),
  /** {@code view_attachment} on a file whose MIME type is not an image type a model can view. */
  NOT_AN_IMAGE(Kind.MEDIA, 415),
  /** {@code view_attachment} for a target model that cannot see images. */
  VISION_UNSUPPORTED(Kind.MEDIA, 400),

  // The host's own state.

  /**
   * The store's byte budget across all instances is used up and evicting older frames of other
   * instances did not make room; retry later or remove instances.
   */
  STORE_FULL(Kind.HOST, 507, true),
  /**
   * An instance's disk budget (its attachments and blobs on the host) would be exceeded by this
   * upload; the message names the bytes in use, the upload and the budget. Delete attachments of
   * the instance, then try again.
   */
  INSUFFICIENT_STORAGE(Kind.HOST, 507, true),
  /** The store already holds its maximum number of instances; remove one first. */
  TOO_MANY_INSTANCES(Kind.HOST, 503, true),
  /**
   * The caller sends into an instance faster than the host admits (its per-instance or per-token
   * rate limit); the HTTP answer's {@code Retry-After} says in how many seconds to try again.
   */
  RATE_LIMITED(Kind.HOST, 429, true),
  /** The host, a download or a resource is unavailable for now; trying again later may work. */
  UNAVAILABLE(Kind.HOST, 503, true),
  /**
   * The channel could not deliver a media reference's bytes (its API failed or refused the file,
   * the network dropped); a later fetch may work.
   */
  DOWNLOAD_FAILED(Kind.HOST, 502, true),
  /** The host is shutting down; try again once it is back. */
  SHUTTING_DOWN(Kind.HOST, 503, true),
  /** A failure on the answering side; the message says what failed. */
  INTERNAL(Kind.HOST, 500, true);

  /** What a code is about. */
  public enum Kind {
    /** A frame or image on the wire breaks a rule of the protocol. */
    WIRE,
    /** A request to a host is malformed, unauthorised or names something that does not exist. */
    REQUEST,
    /** A lazy media or attachment request cannot be served. */
    MEDIA,
    /** The host's own state: out of room, unavailable, shutting down, failing. */
    HOST
  }

  private final Kind kind;
  private final int httpStatus;
  private final boolean retryable;

  ErrorCode(Kind kind, int httpStatus) {
    this(kind, httpStatus, false);
  }

  ErrorCode(Kind kind, int httpStatus, boolean retryable) {
    this.kind = kind;
    this.httpStatus = httpStatus;
    this.retryable = retryable;
  }

  /** What this code is about. */
  public Kind kind() {
    return kind;
  }

  /** The HTTP status of an error body carrying this code. */
  public int httpStatus() {
    return httpStatus;
  }

  /**
   * Whether the same request may succeed later unchanged (the host's state, not the request, is
   * at fault). A client or model should not retry the others: the request itself must change.
   */
  public boolean retryable() {
    return retryable;
  }

  /** The code whose {@link #name()} is {@code name}, if any: for codes read back from a host's answer. */
  public static Optional<ErrorCode> parse(String name) {
    if (name == null) {
      return Optional.empty();
    }
    try {
      return Optional.of(valueOf(name));
    } catch (IllegalArgumentException e) {
      return Optional.empty();
    }
  }
}
