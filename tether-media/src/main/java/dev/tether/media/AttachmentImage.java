package dev.tether.media;

import dev.tether.api.Image;
import java.util.Objects;

/**
 * An image attachment with its validated image, ready to put in front of a vision model.
 * Immutable.
 */
public record AttachmentImage(Attachment attachment, Image image) {
  public AttachmentImage {
    Objects.requireNonNull(attachment, "attachment");
    Objects.requireNonNull(image, "image");
  }
}
