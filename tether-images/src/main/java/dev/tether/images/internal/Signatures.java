package dev.tether.images.internal;

import dev.tether.api.MediaType;

/**
 * The four image signatures, and nothing else: PNG, JPEG, GIF87a/89a and RIFF-WEBP. Used to
 * verify a declared media type, never to guess one.
 */
public final class Signatures {
  private static final byte[] PNG = {(byte) 0x89, 'P', 'N', 'G', 0x0D, 0x0A, 0x1A, 0x0A};

  private Signatures() {}

  /** The type whose signature {@code head[0, length)} starts with, or null. Needs 12 bytes for WebP. */
  public static MediaType detect(byte[] head, int length) {
    if (startsWith(head, length, PNG)) {
      return MediaType.PNG;
    }
    if (length >= 3 && (head[0] & 0xff) == 0xFF && (head[1] & 0xff) == 0xD8 && (head[2] & 0xff) == 0xFF) {
      return MediaType.JPEG;
    }
    if (length >= 6 && head[0] == 'G' && head[1] == 'I' && head[2] == 'F' && head[3] == '8'
        && (head[4] == '7' || head[4] == '9') && head[5] == 'a') {
      return MediaType.GIF;
    }
    if (length >= 12 && head[0] == 'R' && head[1] == 'I' && head[2] == 'F' && head[3] == 'F'
        && head[8] == 'W' && head[9] == 'E' && head[10] == 'B' && head[11] == 'P') {
      return MediaType.WEBP;
    }
    return null;
  }

  private static boolean startsWith(byte[] head, int length, byte[] signature) {
    if (length < signature.length) {
      return false;
    }
    for (int i = 0; i < signature.length; i++) {
      if (head[i] != signature[i]) {
        return false;
      }
    }
    return true;
  }
}
