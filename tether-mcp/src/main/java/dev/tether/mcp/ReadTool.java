package dev.tether.mcp;

import dev.tether.api.SessionKey;
import dev.tether.client.FramePage;
import dev.tether.client.TetherClient;
import dev.tether.llm.McpContent;
import dev.tether.llm.McpReadResult;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.Content;
import io.modelcontextprotocol.spec.McpSchema.ImageContent;
import io.modelcontextprotocol.spec.McpSchema.TextContent;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * {@code tether_read}: reads a session's egress through the {@link TetherClient} with the
 * {@link EgressReadLoop} (long-polling without holding a thread) and turns it into MCP content with the adapters module's
 * {@link McpReadResult}: the JSON text with {@code _mcp_index} stubs (and {@code gap} /
 * {@code oldest_seq} when the store reports evicted frames), then one image item per image. Images
 * stored as blob refs arrive inline when the client can read their blobs (see the client's
 * Javadoc); the result is built on the thread that completes the poll. Thread-safe.
 */
final class ReadTool {
  static final String NAME = "tether_read";
  private static final Set<String> ARGS =
      Set.of("instance", "session_id", "after_seq", "limit", "wait_ms", "types", "reply_to_msg_id");

  private final TetherClient client;

  ReadTool(TetherClient client) {
    this.client = Objects.requireNonNull(client, "client");
  }

  CompletableFuture<CallToolResult> call(Map<String, Object> arguments) {
    Args args = Args.of(NAME, arguments, ARGS);
    String instance = args.requireNonBlank("instance");
    String sessionId = args.optString("session_id").orElse(SessionKey.DEFAULT_ID);
    if (sessionId.isEmpty()) {
      throw ToolError.invalidArguments(NAME + ": session_id must not be empty (leave it out for 'default')");
    }
    long afterSeq = args.optLong("after_seq", 0, Long.MAX_VALUE).orElse(0L);
    int limit = ReadRequest.clampLimit(args.optLong("limit", Long.MIN_VALUE, Long.MAX_VALUE)
        .orElse((long) ReadRequest.DEFAULT_LIMIT));
    long waitMs = ReadRequest.clampWaitMs(args.optLong("wait_ms", Long.MIN_VALUE, Long.MAX_VALUE).orElse(0L));
    List<String> types = args.optStringList("types").orElse(List.of());
    Optional<String> replyTo = args.optString("reply_to_msg_id");
    ReadRequest request = new ReadRequest(sessionId, afterSeq, limit, waitMs, types, replyTo);
    return EgressReadLoop.read(client, instance, request).thenApply(ReadTool::toResult);
  }

  static CallToolResult toResult(FramePage result) {
    List<McpContent> items = new McpReadResult(result.frames(), result.nextSeq(), result.timedOut(),
        result.gap(), result.oldestSeq()).toContent();
    List<Content> content = new ArrayList<>(items.size());
    for (McpContent item : items) {
      if (item instanceof McpContent.Text text) {
        content.add(TextContent.builder(text.text()).build());
      } else if (item instanceof McpContent.Image image) {
        content.add(ImageContent.builder(image.data(), image.mimeType()).build());
      }
    }
    return CallToolResult.builder().content(content).isError(false).build();
  }
}
