package dev.tether.mcp;

import dev.tether.client.HostAddress;
import dev.tether.client.TokenFile;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Objects;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

/**
 * A standalone MCP server over Streamable HTTP ({@code tether mcp --http HOST:PORT}): an
 * {@link McpHttpEndpoint} on a TCP listener of its own, behind one bearer token, for agents that
 * connect over HTTP to tools that talk to a (possibly remote) host through their own client.
 *
 * <pre>{@code
 * try (McpHttpServer http = McpHttpServer.start(tools, new HostAddress.Tcp("127.0.0.1", 0), token, List.of())) {
 *   URI url = http.url(); // http://127.0.0.1:PORT/mcp
 * }
 * }</pre>
 *
 * <p>Rules: the token has at least {@value TokenFile#MIN_BYTES} bytes and every request carries it
 * ({@code Authorization: Bearer}, else 401); a non-loopback address is refused unless allowed (no
 * TLS); cross-origin browser requests are refused (see {@link McpHttpEndpoint.Builder#allowedOrigins}).
 * The token's caller may name any instance its tools' client reaches. Thread-safe; close is
 * idempotent and ends the sessions.
 */
public final class McpHttpServer implements AutoCloseable {
  private final Server server;
  private final ServerConnector connector;
  private final McpHttpEndpoint endpoint;
  private final String host;

  private McpHttpServer(Server server, ServerConnector connector, McpHttpEndpoint endpoint, String host) {
    this.server = server;
    this.connector = connector;
    this.endpoint = endpoint;
    this.host = host;
  }

  /**
   * Starts serving {@code tools} at {@code /mcp} on {@code address} (port 0: any free port).
   *
   * @param allowedOrigins browser origins that may call (usually none)
   * @throws IllegalArgumentException when the token is too short, or the address is not loopback
   *     and {@code allowNonLoopback} is false
   * @throws IOException when the address cannot be bound
   */
  public static McpHttpServer start(TetherMcpServer tools, HostAddress.Tcp address, String token,
      List<String> allowedOrigins, boolean allowNonLoopback) throws IOException {
    Objects.requireNonNull(tools, "tools");
    Objects.requireNonNull(address, "address");
    Objects.requireNonNull(token, "token");
    int bytes = token.getBytes(StandardCharsets.UTF_8).length;
    if (bytes < TokenFile.MIN_BYTES) {
      throw new IllegalArgumentException("token must be at least " + TokenFile.MIN_BYTES + " bytes but was " + bytes);
    }
    if (!allowNonLoopback && !address.isLoopback()) {
      throw new IllegalArgumentException("refusing to serve MCP on non-loopback " + address
          + ": HTTP without TLS. Use 127.0.0.1, or allow non-loopback addresses if you really mean it");
    }
    QueuedThreadPool pool = new QueuedThreadPool(32, 4);
    pool.setName("tether-mcp-http");
    pool.setDaemon(true);
    Server server = new Server(pool);
    HttpConfiguration config = new HttpConfiguration();
    config.setSendServerVersion(false);
    config.setHeaderCacheCaseSensitive(true); // a cached "Bearer S3CRET" must not match "Bearer s3cret"
    ServerConnector connector = new ServerConnector(server, new HttpConnectionFactory(config));
    connector.setHost(address.host());
    connector.setPort(address.port());
    server.addConnector(connector);
    McpHttpEndpoint endpoint = McpHttpEndpoint.builder(tools).allowedOrigins(allowedOrigins).build();
    server.setHandler(new BearerCheck(endpoint.handler(), token));
    server.setStopTimeout(5_000);
    try {
      server.start();
    } catch (Exception e) {
      endpoint.close();
      try {
        server.stop();
      } catch (Exception ignored) {
        // best effort
      }
      throw e instanceof IOException io ? io : new IOException("cannot listen on " + address + ": " + e.getMessage(), e);
    }
    return new McpHttpServer(server, connector, endpoint, address.host());
  }

  /** Where it listens, the port resolved. */
  public HostAddress.Tcp boundAddress() {
    return new HostAddress.Tcp(host, connector.getLocalPort());
  }

  /** The endpoint's URL, e.g. {@code http://127.0.0.1:8788/mcp}. */
  public URI url() {
    String h = host.contains(":") ? "[" + host + "]" : host;
    return URI.create("http://" + h + ":" + connector.getLocalPort() + endpoint.path());
  }

  /** Blocks until the server has stopped. */
  public void awaitStop() throws InterruptedException {
    server.join();
  }

  @Override
  public void close() {
    endpoint.close();
    try {
      server.stop();
    } catch (Exception e) {
      System.getLogger(McpHttpServer.class.getName()).log(System.Logger.Level.WARNING, "stopping the MCP HTTP server failed", e);
    }
  }
}
