package dev.tether.telegram.internal;

import dev.tether.api.MediaType;
import dev.tether.images.ImageHeaders;
import dev.tether.images.InvalidImageHeaderException;

/**
 * Whether an image can go by {@code sendPhoto} or must go by {@code sendDocument}.
 *
 * <p>{@code sendPhoto}'s rules: at most 10 MB, width + height at most 10000, the ratio of the
 * longer to the shorter side at most 20. Telegram re-encodes what it takes as a photo, so a GIF
 * (which would lose its animation) also goes as a document, as does an image whose header gives
 * no dimensions. Stateless.
 */
final class PhotoRules {
  static final long MAX_PHOTO_BYTES = 10_000_000L;
  static final int MAX_PHOTO_SIDES = 10_000;
  static final int MAX_PHOTO_RATIO = 20;

  private PhotoRules() {}

  /** {@code sendPhoto} or {@code sendDocument}. */
  static String methodFor(MediaType type, byte[] bytes) {
    if (type == MediaType.GIF || bytes.length > MAX_PHOTO_BYTES) {
      return "sendDocument";
    }
    ImageHeaders.Dimensions d;
    try {
      d = ImageHeaders.dimensions(bytes);
    } catch (InvalidImageHeaderException e) {
      return "sendDocument";
    }
    long w = d.width();
    long h = d.height();
    if (w + h > MAX_PHOTO_SIDES || Math.max(w, h) > MAX_PHOTO_RATIO * Math.min(w, h)) {
      return "sendDocument";
    }
    return "sendPhoto";
  }
}
