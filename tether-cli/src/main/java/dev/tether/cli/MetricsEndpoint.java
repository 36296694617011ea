package dev.tether.cli;

import dev.tether.client.HostAddress;
import dev.tether.store.Readiness;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpHeaderValue;
import org.eclipse.jetty.io.Connection;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.NetworkConnectionLimit;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.eclipse.jetty.util.thread.Scheduler;

/**
 * The operations listener of {@code serve --metrics} and the bridges' {@code --metrics}: its own
 * TCP listener (loopback unless {@code --allow-non-loopback}), apart from the API, serving
 *
 * <ul>
 *   <li>{@code GET /metrics}: the meters in Prometheus text (version 0.0.4), what a scrape reads;
 *   <li>{@code GET /ready}: 200 {@code ready} or 503 with the reason (the process's readiness: the
 *       store for {@code serve}, the last Telegram poll or the gateway registration for a bridge);
 *   <li>{@code GET /health}: 200 while the process runs.
 * </ul>
 *
 * A loopback listener needs no token (what a local Prometheus or a sidecar expects); on any other
 * address every request needs {@code Authorization: Bearer} with the API's token (the same rule as
 * the API), checked before the method or path is looked at, in constant time.
 *
 * <p>Design: the same Jetty 12 server the daemon uses, sized for probes and scrapes so that no
 * client can hold it. Its own small thread pool ({@value #MAX_THREADS} threads, none reserved); at
 * most {@value #MAX_CONNECTIONS} connections (past that, new ones wait in the accept queue); each
 * connection must deliver its whole request head within {@link #HEAD_DEADLINE} however slowly it
 * trickles (a task on Jetty's scheduler closes it otherwise), may move no bytes for at most
 * {@link #IDLE_TIMEOUT}, and carries one request ({@code Connection: close}), so the head deadline
 * bounds every connection's life before it is answered. A stuck client costs one connection slot
 * for a few seconds and no thread. Thread-safe; closed with the process.
 */
final class MetricsEndpoint implements AutoCloseable {
  static final int MAX_THREADS = 6;
  static final int MAX_CONNECTIONS = 32;
  static final Duration HEAD_DEADLINE = Duration.ofSeconds(5);
  static final Duration IDLE_TIMEOUT = Duration.ofSeconds(5);
  private static final int MAX_HEAD_BYTES = 8 * 1024;

  private final Server server;
  private final ServerConnector connector;

  private MetricsEndpoint(Server server, ServerConnector connector) {
    this.server = server;
    this.connector = connector;
  }

  /**
   * Starts the listener on {@code address} (port 0: any free port).
   *
   * @param token the bearer token required when {@code address} is not loopback; null is allowed
   *     only for loopback
   * @throws IllegalArgumentException when a non-loopback address has no token
   */
  static MetricsEndpoint start(HostAddress.Tcp address, PrometheusMeterRegistry registry, Supplier<Readiness> readiness,
      String token) throws IOException {
    if (!address.isLoopback() && token == null) {
      throw new IllegalArgumentException("a non-loopback metrics listener needs the API's bearer token (--listen with --token-file)");
    }
    return start(address, new Routes(registry, readiness), address.isLoopback() ? null : token, HEAD_DEADLINE);
  }

  /**
   * As above with the answers of {@code routes}, requiring {@code token} (when not null) whatever
   * the address, and {@code headDeadline}: what tests use to check the rules on loopback.
   */
  static MetricsEndpoint start(HostAddress.Tcp address, Routes routes, String token, Duration headDeadline) throws IOException {
    QueuedThreadPool pool = new QueuedThreadPool(MAX_THREADS, 2);
    pool.setName("tether-metrics");
    pool.setDaemon(true);
    pool.setReservedThreads(0);
    Server server = new Server(pool);
    HttpConfiguration config = new HttpConfiguration();
    config.setIdleTimeout(IDLE_TIMEOUT.toMillis());
    config.setSendServerVersion(false);
    config.setRequestHeaderSize(MAX_HEAD_BYTES);
    // As on the API's listener: the header cache must not let "Bearer S3CRET" pass after "Bearer s3cret".
    config.setHeaderCacheCaseSensitive(true);
    ServerConnector connector = new ServerConnector(server, 1, 1, new HttpConnectionFactory(config));
    connector.setName("metrics");
    connector.setHost(address.host());
    connector.setPort(address.port());
    connector.setIdleTimeout(IDLE_TIMEOUT.toMillis());
    HeadDeadline deadline = new HeadDeadline(server, headDeadline);
    connector.addBean(deadline);
    server.addConnector(connector);
    server.addBean(new NetworkConnectionLimit(MAX_CONNECTIONS, connector));
    server.setHandler(new Answer(routes, token, deadline));
    server.setStopTimeout(1_000);
    server.setStopAtShutdown(false);
    try {
      server.start();
    } catch (IOException e) {
      stopQuietly(server);
      throw e;
    } catch (Exception e) {
      stopQuietly(server);
      throw new IOException("cannot start the metrics listener on " + address + ": " + e.getMessage(), e);
    }
    return new MetricsEndpoint(server, connector);
  }

  /** Where it listens (the port resolved). */
  int port() {
    return connector.getLocalPort();
  }

  @Override
  public void close() {
    stopQuietly(server);
  }

  private static void stopQuietly(Server server) {
    try {
      server.stop();
    } catch (Exception e) {
      System.getLogger(MetricsEndpoint.class.getName()).log(System.Logger.Level.WARNING, "stopping the metrics listener failed", e);
    }
  }

  /** The three answers: what each path says, apart from the listener's rules. */
  record Routes(PrometheusMeterRegistry registry, Supplier<Readiness> readiness) {
    Routes {
      Objects.requireNonNull(registry, "registry");
      Objects.requireNonNull(readiness, "readiness");
    }
  }

  /**
   * Closes a connection that has not delivered a whole request head within the deadline. Jetty
   * tells it of every connection the metrics connector opens and closes; the handler tells it
   * when a head arrived. Thread-safe.
   */
  private static final class HeadDeadline implements Connection.Listener {
    private final Server server;
    private final long deadlineMs;
    private final Map<Connection, Scheduler.Task> waiting = new ConcurrentHashMap<>();

    HeadDeadline(Server server, Duration deadline) {
      this.server = server;
      this.deadlineMs = deadline.toMillis();
    }

    @Override
    public void onOpened(Connection connection) {
      waiting.put(connection, server.getScheduler().schedule(() -> {
        if (waiting.remove(connection) != null) {
          connection.getEndPoint().close();
        }
      }, deadlineMs, TimeUnit.MILLISECONDS));
    }

    @Override
    public void onClosed(Connection connection) {
      headArrived(connection);
    }

    void headArrived(Connection connection) {
      Scheduler.Task task = waiting.remove(connection);
      if (task != null) {
        task.cancel();
      }
    }
  }

  /**
   * The one handler: the token first (when one is required), then the method, then the path.
   * Blocking (Jetty runs it on a pool thread, never on the selector): a readiness check may wait
   * on the store or NATS.
   */
  private static final class Answer extends Handler.Abstract {
    private final Routes routes;
    private final byte[] token; // null: none required
    private final HeadDeadline deadline;

    Answer(Routes routes, String token, HeadDeadline deadline) {
      this.routes = routes;
      this.token = token == null ? null : token.getBytes(StandardCharsets.UTF_8);
      this.deadline = deadline;
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) {
      deadline.headArrived(request.getConnectionMetaData().getConnection());
      response.getHeaders().put(HttpHeader.CONNECTION, HttpHeaderValue.CLOSE.asString());
      response.getHeaders().put(HttpHeader.CACHE_CONTROL, "no-store");
      if (token != null && !authorized(request.getHeaders().get(HttpHeader.AUTHORIZATION), token)) {
        response.getHeaders().put(HttpHeader.WWW_AUTHENTICATE, "Bearer");
        return send(response, callback, 401, "text/plain", "a valid 'Authorization: Bearer <token>' header is required\n");
      }
      if (!"GET".equals(request.getMethod())) {
        response.getHeaders().put(HttpHeader.ALLOW, "GET");
        return send(response, callback, 405, "text/plain", "use GET\n");
      }
      try {
        return switch (Request.getPathInContext(request)) {
          case "/metrics" -> send(response, callback, 200, "text/plain; version=0.0.4; charset=utf-8", routes.registry.scrape());
          case "/ready" -> {
            Readiness r = routes.readiness.get();
            yield send(response, callback, r.ready() ? 200 : 503, "text/plain", r.ready() ? "ready\n" : "not ready: " + r.reason() + "\n");
          }
          case "/health" -> send(response, callback, 200, "text/plain", "ok\n");
          default -> send(response, callback, 404, "text/plain", "this listener serves /metrics, /ready and /health\n");
        };
      } catch (RuntimeException e) {
        // A scrape that fails is retried by Prometheus; Jetty answers 500 if nothing was sent yet.
        System.getLogger(MetricsEndpoint.class.getName()).log(System.Logger.Level.WARNING, "metrics request failed", e);
        callback.failed(e);
        return true;
      }
    }

    private static boolean send(Response response, Callback callback, int status, String type, String body) {
      byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
      response.setStatus(status);
      response.getHeaders().put(HttpHeader.CONTENT_TYPE, type);
      response.getHeaders().put(HttpHeader.CONTENT_LENGTH, bytes.length);
      response.write(true, ByteBuffer.wrap(bytes), callback);
      return true;
    }
  }

  /** Whether {@code header} is {@code Bearer <token>}; compares in time independent of where they differ. */
  static boolean authorized(String header, byte[] token) {
    if (header == null || !header.startsWith("Bearer ")) {
      return false;
    }
    return MessageDigest.isEqual(header.substring(7).getBytes(StandardCharsets.UTF_8), token);
  }
}
