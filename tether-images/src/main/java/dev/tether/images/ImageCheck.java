package dev.tether.images;

import dev.tether.api.ErrorCode;
import dev.tether.api.Image;
import dev.tether.api.Limits;
import dev.tether.api.MediaType;
import dev.tether.api.TetherException;
import dev.tether.api.internal.AsciiChars;
import dev.tether.images.internal.Base64Check;
import dev.tether.images.internal.Signatures;

/** The per-image rules, shared by frame validation and the producer helpers. */
final class ImageCheck {
  private static final int CHUNK = 4096;

  private ImageCheck() {}

  /** Checks one typed image and returns its decoded size. */
  static long check(Image image, int index, Limits limits) {
    String data = image.data();
    if (data.startsWith("data:")) {
      throw dataUri(index);
    }
    Base64Check check = new Base64Check();
    byte[] chunk = new byte[Math.min(CHUNK, Math.max(1, data.length()))];
    char[] scratch = new char[chunk.length];
    for (int from = 0; from < data.length(); from += chunk.length) {
      int n = Math.min(chunk.length, data.length() - from);
      if (!AsciiChars.copy(data, from, from + n, scratch, chunk)) {
        for (int i = 0; i < n; i++) {
          char c = scratch[i];
          chunk[i] = c < 0x80 ? (byte) c : (byte) 0x80; // 0x80 is outside the alphabet
        }
      }
      int stop = check.feed(chunk, 0, n);
      if (stop < n) {
        throw invalidBase64(index, check.problemAt(chunk[stop] & 0xff, from + stop));
      }
    }
    return finish(check, image.mediaType(), index, limits);
  }

  /**
   * {@link #check(Image, int, Limits)} for base64 held as bytes {@code data[from, to)}, which must
   * be the Latin-1 form of the image's text: the same rules in the same order, the same errors,
   * without a copy.
   */
  static long check(MediaType mediaType, byte[] data, int from, int to, int index, Limits limits) {
    if (to - from >= 5 && data[from] == 'd' && data[from + 1] == 'a' && data[from + 2] == 't' && data[from + 3] == 'a'
        && data[from + 4] == ':') {
      throw dataUri(index);
    }
    Base64Check check = new Base64Check();
    int stop = check.feed(data, from, to);
    if (stop < to) {
      int c = data[stop] & 0xff;
      throw invalidBase64(index, check.problemAt(c < 0x80 ? c : 0x80, stop - from)); // as the text's chunks see it
    }
    return finish(check, mediaType, index, limits);
  }

  /** The rules after the last symbol, shared by the text and the bytes form: padding, size, signature. */
  private static long finish(Base64Check check, MediaType mediaType, int index, Limits limits) {
    String problem = check.problemAtEnd();
    if (problem != null) {
      throw invalidBase64(index, problem);
    }
    long size = check.decodedLength();
    requireImageSize(size, index, limits);
    byte[] head = new byte[12];
    requireSignature(mediaType, head, check.decodeHead(head), index);
    return size;
  }

  static MediaType mediaType(String declared, int index) {
    MediaType type = MediaType.parse(declared).orElse(null);
    if (type == null) {
      String message = "image " + index + ": media_type "
          + (declared == null ? "is missing" : "'" + declared + "' is not supported")
          + "; use one of image/png, image/jpeg, image/gif or image/webp";
      throw TetherException.forImage(ErrorCode.UNSUPPORTED_MEDIA_TYPE, index, message);
    }
    return type;
  }

  static void requireImageSize(long size, int index, Limits limits) {
    if (size > limits.maxImageBytes()) {
      throw TetherException.forImage(ErrorCode.IMAGE_TOO_LARGE, index,
          "image " + index + " is " + ByteSizes.binaryExact(size) + " decoded; the limit is "
              + ByteSizes.binaryExact(limits.maxImageBytes()) + " per image, so resize or recompress it");
    }
  }

  static void requireSignature(MediaType declared, byte[] head, int headLength, int index) {
    MediaType actual = Signatures.detect(head, 0, headLength);
    if (actual != declared) {
      throw TetherException.forImage(ErrorCode.MEDIA_TYPE_MISMATCH, index,
          "image " + index + " is declared as " + declared.mimeType() + " but its bytes "
              + (actual == null ? "are not a PNG, JPEG, GIF or WebP image" : "are " + actual.mimeType())
              + "; declare the type that matches the bytes");
    }
  }

  static TetherException dataUri(int index) {
    return TetherException.forImage(ErrorCode.DATA_URI_NOT_ALLOWED, index,
        "image " + index + ": data starts with a 'data:' URI prefix; send only the base64 after the comma"
            + " and put the type in media_type (Images.fromDataUri does this)");
  }

  private static TetherException invalidBase64(int index, String problem) {
    return TetherException.forImage(ErrorCode.INVALID_BASE64, index, "image " + index + ": " + problem);
  }
}
