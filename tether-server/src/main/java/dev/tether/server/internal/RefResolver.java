package dev.tether.server.internal;

import dev.tether.api.Frame;
import dev.tether.api.ImageRefs;
import dev.tether.api.TetherException;
import java.io.IOException;

/** Turns blob refs into inline images for readers that want the bytes in the frame. Stateless. */
final class RefResolver {
  private RefResolver() {}

  /**
   * {@code frame} with its refs inline, or as stored when it has none, the instance is unknown, or
   * a blob cannot be read (gone since, say): a stream reader then sees the ref it can fetch itself.
   */
  static Frame inlineOrAsStored(Frame frame, InstanceRegistry.Entry instance, Blobs blobs) {
    if (instance == null) {
      return frame;
    }
    try {
      return ImageRefs.inline(frame, ref -> blobs.read(instance, ref));
    } catch (TetherException | IOException e) {
      return frame;
    }
  }
}
