package dev.tether.mcp;

import io.modelcontextprotocol.server.McpAsyncServer;
import io.modelcontextprotocol.server.transport.StdioServerTransportProvider;
import java.io.InputStream;
import java.io.PrintStream;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;

/**
 * Runs a {@link TetherMcpServer} over this process's stdin and stdout, the way Claude Code and
 * Cursor start MCP servers.
 *
 * <p>Stdout carries JSON-RPC and nothing else: before serving, {@link System#out} is pointed at
 * stderr, so a stray {@code println} anywhere in the process lands in the log instead of
 * corrupting the protocol stream. Logs go to stderr (System.Logger and SLF4J both default there).
 * A line on stdin that is not a JSON-RPC message, or is longer than any message within the frame
 * limit, gets an error response and is skipped, instead of ending the SDK's reader (see
 * {@link JsonRpcLineGuard}).
 */
public final class StdioServer {
  private StdioServer() {}

  /** Serves until stdin reaches its end (the client went away), then closes the server. */
  public static void run(TetherMcpServer tools) throws InterruptedException {
    PrintStream protocolOut = System.out;
    System.setOut(System.err);
    CountDownLatch ended = new CountDownLatch(1);
    int maxLineChars = tools.maxLineChars();
    InputStream in = new JsonRpcLineGuard(System.in, protocolOut, ended, maxLineChars);
    // The guard passes on only lines within the limit, so the SDK's own limit (16 MiB characters
    // by default since 2.1, below a legal 28 MiB frame; a longer line ends its reader) never trips.
    StdioServerTransportProvider transport =
        new StdioServerTransportProvider(TetherMcpServer.jsonMapper(), in, protocolOut, maxLineChars);
    McpAsyncServer server = tools.start(transport);
    try {
      ended.await();
    } finally {
      server.closeGracefully().block(Duration.ofSeconds(5));
    }
  }
}
