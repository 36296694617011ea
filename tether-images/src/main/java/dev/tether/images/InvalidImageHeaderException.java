package dev.tether.images;

/**
 * Thrown by {@link ImageHeaders#dimensions(byte[], int, int)} when the bytes are not a PNG, JPEG, GIF
 * or WebP header, or when the header is truncated or contradicts itself. The message is a sentence
 * that names the format and says what is wrong.
 */
public final class InvalidImageHeaderException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;

  public InvalidImageHeaderException(String message) {
    super(message);
  }
}
