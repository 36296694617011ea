package dev.tether.cli;

import dev.tether.client.AttachmentClient;
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
 * own listener (socket or TCP), behind its token rules, through {@link TetherServer.Builder#mount}:
 * the same tools as stdio {@code tether mcp}, attachments included (the daemon's in-process client
 * is an {@link AttachmentClient}); an instance token's calls are held to its instance and end when
 * it is revoked.
 */
final class McpServeOptions {
  /** The attachment tools' instance when a host-token call names none, as for {@code tether mcp}; an instance token's is its own. */
  static final String DEFAULT_INSTANCE = "default";

  @Option(names = "--mcp",
      description = {"Also serve MCP (Streamable HTTP) at /mcp on this server's listener, for agents that connect over"
          + " HTTP: the tools of tether mcp (tether_send, tether_read, tether_send_stream, and list_attachments,"
          + " read_attachment, grep_attachment, view_attachment; an attachment call that names no instance gets 'default')."
          + " Same token rules as the API: the host token (or the socket) reaches every instance, an instance token its"
          + " own only, and its streams end when it is revoked. Cross-origin browser requests are refused."})
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
      TetherMcpServer.Builder b = TetherMcpServer.builder(client).version(version);
      if (client instanceof AttachmentClient attachments) { // the daemon's in-process client is
        b.attachments(attachments).defaultInstance(DEFAULT_INSTANCE);
      }
      TetherMcpServer tools = b.build();
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
