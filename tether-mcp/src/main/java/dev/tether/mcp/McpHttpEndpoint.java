package dev.tether.mcp;

import io.modelcontextprotocol.common.McpTransportContext;
import io.modelcontextprotocol.server.McpAsyncServer;
import io.modelcontextprotocol.server.transport.HttpServletStreamableServerTransportProvider;
import java.time.Duration;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.server.Handler;

/**
 * The tools of a {@link TetherMcpServer} over MCP's Streamable HTTP transport (the official Java
 * SDK's servlet transport, in a Jetty ee10 servlet context), as one Jetty {@link Handler} to mount
 * on a server: {@code tether serve --mcp} puts it on the daemon's own listeners at {@code /mcp},
 * {@link McpHttpServer} ({@code tether mcp --http}) on a listener of its own.
 *
 * <pre>{@code
 * McpHttpEndpoint mcp = McpHttpEndpoint.builder(tools).scopeAttribute(TetherServer.INSTANCE_SCOPE_ATTRIBUTE).build();
 * Handler handler = mcp.handler(); // serves POST, GET (the SSE stream) and DELETE at /mcp
 * }</pre>
 *
 * <p>Sessions are the SDK's ({@code Mcp-Session-Id}; a client resumes a stream with
 * {@code Last-Event-ID} as far as the SDK replays). Authentication is the host's: whoever mounts
 * the handler checks the bearer token first, and, when the token opens one instance only, sets
 * that instance id as the request attribute named by {@link Builder#scopeAttribute}. The endpoint
 * then holds every tool call of that request to that instance,
 * per request, so a session opened with one token and used with another is judged by the other.
 * Requests from a browser page of another origin are refused (403, see {@link Builder#allowedOrigins}).
 * Request bodies are bounded by the largest JSON-RPC message a frame within the limits needs.
 *
 * <p>Closing stops the SDK server and its sessions; the handler's lifecycle (start, stop) is the
 * Jetty server's. Thread-safe.
 */
public final class McpHttpEndpoint implements AutoCloseable {
  /** Where the endpoint answers unless {@link Builder#path} says otherwise. */
  public static final String DEFAULT_PATH = "/mcp";

  private final HttpServletStreamableServerTransportProvider transport;
  private final McpAsyncServer server;
  private final Handler handler;
  private final String path;

  private McpHttpEndpoint(Builder b) {
    this.path = b.path;
    String attribute = b.scopeAttribute;
    this.transport = HttpServletStreamableServerTransportProvider.builder()
        .jsonMapper(TetherMcpServer.jsonMapper())
        .mcpEndpoint(b.path)
        .contextExtractor(request -> {
          Object scope = attribute == null ? null : request.getAttribute(attribute);
          return scope instanceof String s ? McpTransportContext.create(Map.of(InstanceScope.KEY, s))
              : McpTransportContext.EMPTY;
        })
        .keepAliveInterval(b.keepAlive)
        .maxRequestSize(b.tools.maxLineChars())
        .build();
    this.server = b.tools.start(transport);
    ServletContextHandler context = new ServletContextHandler("/");
    ServletHolder holder = new ServletHolder("mcp", transport);
    holder.setAsyncSupported(true);
    context.addServlet(holder, b.path);
    this.handler = new OriginCheck(context, b.allowedOrigins);
  }

  public static Builder builder(TetherMcpServer tools) {
    return new Builder(tools);
  }

  /** The handler to mount (once) on a Jetty server; it answers at {@link #path()} only. */
  public Handler handler() {
    return handler;
  }

  /** The path the endpoint answers at, e.g. {@code /mcp}. */
  public String path() {
    return path;
  }

  /** Ends the sessions and stops the SDK server (bounded: 5 s). Idempotent. */
  @Override
  public void close() {
    try {
      server.closeGracefully().block(Duration.ofSeconds(5));
    } catch (RuntimeException e) {
      server.close();
    }
  }

  static String quoted(String s) {
    String shown = s.length() > 80 ? s.substring(0, 80) + "..." : s;
    return "'" + shown.replaceAll("[\\p{Cntrl}]", "?") + "'";
  }

  /** Configures an {@link McpHttpEndpoint}. Not thread-safe. */
  public static final class Builder {
    private final TetherMcpServer tools;
    private String path = DEFAULT_PATH;
    private String scopeAttribute;
    private final Set<String> allowedOrigins = new LinkedHashSet<>();
    private Duration keepAlive = Duration.ofSeconds(20);

    private Builder(TetherMcpServer tools) {
      this.tools = Objects.requireNonNull(tools, "tools");
    }

    /** The endpoint's path, starting with '/'. Default {@value #DEFAULT_PATH}. */
    public Builder path(String path) {
      Objects.requireNonNull(path, "path");
      if (!path.startsWith("/") || path.length() < 2 || path.endsWith("/") || path.contains("*")) {
        throw new IllegalArgumentException("path must start with '/' and name a path like /mcp but was '" + path + "'");
      }
      this.path = path;
      return this;
    }

    /**
     * The request attribute in which the host's authentication puts the one instance the caller's
     * token opens (absent: the caller may name any instance). Default: none, every caller may name
     * any instance (a standalone server behind one token).
     */
    public Builder scopeAttribute(String name) {
      this.scopeAttribute = Objects.requireNonNull(name, "name");
      return this;
    }

    /**
     * Origins (such as {@code http://localhost:5173}) whose browser pages may call the endpoint.
     * Default: none; a request without an {@code Origin} header is never refused by this check.
     */
    public Builder allowedOrigins(Collection<String> origins) {
      for (String origin : origins) {
        if (origin == null || origin.isBlank()) {
          throw new IllegalArgumentException("allowedOrigins must not contain a blank origin but was " + origins);
        }
        allowedOrigins.add(origin.trim());
      }
      return this;
    }

    /**
     * How often an idle session is pinged, which also keeps its SSE stream from idling out.
     * Default 20 s (the daemon cuts a request that moves no bytes after 60 s).
     */
    public Builder keepAlive(Duration interval) {
      Objects.requireNonNull(interval, "interval");
      if (interval.isNegative() || interval.isZero()) {
        throw new IllegalArgumentException("keepAlive must be > 0 but was " + interval);
      }
      this.keepAlive = interval;
      return this;
    }

    public McpHttpEndpoint build() {
      return new McpHttpEndpoint(this);
    }
  }
}
