package dev.tether.sessions;

import dev.tether.api.blobs.BlobKey;
import dev.tether.api.MediaType;
import dev.tether.api.RawJson;
import java.util.List;
import java.util.Objects;

/**
 * One piece of a stored turn. Mirrors {@link dev.tether.api.Part} except that an image is a
 * reference to a blob, never its bytes, so that a session file stays small. A closed set;
 * immutable.
 */
public sealed interface SessionPart
    permits SessionPart.Text, SessionPart.ImageRef, SessionPart.ToolUse, SessionPart.ToolResult {

  /** Plain text. */
  record Text(String text) implements SessionPart {
    public Text {
      Objects.requireNonNull(text, "text");
    }
  }

  /**
   * An image kept in the blob store.
   *
   * @param key the blob, which also names the media type
   * @param size the image's size in bytes
   */
  record ImageRef(BlobKey key, long size) implements SessionPart {
    public ImageRef {
      Objects.requireNonNull(key, "key");
      if (size < 0) {
        throw new IllegalArgumentException("size must be >= 0 but was " + size);
      }
    }

    public MediaType mediaType() {
      return key.mediaType();
    }
  }

  /** The assistant asks for a tool to run; see {@link dev.tether.api.Part.ToolUse}. */
  record ToolUse(String id, String name, RawJson input) implements SessionPart {
    public ToolUse {
      Objects.requireNonNull(id, "id");
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(input, "input");
    }
  }

  /**
   * The result of a tool run, answering the {@link ToolUse} with the same id.
   *
   * @param content {@link Text} and {@link ImageRef} parts only
   */
  record ToolResult(String toolUseId, List<SessionPart> content, boolean isError) implements SessionPart {
    public ToolResult {
      Objects.requireNonNull(toolUseId, "toolUseId");
      content = List.copyOf(content);
      for (SessionPart part : content) {
        if (!(part instanceof Text) && !(part instanceof ImageRef)) {
          throw new IllegalArgumentException("a tool result holds text and image refs only, not " + part);
        }
      }
    }
  }
}
