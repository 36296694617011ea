package dev.tether.cli;

import dev.tether.api.Limits;
import dev.tether.mcp.TetherMcpServer;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.client.transport.StdioClientTransport;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.ImageContent;
import io.modelcontextprotocol.spec.McpSchema.TextContent;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

/**
 * {@code tether mcp ARGS} in a child JVM, driven by the official MCP Java SDK's client over the
 * child's stdio, as Claude Code or any MCP client runs it. Stderr lines are kept for diagnosis.
 */
final class McpSdkChild implements AutoCloseable {
  static final Duration TIMEOUT = Duration.ofSeconds(60);

  final McpSyncClient client;
  final List<String> stderr = Collections.synchronizedList(new ArrayList<>());

  private McpSdkChild(McpSyncClient client) {
    this.client = client;
  }

  /** Starts {@code tether mcp} with {@code args} (after {@code mcp}) and completes the MCP handshake. */
  static McpSdkChild start(Path home, String... args) {
    List<String> command = new ArrayList<>(List.of("-Xmx256m", "-Duser.home=" + home, "-cp", System.getProperty("java.class.path"),
        Main.class.getName(), "mcp"));
    command.addAll(List.of(args));
    ServerParameters params = ServerParameters.builder(Path.of(System.getProperty("java.home"), "bin", "java").toString())
        .args(command).env(Map.of("HOME", home.toString())).build();
    // Room for a tool result with a whole image (the SDK client's default line is 16 Mi characters).
    StdioClientTransport transport = new StdioClientTransport(params, TetherMcpServer.jsonMapper(), 3 * Limits.MAX_FRAME_BYTES);
    McpSyncClient client = McpClient.sync(transport).requestTimeout(TIMEOUT).initializationTimeout(TIMEOUT).build();
    McpSdkChild child = new McpSdkChild(client);
    transport.setStdErrorHandler(child.stderr::add);
    client.initialize();
    return child;
  }

  CallToolResult call(String tool, Map<String, Object> arguments) {
    return client.callTool(CallToolRequest.builder(tool).arguments(arguments).build());
  }

  /** The first content item's text. */
  static String text(CallToolResult result) {
    return ((TextContent) result.content().get(0)).text();
  }

  /** The bytes of the result's image content item. */
  static byte[] image(CallToolResult result) {
    for (var c : result.content()) {
      if (c instanceof ImageContent image) {
        return java.util.Base64.getDecoder().decode(image.data());
      }
    }
    throw new AssertionError("no image content in " + result);
  }

  /** The image content item's MIME type. */
  static String imageType(CallToolResult result) {
    return result.content().stream().filter(ImageContent.class::isInstance).map(c -> ((ImageContent) c).mimeType())
        .findFirst().orElseThrow();
  }

  @Override
  public void close() {
    client.closeGracefully();
    synchronized (stderr) {
      stderr.forEach(line -> System.err.println("[tether mcp] " + line));
    }
  }
}
