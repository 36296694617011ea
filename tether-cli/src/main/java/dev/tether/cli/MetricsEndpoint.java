package dev.tether.cli;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.tether.client.HostAddress;
import dev.tether.store.Readiness;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Supplier;

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
 * the API). One small thread; closed with the process.
 */
final class MetricsEndpoint implements AutoCloseable {
  private final HttpServer server;
  private final ExecutorService pool;

  private MetricsEndpoint(HttpServer server, ExecutorService pool) {
    this.server = server;
    this.pool = pool;
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
    String required = address.isLoopback() ? null : token;
    HttpServer server = HttpServer.create(new InetSocketAddress(address.host(), address.port()), 64);
    ExecutorService pool = Executors.newSingleThreadExecutor(r -> {
      Thread t = new Thread(r, "tether-metrics");
      t.setDaemon(true);
      return t;
    });
    server.setExecutor(pool);
    server.createContext("/", exchange -> {
      try (exchange) {
        handle(exchange, registry, readiness, required);
      } catch (RuntimeException e) {
        // Answered below if nothing was sent yet; a scrape that fails is retried by Prometheus.
        System.getLogger(MetricsEndpoint.class.getName()).log(System.Logger.Level.WARNING, "metrics request failed", e);
      }
    });
    server.start();
    return new MetricsEndpoint(server, pool);
  }

  private static void handle(HttpExchange exchange, PrometheusMeterRegistry registry, Supplier<Readiness> readiness,
      String token) throws IOException {
    if (token != null && !authorized(exchange.getRequestHeaders().getFirst("Authorization"), token)) {
      exchange.getResponseHeaders().add("WWW-Authenticate", "Bearer");
      send(exchange, 401, "text/plain", "a valid 'Authorization: Bearer <token>' header is required\n");
      return;
    }
    if (!"GET".equals(exchange.getRequestMethod())) {
      exchange.getResponseHeaders().add("Allow", "GET");
      send(exchange, 405, "text/plain", "use GET\n");
      return;
    }
    switch (exchange.getRequestURI().getPath()) {
      case "/metrics" -> send(exchange, 200, "text/plain; version=0.0.4; charset=utf-8", registry.scrape());
      case "/ready" -> {
        Readiness r = readiness.get();
        send(exchange, r.ready() ? 200 : 503, "text/plain", r.ready() ? "ready\n" : "not ready: " + r.reason() + "\n");
      }
      case "/health" -> send(exchange, 200, "text/plain", "ok\n");
      default -> send(exchange, 404, "text/plain", "this listener serves /metrics, /ready and /health\n");
    }
  }

  private static boolean authorized(String header, String token) {
    if (header == null || !header.startsWith("Bearer ")) {
      return false;
    }
    return MessageDigest.isEqual(header.substring(7).getBytes(StandardCharsets.UTF_8), token.getBytes(StandardCharsets.UTF_8));
  }

  private static void send(HttpExchange exchange, int status, String type, String body) throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().add("Content-Type", type);
    exchange.getResponseHeaders().add("Cache-Control", "no-store");
    exchange.sendResponseHeaders(status, bytes.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(bytes);
    }
  }

  /** Where it listens (the port resolved). */
  int port() {
    return server.getAddress().getPort();
  }

  @Override
  public void close() {
    server.stop(0);
    pool.shutdownNow();
  }
}
