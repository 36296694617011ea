package dev.tether.cli;

import dev.tether.mcp.McpHttpEndpoint;
import dev.tether.mcp.TetherMcpServer;
import dev.tether.server.TetherServer;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import picocli.CommandLine.Option;

/**
 * {@code tether serve --mcp}: the MCP tools over Streamable HTTP at {@code /mcp} on the daemon's
 * own listener (socket or TCP), behind its token rules, through {@link TetherServer.Builder#mount}.
 */
final class McpServeOptions {
  @Option(names = "--mcp",
      description = {"Also serve MCP (Streamable HTTP) at /mcp on this server's listener: tether_send and tether_read"
          + " for agents that connect over HTTP. Same token rules as the API: the host token (or the socket) reaches"
          + " every instance, an instance token its own only. Cross-origin browser requests are refused."})
  boolean mcp;

  @Option(names = "--mcp-allow-origin", paramLabel = "ORIGIN",
      description = "A browser origin (e.g. http://localhost:5173) whose pages may call /mcp (repeatable). Default: none.")
  List<String> allowedOrigins = new ArrayList<>();

  private final List<McpHttpEndpoint> endpoints = new CopyOnWriteArrayList<>();

  /** Mounts the endpoint on {@code builder} when {@code --mcp} was given. */
  void mount(TetherServer.Builder builder) throws IOException {
    if (!mcp) {
      if (!allowedOrigins.isEmpty()) {
        throw new UsageException("--mcp-allow-origin needs --mcp");
      }
      return;
    }
    for (String origin : allowedOrigins) {
      if (!origin.matches("https?://[^/\\s]+")) {
        throw new UsageException("--mcp-allow-origin needs an origin like http://localhost:5173 but was '" + origin + "'");
      }
    }
    String version = Main.Version.projectVersion();
    builder.mount(McpHttpEndpoint.DEFAULT_PATH, client -> {
      TetherMcpServer tools = TetherMcpServer.builder(client).version(version).build();
      McpHttpEndpoint endpoint = McpHttpEndpoint.builder(tools).scopeAttribute(TetherServer.INSTANCE_SCOPE_ATTRIBUTE)
          .allowedOrigins(allowedOrigins).build();
      endpoints.add(endpoint);
      return endpoint.handler();
    });
  }

  /** Ends the MCP sessions (before the server stops, so their streams do not hold its shutdown). */
  void close() {
    endpoints.forEach(McpHttpEndpoint::close);
  }
}
