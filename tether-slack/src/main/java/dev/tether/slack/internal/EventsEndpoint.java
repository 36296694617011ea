package dev.tether.slack.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.tether.api.json.TetherJson;
import dev.tether.chat.ChatLog;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Consumer;

/**
 * The Events API over HTTP, for those who run a public endpoint: {@code POST /slack/events}. Every
 * delivery is checked first ({@link SlackSignature}: v0 HMAC of the raw body, five-minute window);
 * a refused one gets 401 and one log line, and is not read further. The {@code url_verification}
 * handshake is answered with its challenge; an {@code event_callback} goes to the sink and is
 * answered 200 at once (Slack retries what is not answered within 3 seconds). Bodies over
 * {@value #MAX_BODY} bytes get 413 unread. Thread-safe.
 */
public final class EventsEndpoint implements AutoCloseable {
  /** The path Slack's Request URL points at. */
  public static final String PATH = "/slack/events";
  static final int MAX_BODY = 1 << 20;
  private static final ObjectMapper JSON = new ObjectMapper(TetherJson.newFactory());

  private final HttpServer server;
  private final ExecutorService executor;

  private EventsEndpoint(HttpServer server, ExecutorService executor) {
    this.server = server;
    this.executor = executor;
  }

  /** Starts listening on {@code address} ({@code 127.0.0.1:0} in tests; behind a TLS proxy in production). */
  public static EventsEndpoint start(InetSocketAddress address, SlackSignature signature, Consumer<JsonNode> sink, ChatLog log)
      throws IOException {
    Objects.requireNonNull(signature, "signature");
    Objects.requireNonNull(sink, "sink");
    HttpServer server = HttpServer.create(address, 64);
    ExecutorService executor = Executors.newFixedThreadPool(2, r -> {
      Thread t = new Thread(r, "tether-slack-events");
      t.setDaemon(true);
      return t;
    });
    server.setExecutor(executor);
    server.createContext(PATH, exchange -> {
      try (exchange) {
        handle(exchange, signature, sink, log);
      } catch (IOException | RuntimeException e) {
        log.warn("Events API delivery failed: " + log.describe(e));
      }
    });
    server.start();
    return new EventsEndpoint(server, executor);
  }

  public InetSocketAddress address() {
    return server.getAddress();
  }

  private static void handle(HttpExchange ex, SlackSignature signature, Consumer<JsonNode> sink, ChatLog log) throws IOException {
    if (!"POST".equals(ex.getRequestMethod())) {
      ex.getResponseHeaders().set("Allow", "POST");
      ex.sendResponseHeaders(405, -1);
      return;
    }
    byte[] body;
    try (InputStream in = ex.getRequestBody()) {
      body = in.readNBytes(MAX_BODY + 1);
    }
    if (body.length > MAX_BODY) {
      log.warn("refused an Events API delivery from " + ex.getRemoteAddress().getAddress().getHostAddress() + ": larger than " + MAX_BODY + " bytes");
      ex.sendResponseHeaders(413, -1);
      return;
    }
    String refusal = signature.refusal(ex.getRequestHeaders().getFirst("X-Slack-Request-Timestamp"),
        ex.getRequestHeaders().getFirst("X-Slack-Signature"), body);
    if (refusal != null) {
      log.warn("refused an Events API delivery from " + ex.getRemoteAddress().getAddress().getHostAddress() + ": " + refusal);
      ex.sendResponseHeaders(401, -1);
      return;
    }
    JsonNode root;
    try {
      root = JSON.readTree(body);
    } catch (IOException e) {
      ex.sendResponseHeaders(400, -1);
      return;
    }
    if (root != null && "url_verification".equals(root.path("type").asText())) {
      byte[] answer = JSON.createObjectNode().put("challenge", root.path("challenge").asText("")).toString().getBytes(StandardCharsets.UTF_8);
      ex.getResponseHeaders().set("Content-Type", "application/json");
      ex.sendResponseHeaders(200, answer.length);
      ex.getResponseBody().write(answer);
      return;
    }
    if (root != null) {
      sink.accept(root);
    }
    ex.sendResponseHeaders(200, -1);
  }

  @Override
  public void close() {
    server.stop(0);
    executor.shutdownNow();
  }
}
