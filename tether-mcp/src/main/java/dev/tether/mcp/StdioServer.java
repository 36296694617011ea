package dev.tether.mcp;

import io.modelcontextprotocol.server.McpAsyncServer;
import io.modelcontextprotocol.server.transport.StdioServerTransportProvider;
import java.io.InputStream;
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

  /** How long {@link #run(TetherMcpServer)} waits for calls in flight once stdin has ended. */
  public static final Duration DEFAULT_DRAIN = Duration.ofSeconds(10);

  /**
   * Serves until stdin reaches its end (the client went away), then answers the calls still in
   * progress (waiting up to {@link #DEFAULT_DRAIN}) and closes the server.
   */
  public static void run(TetherMcpServer tools) throws InterruptedException {
    run(tools, DEFAULT_DRAIN);
  }

  /**
   * As {@link #run(TetherMcpServer)}, waiting up to {@code drain} for the calls in progress when
   * stdin ends; calls still running after it are abandoned (their results are not written).
   */
  public static void run(TetherMcpServer tools, Duration drain) throws InterruptedException {
    WrittenLines protocolOut = new WrittenLines(System.out);
    System.setOut(System.err);
    CountDownLatch ended = new CountDownLatch(1);
    int maxLineChars = tools.maxLineChars();
    CountDownLatch release = new CountDownLatch(1);
    InputStream in = new JsonRpcLineGuard(System.in, protocolOut, ended, maxLineChars, tools.inFlight(), release);
    // The guard passes on only lines within the limit, so the SDK's own limit (16 MiB characters
    // by default since 2.1, below a legal 28 MiB frame; a longer line ends its reader) never trips.
    StdioServerTransportProvider transport =
        new StdioServerTransportProvider(TetherMcpServer.jsonMapper(), in, protocolOut, maxLineChars);
    McpAsyncServer server = tools.start(transport);
    try {
      ended.await();
      int open = tools.inFlight().count();
      if (open > 0) {
        System.err.println("tether mcp: stdin ended; answering " + open + (open == 1 ? " call" : " calls")
            + " in progress (up to " + drain.toSeconds() + " s)");
        if (!tools.inFlight().awaitIdle(drain)) {
          System.err.println("tether mcp: " + tools.inFlight().count() + " calls still running after "
              + drain.toSeconds() + " s; exiting without their answers");
        }
      }
      // The SDK writes on a thread of its own; closing it drops what it has not written yet.
      if (!protocolOut.awaitLines(tools.inFlight().handed(), Duration.ofSeconds(5))) {
        System.err.println("tether mcp: the last answers were not written within 5 s; exiting");
      }
    } finally {
      release.countDown(); // now the SDK sees the end of its input
      server.closeGracefully().block(Duration.ofSeconds(5));
    }
  }
}
