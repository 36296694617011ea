package dev.tether.cli;

import dev.tether.client.TetherClient;
import dev.tether.llm.McpContent;
import dev.tether.llm.McpReadResult;
import dev.tether.mcp.TetherMcpServer;
import io.modelcontextprotocol.server.McpServerFeatures.AsyncToolSpecification;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.ImageContent;
import io.modelcontextprotocol.spec.McpSchema.TextContent;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * Calls {@code tether_read} of the MCP tools over a {@link TetherClient} the way the SDK server
 * does (its tool handler), and parses the result back with {@link McpReadResult#fromContent}: the
 * read a model sees, without a child process.
 */
final class McpReads {
  private McpReads() {}

  /** The raw tool result; a tool error is a result with {@code isError}. */
  static CompletableFuture<CallToolResult> call(TetherClient client, Map<String, Object> arguments) {
    AsyncToolSpecification read = TetherMcpServer.builder(client).build().tools().stream()
        .filter(t -> t.tool().name().equals("tether_read")).findFirst().orElseThrow();
    return read.callHandler().apply(null, CallToolRequest.builder("tether_read").arguments(arguments).build()).toFuture();
  }

  /** The content of {@code result} as the adapters module models it. */
  static List<McpContent> content(CallToolResult result) {
    List<McpContent> content = new ArrayList<>();
    for (var item : result.content()) {
      if (item instanceof TextContent text) {
        content.add(new McpContent.Text(text.text()));
      } else if (item instanceof ImageContent image) {
        content.add(new McpContent.Image(image.data(), image.mimeType()));
      }
    }
    return content;
  }

  /** A successful result parsed back into frames and cursor; fails on a tool error. */
  static McpReadResult parsed(CallToolResult result) {
    if (Boolean.TRUE.equals(result.isError())) {
      throw new AssertionError("tether_read failed: " + content(result));
    }
    return McpReadResult.fromContent(content(result));
  }
}
