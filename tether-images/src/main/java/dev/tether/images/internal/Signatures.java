package dev.tether.images.internal;

import dev.tether.api.MediaType;
import java.util.Objects;

/**
 * The four image signatures, and nothing else: PNG, JPEG, GIF87a/89a and RIFF-WEBP. Used to
 * verify a declared media type and to pick a header parser, never to guess other formats.
 */
public final class Signatures {
  private static final byte[] PNG = {(byte) 0x89, 'P', 'N', 'G', 0x0D, 0x0A, 0x1A, 0x0A};

  private Signatures() {}

  /**
   * The type whose signature the window {@code bytes[offset, offset + length)} starts with, or
   * null. Reads at most the window's first 12 bytes (WebP needs all 12) and nothing outside it.
   *
   * @throws IndexOutOfBoundsException when the window is not inside {@code bytes}
   */
  public static MediaType detect(byte[] bytes, int offset, int length) {
    Objects.checkFromIndexSize(offset, length, bytes.length);
    if (startsWith(bytes, offset, length, PNG)) {
      return MediaType.PNG;
    }
    if (length >= 3 && at(bytes, offset, 0) == 0xFF && at(bytes, offset, 1) == 0xD8
        && at(bytes, offset, 2) == 0xFF) {
      return MediaType.JPEG;
    }
    if (length >= 6 && at(bytes, offset, 0) == 'G' && at(bytes, offset, 1) == 'I'
        && at(bytes, offset, 2) == 'F' && at(bytes, offset, 3) == '8'
        && (at(bytes, offset, 4) == '7' || at(bytes, offset, 4) == '9') && at(bytes, offset, 5) == 'a') {
      return MediaType.GIF;
    }
    if (length >= 12 && at(bytes, offset, 0) == 'R' && at(bytes, offset, 1) == 'I'
        && at(bytes, offset, 2) == 'F' && at(bytes, offset, 3) == 'F'
        && at(bytes, offset, 8) == 'W' && at(bytes, offset, 9) == 'E'
        && at(bytes, offset, 10) == 'B' && at(bytes, offset, 11) == 'P') {
      return MediaType.WEBP;
    }
    return null;
  }

  private static int at(byte[] bytes, int offset, int index) {
    return bytes[offset + index] & 0xff;
  }

  private static boolean startsWith(byte[] bytes, int offset, int length, byte[] signature) {
    if (length < signature.length) {
      return false;
    }
    for (int i = 0; i < signature.length; i++) {
      if (bytes[offset + i] != signature[i]) {
        return false;
      }
    }
    return true;
  }
}
