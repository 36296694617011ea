package dev.tether.langchain4j;

import dev.tether.api.MediaType;
import dev.tether.images.ImageHeaders;

/** An image's type from its first bytes (its signature), never from what it was declared as. */
final class ImageTypes {
  private ImageTypes() {}

  /** @throws IllegalArgumentException when the bytes are not a PNG, JPEG, GIF or WebP image */
  static MediaType sniff(byte[] bytes, int messageIndex) {
    return ImageHeaders.signature(bytes, 0, Math.min(bytes.length, 16)).orElseThrow(() -> new IllegalArgumentException(
        "message " + messageIndex + ": an image's bytes are not a PNG, JPEG, GIF or WebP image"));
  }
}
