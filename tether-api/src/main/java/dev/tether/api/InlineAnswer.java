package dev.tether.api;

import java.util.List;
import java.util.Objects;

/**
 * An answer's payload ({@code assistant.done} or {@code assistant.message}) as {@link
 * Frame#payloadView()} reads it, with each image's base64 left in the payload's bytes: for a
 * consumer that decodes the images (a chat bridge sending photos), which then never holds a String
 * copy of megabytes of base64.
 *
 * @param text the answer's text
 * @param images its inline images, in order
 */
public record InlineAnswer(String text, List<InlineImage> images) {
  public InlineAnswer {
    Objects.requireNonNull(text, "text");
    images = List.copyOf(images);
  }

  /**
   * Reads an {@code assistant.done} or {@code assistant.message} frame's payload by the rules and
   * with the errors of {@link Frame#payloadView()}.
   *
   * @throws TetherException where {@code payloadView()} throws
   * @throws IllegalArgumentException for a frame of another type
   */
  public static InlineAnswer read(Frame frame) {
    return PayloadJson.readAnswer(frame.type(), frame.payload());
  }
}
