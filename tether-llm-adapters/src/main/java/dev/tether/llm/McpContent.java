package dev.tether.llm;

import java.util.Objects;

/**
 * One item of an MCP tool result's {@code content}: the two kinds {@code tether_read} uses.
 * Small stand-ins for the MCP SDK's types, which the MCP module maps to one for one.
 */
public sealed interface McpContent permits McpContent.Text, McpContent.Image {

  /** {@code {"type":"text","text":...}}. */
  record Text(String text) implements McpContent {
    public Text {
      Objects.requireNonNull(text, "text");
    }
  }

  /**
   * {@code {"type":"image","data":...,"mimeType":...}}.
   *
   * @param data standard base64, no {@code data:} prefix
   * @param mimeType for example {@code image/png}
   */
  record Image(String data, String mimeType) implements McpContent {
    public Image {
      Objects.requireNonNull(data, "data");
      Objects.requireNonNull(mimeType, "mimeType");
    }

    @Override
    public String toString() {
      return "Image[" + mimeType + ", " + data.length() + " base64 chars]";
    }
  }
}
