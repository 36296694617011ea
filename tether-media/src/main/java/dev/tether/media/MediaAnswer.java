package dev.tether.media;

import dev.tether.api.ErrorCode;
import dev.tether.api.Image;
import java.util.Objects;

/**
 * What a channel answers to a {@code media.fetch} request (the payload of a {@code control.media}
 * frame, see {@link MediaFrames}): the image, where a file was saved, or a coded error. A closed
 * set; dispatch over all three. Immutable.
 */
public sealed interface MediaAnswer permits MediaAnswer.Fetched, MediaAnswer.Saved, MediaAnswer.Failed {

  /** The reference id the request named. */
  String ref();

  /**
   * A small image, validated like any producer's (signature matches the type, within the limits).
   *
   * @param mimeType the MIME type the channel reported for the media
   */
  record Fetched(String ref, String mimeType, Image image) implements MediaAnswer {
    public Fetched {
      Objects.requireNonNull(ref, "ref");
      Objects.requireNonNull(mimeType, "mimeType");
      Objects.requireNonNull(image, "image");
    }
  }

  /**
   * Media that is not a small image, saved where the channel runs.
   *
   * @param path the absolute path of the saved file on the channel's machine
   * @param size its size in bytes
   */
  record Saved(String ref, String mimeType, String path, long size) implements MediaAnswer {
    public Saved {
      Objects.requireNonNull(ref, "ref");
      Objects.requireNonNull(mimeType, "mimeType");
      Objects.requireNonNull(path, "path");
      if (size < 0) {
        throw new IllegalArgumentException("size must be >= 0 but was " + size);
      }
    }
  }

  /**
   * Why the media cannot be had: {@code UNKNOWN_REF}, {@code EXPIRED_REF},
   * {@code DOWNLOAD_TOO_LARGE}, {@code DOWNLOAD_FAILED}, {@code PERMISSION_DENIED} (a reference of
   * another chat), {@code INVALID_ARGUMENT} (a malformed request), or another code.
   */
  record Failed(String ref, ErrorCode code, String message) implements MediaAnswer {
    public Failed {
      Objects.requireNonNull(ref, "ref");
      Objects.requireNonNull(code, "code");
      Objects.requireNonNull(message, "message");
    }
  }
}
