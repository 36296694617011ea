package dev.tether.mcp;

import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.TextContent;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Builds tool results: JSON text for success, a coded JSON error with {@code isError: true}. */
final class ToolResults {
  private ToolResults() {}

  /** A successful result whose single text item is {@code value} as JSON. */
  static CallToolResult json(Object value) {
    return CallToolResult.builder()
        .content(List.of(TextContent.builder(McpJson.write(value)).build()))
        .isError(false)
        .build();
  }

  /**
   * {@code {"error":{"code":...,"message":...,"image_index":...}}} as text, with
   * {@code isError: true}: the model reads the sentence, a program switches on the code.
   */
  static CallToolResult error(ToolError error) {
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("code", error.code());
    body.put("message", error.getMessage());
    error.imageIndex().ifPresent(i -> body.put("image_index", i));
    return CallToolResult.builder()
        .content(List.of(TextContent.builder(McpJson.write(Map.of("error", body))).build()))
        .isError(true)
        .build();
  }
}
