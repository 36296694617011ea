package dev.tether.images;

/**
 * A bounds-checked, read-only view of {@code length} bytes starting at {@code offset}. Positions are
 * relative to the view. Every read past the view throws {@link InvalidImageHeaderException} naming
 * {@code format}, so the parsers never see an {@link ArrayIndexOutOfBoundsException}.
 */
final class HeaderBytes {
  private final byte[] bytes;
  private final int offset;
  private final int length;
  private final String format;

  HeaderBytes(byte[] bytes, int offset, int length, String format) {
    this.bytes = bytes;
    this.offset = offset;
    this.length = length;
    this.format = format;
  }

  /** Throws unless {@code count} bytes are available at {@code pos}. Both arguments are non-negative. */
  void require(int pos, int count) {
    if (count > length - pos) {
      throw new InvalidImageHeaderException(format + " header is truncated: it needs at least "
          + ((long) pos + count) + " bytes but only " + length + " are available.");
    }
  }

  int u8(int pos) {
    require(pos, 1);
    return bytes[offset + pos] & 0xFF;
  }

  int u16be(int pos) {
    require(pos, 2);
    return (u8(pos) << 8) | u8(pos + 1);
  }

  int u16le(int pos) {
    require(pos, 2);
    return u8(pos) | (u8(pos + 1) << 8);
  }

  int u24le(int pos) {
    require(pos, 3);
    return u16le(pos) | (u8(pos + 2) << 16);
  }

  long u32be(int pos) {
    require(pos, 4);
    return ((long) u16be(pos) << 16) | u16be(pos + 2);
  }

  long u32le(int pos) {
    require(pos, 4);
    return u16le(pos) | ((long) u16le(pos + 2) << 16);
  }

  /** Whether the view holds {@code expected} at {@code pos}; false (not an exception) when too short. */
  boolean matches(int pos, byte[] expected) {
    if (expected.length > length - pos) {
      return false;
    }
    for (int i = 0; i < expected.length; i++) {
      if (bytes[offset + pos + i] != expected[i]) {
        return false;
      }
    }
    return true;
  }

  /** Four bytes as printable text for messages, with anything outside ASCII 0x20-0x7e shown as '?'. */
  String fourCc(int pos) {
    StringBuilder text = new StringBuilder(4);
    for (int i = 0; i < 4; i++) {
      int c = u8(pos + i);
      text.append(c >= 0x20 && c < 0x7F ? (char) c : '?');
    }
    return text.toString();
  }

  InvalidImageHeaderException invalid(String problem) {
    return new InvalidImageHeaderException("Invalid " + format + " header: " + problem + ".");
  }

  /** The dimensions, or an exception when either is zero or does not fit an {@code int}. */
  ImageHeaders.Dimensions dimensions(long width, long height) {
    if (width <= 0 || height <= 0 || width > Integer.MAX_VALUE || height > Integer.MAX_VALUE) {
      throw invalid("width " + width + " and height " + height
          + " must both be between 1 and " + Integer.MAX_VALUE);
    }
    return new ImageHeaders.Dimensions((int) width, (int) height);
  }
}
