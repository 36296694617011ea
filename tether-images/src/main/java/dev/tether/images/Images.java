package dev.tether.images;

import dev.tether.api.ErrorCode;
import dev.tether.api.Image;
import dev.tether.api.InlineImage;
import dev.tether.api.Limits;
import dev.tether.api.MediaType;
import dev.tether.api.TetherException;
import dev.tether.api.internal.ApiInternals;
import java.nio.ByteBuffer;
import java.util.Base64;
import java.util.Locale;
import java.util.Objects;

/**
 * Producer helpers: build wire {@link Image}s that are known to be valid, so that a frame built
 * from them passes every consumer's checks.
 *
 * <p>All methods are thread-safe and check against {@link Limits#defaults()} unless given limits.
 * Bad input is a {@link TetherException} naming the image (index 0) and the rule.
 */
public final class Images {
  private Images() {}

  /** An image from its bytes: the size limit and the signature of {@code mediaType} are checked. */
  public static Image fromBytes(byte[] bytes, MediaType mediaType) {
    return fromBytes(bytes, mediaType, Limits.defaults());
  }

  public static Image fromBytes(byte[] bytes, MediaType mediaType, Limits limits) {
    Objects.requireNonNull(bytes, "bytes");
    Objects.requireNonNull(mediaType, "mediaType");
    ImageCheck.requireImageSize(bytes.length, 0, limits);
    ImageCheck.requireSignature(mediaType, bytes, Math.min(bytes.length, 12), 0);
    return new Image(mediaType, Base64.getEncoder().encodeToString(bytes));
  }

  /** A validated image from its media type and base64 text as on the wire. */
  public static Image of(MediaType mediaType, String base64) {
    return of(mediaType, base64, Limits.defaults());
  }

  public static Image of(MediaType mediaType, String base64, Limits limits) {
    Image image = new Image(mediaType, base64);
    ImageCheck.check(image, 0, limits);
    return image;
  }

  /**
   * Checks an image's base64 where it already sits as bytes (a payload read from the wire),
   * {@code base64[offset, offset + length)}, each byte one character of the text: the rules of
   * {@link #of(MediaType, String, Limits)} in the same order and with the same errors (index 0),
   * without copying the text into a String.
   *
   * @return the decoded size in bytes
   * @throws TetherException as {@link #of(MediaType, String, Limits)} does for the same text
   */
  public static long check(MediaType mediaType, byte[] base64, int offset, int length, Limits limits) {
    Objects.requireNonNull(mediaType, "mediaType");
    Objects.requireNonNull(limits, "limits");
    Objects.checkFromIndexSize(offset, length, base64.length);
    return ImageCheck.check(mediaType, base64, offset, offset + length, 0, limits);
  }

  /**
   * Checks an answer's inline image ({@link dev.tether.api.InlineAnswer}) by the rules of {@link
   * #of(MediaType, String, Limits)} (media type, base64, size, signature), with the same errors;
   * plain base64 is checked where it sits in the payload's bytes, without a String copy.
   *
   * @throws TetherException when the image breaks a rule
   */
  public static void check(InlineImage image, Limits limits) {
    Objects.requireNonNull(image, "image");
    if (image.isPlain() && ApiInternals.verified(image)) {
      // A validator passed these bytes under this media type (base64, prefix, signature): only the
      // size limit, which depends on limits, is left; the same arithmetic as the scan's.
      ByteBuffer base64 = ApiInternals.plainBase64(image);
      Objects.requireNonNull(limits, "limits");
      ImageCheck.requireImageSize(verifiedDecodedLength(base64), 0, limits);
    } else if (image.isPlain()) {
      ByteBuffer base64 = ApiInternals.plainBase64(image);
      check(image.mediaType(), base64.array(), base64.arrayOffset() + base64.position(), base64.remaining(), limits);
    } else {
      of(image.mediaType(), image.toImage().data(), limits);
    }
  }

  /** The decoded length of verified base64 (padding, if any, is at its end and well formed). */
  private static long verifiedDecodedLength(ByteBuffer base64) {
    int end = base64.arrayOffset() + base64.limit();
    byte[] a = base64.array();
    long symbols = base64.remaining();
    for (int i = 0; i < 2 && symbols > 0 && a[end - 1 - i] == '='; i++) {
      symbols--;
    }
    return symbols / 4 * 3 + Math.max(0, symbols % 4 - 1);
  }

  /**
   * An image from a {@code data:image/png;base64,...} URI: the prefix is stripped and its type
   * must be one of the four and match the bytes.
   */
  public static Image fromDataUri(String dataUri) {
    return fromDataUri(dataUri, Limits.defaults());
  }

  public static Image fromDataUri(String dataUri, Limits limits) {
    Objects.requireNonNull(dataUri, "dataUri");
    int comma = dataUri.indexOf(',');
    if (!dataUri.regionMatches(true, 0, "data:", 0, 5) || comma < 0) {
      throw TetherException.forImage(ErrorCode.MALFORMED_FRAME, 0,
          "image 0: not a data URI; expected data:image/png;base64,<data>");
    }
    String header = dataUri.substring(5, comma);
    if (!header.endsWith(";base64")) {
      throw TetherException.forImage(ErrorCode.INVALID_BASE64, 0,
          "image 0: the data URI is not base64-encoded; expected ';base64,' before the data");
    }
    String mime = header.substring(0, header.length() - ";base64".length());
    int parameters = mime.indexOf(';');
    if (parameters >= 0) {
      mime = mime.substring(0, parameters);
    }
    MediaType type = ImageCheck.mediaType(mime.toLowerCase(Locale.ROOT), 0);
    return of(type, dataUri.substring(comma + 1), limits);
  }

  /**
   * Checks an image whose bytes arrive as a stream (a blob, an upload, a download) before they are
   * trusted: {@code size} against the per-image limit, and the first {@code headLength} bytes of
   * {@code head} against the signature of {@code mediaType} (12 bytes tell the four formats apart;
   * fewer are a mismatch unless the image really is that short).
   *
   * @param index the image's position, named in the error
   * @throws TetherException {@code IMAGE_TOO_LARGE} or {@code MEDIA_TYPE_MISMATCH}
   */
  public static void requireImage(MediaType mediaType, long size, byte[] head, int headLength, int index,
      Limits limits) {
    Objects.requireNonNull(mediaType, "mediaType");
    Objects.requireNonNull(limits, "limits");
    Objects.checkFromIndexSize(0, headLength, head.length);
    ImageCheck.requireImageSize(size, index, limits);
    ImageCheck.requireSignature(mediaType, head, headLength, index);
  }

  /**
   * Removes the whitespace of MIME-wrapped base64 (line breaks every 76 characters, spaces), so
   * that the result is wire base64. Nothing else is changed or checked.
   */
  public static String normalizeBase64(String base64) {
    StringBuilder sb = null;
    for (int i = 0; i < base64.length(); i++) {
      char c = base64.charAt(i);
      boolean space = c == '\r' || c == '\n' || c == ' ' || c == '\t';
      if (space && sb == null) {
        sb = new StringBuilder(base64.length());
        sb.append(base64, 0, i);
      } else if (!space && sb != null) {
        sb.append(c);
      }
    }
    return sb == null ? base64 : sb.toString();
  }
}
