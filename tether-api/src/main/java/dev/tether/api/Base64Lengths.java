package dev.tether.api;

/** Arithmetic on base64 lengths, so that sizes are known without decoding. */
public final class Base64Lengths {
  private Base64Lengths() {}

  /**
   * The number of bytes that {@code encodedLength} base64 characters decode to, where
   * {@code padding} of them (0, 1 or 2) are trailing {@code '='}. The caller has already checked
   * that the text is well-formed.
   */
  public static long decodedLength(long encodedLength, int padding) {
    long symbols = encodedLength - padding;
    return symbols / 4 * 3 + Math.max(0, symbols % 4 - 1);
  }

  /** The decoded size of well-formed base64 text, padded or not. */
  public static long decodedLength(CharSequence base64) {
    int length = base64.length();
    int padding = 0;
    while (padding < 2 && length - padding > 0 && base64.charAt(length - padding - 1) == '=') {
      padding++;
    }
    return decodedLength(length, padding);
  }

  /** The padded base64 length of {@code decodedLength} bytes. */
  public static long encodedLength(long decodedLength) {
    return (decodedLength + 2) / 3 * 4;
  }
}
