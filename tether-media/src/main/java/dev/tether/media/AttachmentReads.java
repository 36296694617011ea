package dev.tether.media;

import dev.tether.api.ErrorCode;
import dev.tether.api.Image;
import dev.tether.api.Limits;
import dev.tether.api.MediaType;
import dev.tether.api.TetherException;
import dev.tether.images.Images;
import dev.tether.media.internal.MediaText;
import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * What {@code read_attachment} and {@code view_attachment} make of an attachment's bytes,
 * wherever the bytes come from: an {@link AttachmentCatalog} on this machine, or a host's
 * attachment route read through a client. Stateless and thread-safe.
 *
 * <p><b>Text.</b> UTF-8, invalid sequences replaced with U+FFFD, windowed by code points. A file
 * whose first {@value AttachmentCatalog#BINARY_PROBE_BYTES} bytes hold a NUL is binary and
 * refused with {@link ErrorCode#BINARY_ATTACHMENT}; that is the whole rule.
 *
 * <p><b>Images.</b> Only the four image types are viewable. The declared type is never guessed
 * or corrected: the bytes are <em>verified</em> against it ({@code MEDIA_TYPE_MISMATCH} when they
 * are another format), as every tether image is.
 */
public final class AttachmentReads {
  private AttachmentReads() {}

  /**
   * Up to {@code limit} characters of {@code bytes} from code-point {@code offset}; past the end
   * gives empty text.
   *
   * @throws TetherException {@link ErrorCode#BINARY_ATTACHMENT} for a binary file
   * @throws IllegalArgumentException for a negative offset or a limit below 1
   */
  public static AttachmentText text(Attachment a, byte[] bytes, long offset, int limit) {
    Objects.requireNonNull(a, "a");
    Objects.requireNonNull(bytes, "bytes");
    if (offset < 0) {
      throw new IllegalArgumentException("offset must be >= 0 but was " + offset);
    }
    if (limit < 1) {
      throw new IllegalArgumentException("limit must be >= 1 but was " + limit);
    }
    int probe = Math.min(bytes.length, AttachmentCatalog.BINARY_PROBE_BYTES);
    for (int i = 0; i < probe; i++) {
      if (bytes[i] == 0) {
        throw TetherException.of(ErrorCode.BINARY_ATTACHMENT, a.fileName() + " is a binary file ("
            + a.mimeType() + ") and cannot be read as text"
            + (a.mimeType().regionMatches(true, 0, "image/", 0, 6) ? "; use view_attachment to see an image" : ""));
      }
    }
    String text = new String(bytes, StandardCharsets.UTF_8);
    int total = text.codePointCount(0, text.length());
    int from = (int) Math.min(offset, total);
    int to = (int) Math.min((long) from + limit, total);
    int start = text.offsetByCodePoints(0, from);
    int end = text.offsetByCodePoints(start, to - from);
    return new AttachmentText(a.fileName(), text.substring(start, end), from, total);
  }

  /**
   * Refuses, before any byte is read, what cannot be viewed.
   *
   * @throws TetherException {@link ErrorCode#VISION_UNSUPPORTED} when the model cannot see images,
   *     {@link ErrorCode#NOT_AN_IMAGE} when the declared type is not one of the four image types
   */
  public static MediaType requireViewable(Attachment a, boolean visionCapable) {
    if (!visionCapable) {
      throw TetherException.of(ErrorCode.VISION_UNSUPPORTED, "the current model cannot see images, so "
          + a.fileName() + " cannot be viewed; describe what you need from it to the user instead");
    }
    MediaType type = imageType(a);
    if (type == null) {
      throw TetherException.of(ErrorCode.NOT_AN_IMAGE, a.fileName() + " is " + a.mimeType()
          + ", not an image a model can view (image/png, image/jpeg, image/gif or image/webp)"
          + "; use read_attachment for text");
    }
    return type;
  }

  /**
   * The attachment as a validated image of its declared type.
   *
   * @throws TetherException {@link ErrorCode#NOT_AN_IMAGE} for a type that is not an image,
   *     {@code MEDIA_TYPE_MISMATCH} when the bytes are not of the declared type,
   *     {@code IMAGE_TOO_LARGE} over the image limit
   */
  public static Image image(Attachment a, byte[] bytes, Limits limits) {
    MediaType type = requireViewable(a, true);
    return Images.fromBytes(bytes, type, limits);
  }

  /** The image type the attachment is declared as, or null when it is not one of the four. */
  static MediaType imageType(Attachment a) {
    return MediaType.parse(MediaText.essence(a.mimeType())).orElse(null);
  }
}
