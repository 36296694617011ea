package dev.tether.media;

import java.time.Instant;
import java.util.Objects;

/**
 * One piece of media as a {@code user.message} carries it in its {@code media} array, beside the
 * placeholder in its text: what an agent needs to list it and to ask for it, and nothing a
 * channel needs to download it (no file ids, no URLs).
 *
 * <p>On the wire: {@code {"ref","kind","mime_type","file_name"?,"size"?,"caption"?,"expires_at"}}
 * ({@link MediaFrames#mediaField}, {@link MediaFrames#mediaOf}). Immutable.
 *
 * @param ref the reference id, as in {@code ref:<id>}
 * @param kind what kind of media it is
 * @param mimeType the MIME type the channel reported
 * @param fileName the file name, or null
 * @param size the size in bytes the channel reported, or -1 when unknown
 * @param caption the caption, empty when none
 * @param expiresAt when the reference stops being fetchable
 */
public record MediaItem(
    String ref, MediaKind kind, String mimeType, String fileName, long size, String caption, Instant expiresAt) {

  public MediaItem {
    fileName = fileName == null || fileName.isEmpty() ? null : fileName;
    // The reference's own checks (token alphabet, MIME form, lengths) apply to the same fields.
    MediaReference.builder(ref, "check", kind, mimeType).fileName(fileName).size(size)
        .caption(Objects.requireNonNull(caption, "caption")).createdAt(Instant.EPOCH).build();
    Objects.requireNonNull(expiresAt, "expiresAt");
  }

  /** The item a registered reference announces. */
  public static MediaItem of(MediaReference ref) {
    return new MediaItem(ref.id(), ref.kind(), ref.mimeType(), ref.fileName(), ref.size(), ref.caption(), ref.expiresAt());
  }

  /** The placeholder for this item, as the message text shows it. */
  public MediaPlaceholder placeholder() {
    return new MediaPlaceholder(kind, fileName, size >= 0 ? MediaSizes.human(size) : null, mimeType, ref, caption);
  }

  /** Whether the item can no longer be fetched at {@code now}. */
  public boolean isExpiredAt(Instant now) {
    return !now.isBefore(expiresAt);
  }
}
