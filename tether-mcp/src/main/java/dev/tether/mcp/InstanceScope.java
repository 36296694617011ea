package dev.tether.mcp;

import dev.tether.api.ErrorCode;
import io.modelcontextprotocol.common.McpTransportContext;
import io.modelcontextprotocol.server.McpAsyncServerExchange;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import java.util.HashMap;
import java.util.Map;

/**
 * The instance an HTTP caller's token opens, applied to a tool call's arguments: the same rule as
 * the host's HTTP API, where an instance token reaches its own instance only.
 *
 * <p>The scope travels in the SDK's {@link McpTransportContext} under {@link #KEY}, put there per
 * HTTP request by {@link McpHttpEndpoint} (so a session used with another token is judged by the
 * token of each request, never the one that opened it). No key: the caller may name any instance
 * (the host token, the Unix socket, stdio). With a scope, a tool that takes {@code instance} gets
 * the scope when the call names none and {@code PERMISSION_DENIED} when it names another; a tool
 * that takes no {@code instance} is refused, since it cannot be held to one. Stateless.
 */
final class InstanceScope {
  /** The transport-context key of the scope (a String instance id). */
  static final String KEY = "dev.tether.mcp.instanceScope";

  private InstanceScope() {}

  /** The scope of a call on {@code exchange} (null: a direct call), or null when the caller may name any instance. */
  static String of(McpAsyncServerExchange exchange) {
    McpTransportContext context = exchange == null ? null : exchange.transportContext();
    return context == null ? null : context.get(KEY) instanceof String s ? s : null;
  }

  /**
   * The arguments {@code tool} runs with under {@code scope} (null: unchanged).
   *
   * @throws ToolError PERMISSION_DENIED when the call reaches past the scope
   */
  static Map<String, Object> apply(Tool tool, String scope, Map<String, Object> arguments) {
    if (scope == null) {
      return arguments;
    }
    if (!takesInstance(tool)) {
      throw ToolError.of(ErrorCode.PERMISSION_DENIED, tool.name() + " is not bound to one instance, and this token"
          + " opens only instance '" + scope + "'; call it with the host token");
    }
    Object named = arguments == null ? null : arguments.get("instance");
    if (named == null) {
      Map<String, Object> scoped = arguments == null ? new HashMap<>() : new HashMap<>(arguments);
      scoped.put("instance", scope);
      return scoped;
    }
    if (!scope.equals(named)) {
      throw ToolError.of(ErrorCode.PERMISSION_DENIED, "this token opens only instance '" + scope + "', not "
          + Args.describe(named));
    }
    return arguments;
  }

  private static boolean takesInstance(Tool tool) {
    Map<String, Object> schema = tool.inputSchema();
    return schema != null && schema.get("properties") instanceof Map<?, ?> props && props.containsKey("instance");
  }
}
