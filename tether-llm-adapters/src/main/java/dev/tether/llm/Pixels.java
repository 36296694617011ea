package dev.tether.llm;

import dev.tether.api.Part;

/** Pixel dimensions from an image's headers, without decoding it. */
final class Pixels {
  record Size(int width, int height) {}

  private Pixels() {}

  /** The image's size, or null when it cannot be read from its headers. */
  static Size of(Part.Image image, int index, ProviderProfile profile) {
    return null; // until dev.tether.images.ImageHeaders is merged
  }
}
