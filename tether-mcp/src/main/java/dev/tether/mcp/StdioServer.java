package dev.tether.mcp;

import io.modelcontextprotocol.server.McpAsyncServer;
import io.modelcontextprotocol.server.transport.StdioServerTransportProvider;
import java.io.FilterInputStream;
import java.io.IOException;
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
 */
public final class StdioServer {
  private StdioServer() {}

  /** Serves until stdin reaches its end (the client went away), then closes the server. */
  public static void run(TetherMcpServer tools) throws InterruptedException {
    PrintStream protocolOut = System.out;
    System.setOut(System.err);
    CountDownLatch ended = new CountDownLatch(1);
    InputStream in = new EndSignallingInputStream(System.in, ended);
    StdioServerTransportProvider transport =
        new StdioServerTransportProvider(TetherMcpServer.jsonMapper(), in, protocolOut);
    McpAsyncServer server = tools.start(transport);
    try {
      ended.await();
    } finally {
      server.closeGracefully().block(Duration.ofSeconds(5));
    }
  }

  /** Counts down when the stream ends or fails, so {@link #run} knows the client is gone. */
  private static final class EndSignallingInputStream extends FilterInputStream {
    private final CountDownLatch ended;

    EndSignallingInputStream(InputStream in, CountDownLatch ended) {
      super(in);
      this.ended = ended;
    }

    @Override
    public int read() throws IOException {
      return signal(() -> super.read());
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      return signal(() -> super.read(b, off, len));
    }

    private int signal(IoRead read) throws IOException {
      try {
        int n = read.get();
        if (n < 0) {
          ended.countDown();
        }
        return n;
      } catch (IOException e) {
        ended.countDown();
        throw e;
      }
    }

    private interface IoRead {
      int get() throws IOException;
    }
  }
}
