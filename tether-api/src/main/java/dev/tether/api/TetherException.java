package dev.tether.api;

import java.util.Objects;
import java.util.OptionalInt;

/**
 * The one exception for failures a caller can act on: a frame, payload or image that a producer
 * must not send or a consumer must not accept, a request a host refuses, a media or attachment
 * request that cannot be served, a store without room.
 *
 * <p>It carries a stable {@link #code()} (which also says the HTTP status and whether retrying
 * can help), the zero-based index of the offending image when one image is to blame, and a
 * message that tells a user what to change. Caller mistakes (a null argument, a negative limit)
 * are reported with the JDK's exceptions instead, and environment failures (a disk, a network)
 * as {@link java.io.IOException}s.
 */
public final class TetherException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final ErrorCode code;
  private final int imageIndex;

  private TetherException(ErrorCode code, int imageIndex, String message, Throwable cause) {
    super(message, cause);
    this.code = Objects.requireNonNull(code, "code");
    this.imageIndex = imageIndex;
  }

  /** Bad input that is not about one particular image. */
  public static TetherException of(ErrorCode code, String message) {
    return new TetherException(code, -1, message, null);
  }

  /** Bad input caused by a lower-level failure, such as a JSON syntax error. */
  public static TetherException of(ErrorCode code, String message, Throwable cause) {
    return new TetherException(code, -1, message, cause);
  }

  /** Bad input in the image at {@code imageIndex} (zero-based). */
  public static TetherException forImage(ErrorCode code, int imageIndex, String message) {
    if (imageIndex < 0) {
      throw new IllegalArgumentException("imageIndex must be >= 0 but was " + imageIndex);
    }
    return new TetherException(code, imageIndex, message, null);
  }

  /** {@link ErrorCode#FRAME_TOO_LARGE}: the encoded frame exceeds {@code maxFrameBytes}. */
  public static TetherException frameTooLarge(long maxFrameBytes) {
    return of(ErrorCode.FRAME_TOO_LARGE,
        "frame is larger than " + maxFrameBytes + " bytes; send fewer or smaller images");
  }

  public ErrorCode code() {
    return code;
  }

  /** The zero-based index of the image at fault, or empty when the frame as a whole is. */
  public OptionalInt imageIndex() {
    return imageIndex < 0 ? OptionalInt.empty() : OptionalInt.of(imageIndex);
  }
}
