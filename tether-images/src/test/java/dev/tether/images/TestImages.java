package dev.tether.images;

import java.util.Arrays;

/** Image bytes that carry a real signature: enough for the signature check, which is all tether verifies. */
final class TestImages {
  private TestImages() {}

  static byte[] png(int size) {
    byte[] b = filled(size);
    byte[] sig = {(byte) 0x89, 'P', 'N', 'G', 0x0D, 0x0A, 0x1A, 0x0A};
    System.arraycopy(sig, 0, b, 0, sig.length);
    return b;
  }

  static byte[] jpeg(int size) {
    byte[] b = filled(size);
    b[0] = (byte) 0xFF;
    b[1] = (byte) 0xD8;
    b[2] = (byte) 0xFF;
    return b;
  }

  private static byte[] filled(int size) {
    if (size < 12) {
      throw new IllegalArgumentException("size must be >= 12 but was " + size);
    }
    byte[] b = new byte[size];
    Arrays.fill(b, (byte) 0x42);
    return b;
  }
}
