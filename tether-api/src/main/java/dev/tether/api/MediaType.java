package dev.tether.api;

import java.util.Optional;

/**
 * The four image media types that tether carries. There is deliberately no table of other
 * formats anywhere in the SDK.
 */
public enum MediaType {
  PNG("image/png", "png"),
  JPEG("image/jpeg", "jpg"),
  GIF("image/gif", "gif"),
  WEBP("image/webp", "webp");

  private final String mimeType;
  private final String extension;

  MediaType(String mimeType, String extension) {
    this.mimeType = mimeType;
    this.extension = extension;
  }

  /** The wire spelling, for example {@code image/png}. */
  public String mimeType() {
    return mimeType;
  }

  /** The file extension used for blobs, without the dot: png, jpg, gif or webp. */
  public String extension() {
    return extension;
  }

  /** The media type spelled exactly as on the wire, or empty. Matching is case-sensitive. */
  public static Optional<MediaType> parse(String mimeType) {
    if (mimeType != null) {
      for (MediaType type : values()) {
        if (type.mimeType.equals(mimeType)) {
          return Optional.of(type);
        }
      }
    }
    return Optional.empty();
  }

  /**
   * The media type spelled exactly as on the wire.
   *
   * @throws TetherException with {@link ErrorCode#UNSUPPORTED_MEDIA_TYPE} for anything else
   */
  public static MediaType of(String mimeType) {
    return parse(mimeType).orElseThrow(() -> unsupported(mimeType, -1));
  }

  /** The media type for a blob file extension (png, jpg, gif, webp), or empty. */
  public static Optional<MediaType> forExtension(String extension) {
    for (MediaType type : values()) {
      if (type.extension.equals(extension)) {
        return Optional.of(type);
      }
    }
    return Optional.empty();
  }

  static TetherException unsupported(String mimeType, int imageIndex) {
    String message = "media_type " + (mimeType == null ? "is missing" : "'" + mimeType + "' is not supported")
        + "; use one of image/png, image/jpeg, image/gif or image/webp";
    return imageIndex < 0
        ? TetherException.of(ErrorCode.UNSUPPORTED_MEDIA_TYPE, message)
        : TetherException.forImage(ErrorCode.UNSUPPORTED_MEDIA_TYPE, imageIndex, "image " + imageIndex + ": " + message);
  }

  @Override
  public String toString() {
    return mimeType;
  }
}
