package dev.tether.api;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * What an agent sends to a model: a system prompt and the turns, oldest first. Immutable.
 *
 * @param systemPrompt may be empty, never null
 * @param turns oldest first
 */
public record Conversation(String systemPrompt, List<Turn> turns) {
  public Conversation {
    Objects.requireNonNull(systemPrompt, "systemPrompt");
    turns = List.copyOf(turns);
  }

  /** All image parts, in order, including those inside tool results. */
  public List<Part.Image> images() {
    List<Part.Image> images = new ArrayList<>();
    for (Turn turn : turns) {
      for (Part part : turn.parts()) {
        if (part instanceof Part.Image image) {
          images.add(image);
        } else if (part instanceof Part.ToolResult result) {
          for (Part inner : result.content()) {
            if (inner instanceof Part.Image image) {
              images.add(image);
            }
          }
        }
      }
    }
    return images;
  }
}
