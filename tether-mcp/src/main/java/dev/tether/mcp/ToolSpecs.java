package dev.tether.mcp;

import dev.tether.api.ErrorCode;
import dev.tether.api.TetherException;
import io.modelcontextprotocol.server.McpAsyncServerExchange;
import io.modelcontextprotocol.server.McpServerFeatures.AsyncToolSpecification;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import io.modelcontextprotocol.spec.McpSchema.ToolAnnotations;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * Turns our asynchronous tool bodies into SDK tool specifications.
 *
 * <p>Every body returns a {@link CompletableFuture}; the SDK gets a {@link Mono} over it, so a
 * long-poll holds no thread and the server's other requests proceed (the stdio transport hands
 * each request to the session with {@code flatMap}, concurrently). Results are published on
 * Reactor's parallel scheduler, so turning frames into content never runs on the thread that
 * completed the future (often a store appender). Cancelling the request cancels the future.
 *
 * <p>Any failure, thrown or in the future, becomes a tool result with {@code isError: true} and
 * a code; nothing becomes a JSON-RPC error, so the model always gets something it can act on.
 */
final class ToolSpecs {
  private static final System.Logger LOG = System.getLogger(ToolSpecs.class.getName());

  private ToolSpecs() {}

  /** The tool described by the resource {@code tools/<name>.json}. */
  static Tool definition(String name) {
    return definition("tools/" + name + ".json", name);
  }

  /** The tool {@code name} described by the resource {@code path} (a variant of a tool, say). */
  @SuppressWarnings("unchecked")
  static Tool definition(String path, String name) {
    Map<String, Object> json = McpJson.resource(path);
    if (!name.equals(json.get("name"))) {
      throw new IllegalStateException(path + " names the tool " + json.get("name"));
    }
    Tool.Builder tool = Tool.builder(name, (Map<String, Object>) json.get("inputSchema"))
        .title((String) json.get("title"))
        .description((String) json.get("description"));
    Object annotations = json.get("annotations");
    if (annotations != null) {
      tool.annotations(McpJson.MAPPER.convertValue(annotations, ToolAnnotations.class));
    }
    return tool.build();
  }

  static AsyncToolSpecification spec(Tool tool, Function<Map<String, Object>, CompletableFuture<CallToolResult>> body) {
    return AsyncToolSpecification.builder()
        .tool(tool)
        .callHandler((exchange, request) -> Mono.fromFuture(() -> start(body,
                InstanceScope.apply(tool, InstanceScope.of(exchange), request.arguments())))
            .publishOn(Schedulers.parallel())
            .onErrorResume(e -> Mono.just(ToolResults.error(classify(tool.name(), e)))))
        .build();
  }

  /** A tool body that needs the call's exchange and progress token (to send progress notifications). */
  @FunctionalInterface
  interface ExchangeBody {
    CompletableFuture<CallToolResult> call(McpAsyncServerExchange exchange, Object progressToken, Map<String, Object> arguments);
  }

  /** As {@link #spec(Tool, Function)}, for a body that reports progress. */
  static AsyncToolSpecification spec(Tool tool, ExchangeBody body) {
    return AsyncToolSpecification.builder()
        .tool(tool)
        .callHandler((exchange, request) -> Mono.fromFuture(() -> start(
                args -> body.call(exchange, request.meta() == null ? null : request.meta().get("progressToken"), args),
                InstanceScope.apply(tool, InstanceScope.of(exchange), request.arguments())))
            .publishOn(Schedulers.parallel())
            .onErrorResume(e -> Mono.just(ToolResults.error(classify(tool.name(), e)))))
        .build();
  }

  private static CompletableFuture<CallToolResult> start(
      Function<Map<String, Object>, CompletableFuture<CallToolResult>> body, Map<String, Object> arguments) {
    try {
      return body.apply(arguments);
    } catch (RuntimeException e) {
      return CompletableFuture.failedFuture(e);
    }
  }

  static ToolError classify(String tool, Throwable failure) {
    Throwable e = failure;
    while ((e instanceof CompletionException || e instanceof ExecutionException) && e.getCause() != null) {
      e = e.getCause();
    }
    if (e instanceof ToolError error) {
      return error;
    }
    if (e instanceof TetherException tether) {
      if (tether.code() == ErrorCode.INSTANCE_NOT_FOUND) {
        return ToolError.of(ErrorCode.INSTANCE_NOT_FOUND,
            tether.getMessage() + "; check the instance handle or ID (the host's instance list shows them)", tether);
      }
      return ToolError.from(tether);
    }
    if (e instanceof IOException || e instanceof UncheckedIOException || e instanceof TimeoutException) {
      LOG.log(System.Logger.Level.WARNING, tool + ": host unavailable", e);
      return ToolError.of(ErrorCode.UNAVAILABLE, tool + " could not reach the tether host: " + e.getMessage()
          + "; try again shortly", e);
    }
    LOG.log(System.Logger.Level.ERROR, tool + " failed", e);
    return ToolError.of(ErrorCode.INTERNAL, tool + " failed: " + e, e);
  }
}
