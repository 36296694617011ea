package dev.tether.api;

import java.util.List;
import java.util.Objects;

/**
 * One piece of a conversation turn: the provider-neutral model that sessions produce and the LLM
 * adapters consume. A closed set; dispatch over it exhaustively.
 */
public sealed interface Part permits Part.Text, Part.Image, Part.ToolUse, Part.ToolResult {

  /** Plain text. */
  record Text(String text) implements Part {
    public Text {
      Objects.requireNonNull(text, "text");
    }
  }

  /** An image with its bytes. */
  record Image(MediaType mediaType, ImageData data) implements Part {
    public Image {
      Objects.requireNonNull(mediaType, "mediaType");
      Objects.requireNonNull(data, "data");
    }

    /** The part for a wire image; its base64 is kept as is. */
    public static Image of(dev.tether.api.Image image) {
      return new Image(image.mediaType(), ImageData.of(image));
    }
  }

  /**
   * The assistant asks for a tool to run.
   *
   * @param id the provider's tool-use id, echoed by the matching {@link ToolResult}
   * @param name the tool's name
   * @param input the tool's arguments, a JSON object
   */
  record ToolUse(String id, String name, RawJson input) implements Part {
    public ToolUse {
      Objects.requireNonNull(id, "id");
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(input, "input");
    }
  }

  /**
   * The result of a tool run, which may include images (a screenshot, a chart).
   *
   * @param toolUseId the {@link ToolUse#id()} this answers
   * @param content text and image parts only
   * @param isError whether the tool failed
   */
  record ToolResult(String toolUseId, List<Part> content, boolean isError) implements Part {
    public ToolResult {
      Objects.requireNonNull(toolUseId, "toolUseId");
      content = List.copyOf(content);
      for (Part part : content) {
        if (!(part instanceof Text) && !(part instanceof Image)) {
          throw new IllegalArgumentException("a tool result holds text and images only, not " + part);
        }
      }
    }
  }
}
