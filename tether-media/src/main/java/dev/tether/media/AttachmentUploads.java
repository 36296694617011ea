package dev.tether.media;

import dev.tether.api.TetherException;
import dev.tether.api.ErrorCode;
import dev.tether.images.Images;
import dev.tether.media.internal.MediaText;
import java.util.Base64;
import java.util.Locale;

/**
 * Checks and decodes an {@link AttachmentUpload}: the declared MIME type (syntax only, kept
 * verbatim; missing means {@code application/octet-stream}) and the base64 content, whose size
 * is checked against the limit from its length before anything is decoded. A
 * {@code data:...;base64,} prefix and line-wrapped base64 are tolerated. Stateless and thread-safe.
 */
final class AttachmentUploads {
  static final String DEFAULT_MIME = "application/octet-stream";

  private AttachmentUploads() {}

  /** The MIME type to record: the client's, verbatim, or the default when it sent none. */
  static String mimeType(AttachmentUpload upload) {
    String mimeType = upload.mimeType() == null || upload.mimeType().isBlank() ? DEFAULT_MIME : upload.mimeType();
    if (!MediaText.isMimeType(mimeType)) {
      throw invalid("mimeType '" + MediaText.excerpt(mimeType) + "' is not a MIME type like text/plain");
    }
    return mimeType;
  }

  /** The decoded content, at most {@code maxBytes} long. */
  static byte[] decode(AttachmentUpload upload, long maxBytes) {
    String data = upload.contentBase64();
    if (data.regionMatches(true, 0, "data:", 0, 5)) {
      int comma = data.indexOf(',');
      if (comma < 0 || !data.substring(0, comma).toLowerCase(Locale.ROOT).endsWith(";base64")) {
        throw invalid("contentBase64 starts with a data: URI that is not base64");
      }
      data = data.substring(comma + 1);
    }
    data = Images.normalizeBase64(data);
    long atLeast = (long) data.length() / 4 * 3 - 2;
    if (atLeast > maxBytes) {
      throw tooLarge(atLeast, maxBytes);
    }
    byte[] bytes;
    try {
      bytes = Base64.getDecoder().decode(data);
    } catch (IllegalArgumentException e) {
      throw invalid("contentBase64 is not valid base64: " + e.getMessage());
    }
    if (bytes.length > maxBytes) {
      throw tooLarge(bytes.length, maxBytes);
    }
    return bytes;
  }

  private static TetherException tooLarge(long bytes, long maxBytes) {
    return TetherException.of(ErrorCode.UPLOAD_TOO_LARGE, "the upload is " + bytes
        + " bytes or more; the limit is " + maxBytes + " bytes");
  }

  private static TetherException invalid(String message) {
    return TetherException.of(ErrorCode.INVALID_UPLOAD, message);
  }
}
