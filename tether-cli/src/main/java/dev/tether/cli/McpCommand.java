package dev.tether.cli;

import dev.tether.client.http.HttpTetherClient;
import dev.tether.client.HostAddress;
import dev.tether.mcp.McpHttpServer;
import dev.tether.mcp.StdioServer;
import dev.tether.client.TokenFile;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
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
    description = {"Run the MCP server for a tether host, on stdio or HTTP.",
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

  @Option(names = {"--instance", "--media-instance"}, paramLabel = "NAME", defaultValue = "default",
      description = "The instance of the attachment tools when a call names none, and whose announced media list_media"
          + " shows and fetch_media asks its channel bridge (tether telegram) for. --media-instance is its old,"
          + " deprecated name. Default: ${DEFAULT-VALUE}.")
  String mediaInstance = "default";

  @Option(names = "--http", paramLabel = "HOST:PORT",
      description = {"Serve MCP over Streamable HTTP at http://HOST:PORT/mcp instead of stdio (loopback only; port 0:"
          + " any free port, printed on stderr). Every request needs the bearer token of --http-token-file."})
  String http;

  @Option(names = "--http-token-file", paramLabel = "FILE",
      description = "Bearer token that HTTP MCP clients must send; created (0600) with a random token when missing."
          + " Default: ~/.tether/mcp-http.token.")
  Path httpTokenFile;

  @Option(names = "--allow-origin", paramLabel = "ORIGIN",
      description = "With --http: a browser origin whose pages may call /mcp (repeatable). Default: none.")
  List<String> allowedOrigins = new ArrayList<>();

  @Option(names = "--allow-non-loopback", description = "With --http: allow an address that is not loopback (no TLS).")
  boolean allowNonLoopback;

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
    HostAddress.Tcp httpAddress = http == null ? null : ServeCommand.parseTcp("--http", http);
    if (http == null && (!allowedOrigins.isEmpty() || httpTokenFile != null || allowNonLoopback)) {
      throw new UsageException("--allow-origin, --http-token-file and --allow-non-loopback need --http");
    }
    try (HttpTetherClient client = hostOptions.connect(address, "blob".equals(images))) {
      TetherMcpServer tools = TetherMcpServer.builder(client).version(Main.Version.projectVersion())
          .attachments(client).defaultInstance(mediaInstance).visionCapable(vision)
          .channelMedia(ChannelMediaClient.of(client, mediaInstance)).build();
      if (httpAddress == null) {
        System.err.println("tether mcp: serving MCP on stdio for the host at " + address);
        StdioServer.run(tools);
      } else {
        return serveHttp(tools, httpAddress, address);
      }
    }
    return 0;
  }

  /** Serves {@code tools} over Streamable HTTP until the process is told to stop. */
  private int serveHttp(TetherMcpServer tools, HostAddress.Tcp at, HostAddress host) throws Exception {
    Path tokenPath = httpTokenFile != null ? httpTokenFile : Connections.home().resolve(".tether").resolve("mcp-http.token");
    String token = TokenFile.loadOrCreate(tokenPath);
    McpHttpServer server;
    try {
      server = McpHttpServer.start(tools, at, token, allowedOrigins, allowNonLoopback);
    } catch (IllegalArgumentException e) {
      throw new UsageException("--http: " + e.getMessage());
    } catch (IOException e) {
      System.err.println("tether mcp: --http: " + e.getMessage());
      return 1;
    }
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      server.close();
      stopped.countDown();
    }, "tether-mcp-shutdown"));
    System.err.println("tether mcp: serving MCP (Streamable HTTP) at " + server.url() + " for the host at " + host
        + "; token in " + tokenPath);
    stopped.await();
    return 0;
  }
}
