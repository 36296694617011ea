package dev.tether.cli;

import dev.tether.client.http.HttpTetherClient;
import dev.tether.client.HostAddress;
import dev.tether.mcp.StdioServer;
import dev.tether.mcp.ChannelMediaClient;
import dev.tether.mcp.TetherMcpServer;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code tether mcp}: the MCP stdio server with the {@code tether-mcp} tools over a remote host
 * ({@link HttpTetherClient}). Stdout carries only JSON-RPC; everything else goes to stderr.
 */
@Command(name = "mcp", mixinStandardHelpOptions = true,
    description = {"Run the MCP stdio server for a tether host.",
        "Tools: tether_send, tether_read; list_media, fetch_media (media a chat bridge announced); list_attachments, read_attachment, view_attachment (a session's attachments on the host).",
        "Register it in Claude Code: claude mcp add tether -- /path/to/tether-cli/target/tether mcp --host unix:/path/to/tether.sock"})
final class McpCommand implements Callable<Integer> {
  @Mixin
  ClientOptions.Direct hostOptions = new ClientOptions.Direct();

  @Option(names = "--images", paramLabel = "inline|blob", defaultValue = "inline",
      description = "How tether_send sends images: inline base64, or blob refs stored on the host first (POST .../blob)."
          + " tether_read shows images either way. Default: ${DEFAULT-VALUE}.")
  String images = "inline";

  @Option(names = "--vision", negatable = true, defaultValue = "true", fallbackValue = "true",
      description = "Whether the model behind the MCP client can see images: view_attachment returns an image block,"
          + " or with --no-vision refuses with VISION_UNSUPPORTED. Default: ${DEFAULT-VALUE}.")
  boolean vision = true;

  @Option(names = "--media-instance", paramLabel = "NAME", defaultValue = "default",
      description = "The instance whose announced media list_media shows and fetch_media asks its channel bridge"
          + " (tether telegram) for. Default: ${DEFAULT-VALUE}.")
  String mediaInstance = "default";

  @Override
  public Integer call() throws Exception {
    HostAddress address;
    try {
      address = hostOptions.address();
    } catch (IllegalArgumentException e) {
      // Refused at start, in one line: an MCP client shows stderr of a server that did not start.
      System.err.println("tether mcp: --host " + e.getMessage());
      return 2;
    }
    if (!"inline".equals(images) && !"blob".equals(images)) {
      throw new UsageException("--images must be inline or blob but was '" + images + "'");
    }
    try (HttpTetherClient client = hostOptions.connect(address, "blob".equals(images))) {
      System.err.println("tether mcp: serving MCP on stdio for the host at " + address);
      TetherMcpServer tools = TetherMcpServer.builder(client).version(Main.Version.projectVersion())
          .attachments(client).visionCapable(vision)
          .channelMedia(ChannelMediaClient.of(client, mediaInstance)).build();
      StdioServer.run(tools);
    }
    return 0;
  }
}
