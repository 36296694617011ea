package dev.tether.sessions;

import java.util.Random;

/** Byte arrays that pass the signature check: a real PNG signature followed by seeded noise. */
final class SeededImages {
  private static final byte[] PNG = {(byte) 0x89, 'P', 'N', 'G', 0x0D, 0x0A, 0x1A, 0x0A};

  private SeededImages() {}

  static byte[] png(int size, long seed) {
    if (size < PNG.length) {
      throw new IllegalArgumentException("size must be >= 8 but was " + size);
    }
    byte[] bytes = new byte[size];
    new Random(seed).nextBytes(bytes);
    System.arraycopy(PNG, 0, bytes, 0, PNG.length);
    return bytes;
  }

  static byte[] jpeg(int size, long seed) {
    byte[] bytes = new byte[size];
    new Random(seed).nextBytes(bytes);
    bytes[0] = (byte) 0xFF;
    bytes[1] = (byte) 0xD8;
    bytes[2] = (byte) 0xFF;
    return bytes;
  }
}
