package dev.tether.whatsapp.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.tether.api.json.TetherJson;
import dev.tether.chat.ChatLog;
import dev.tether.chat.ChatSecret;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Consumer;

/**
 * The webhook WhatsApp calls, {@code /whatsapp/webhook}: {@code GET} is the verification handshake
 * ({@code hub.mode=subscribe}, {@code hub.verify_token} equal to ours in constant time, answered
 * with {@code hub.challenge}; anything else 403); {@code POST} is a delivery, checked with
 * {@link WebhookSignature} before it is parsed (401 and one log line when it fails), then handed to
 * the sink and answered 200. Bodies over {@value #MAX_BODY} bytes get 413 unread. Thread-safe.
 */
public final class WebhookEndpoint implements AutoCloseable {
  public static final String PATH = "/whatsapp/webhook";
  static final int MAX_BODY = 1 << 20;
  private static final ObjectMapper JSON = new ObjectMapper(TetherJson.newFactory());

  private final HttpServer server;
  private final ExecutorService executor;

  private WebhookEndpoint(HttpServer server, ExecutorService executor) {
    this.server = server;
    this.executor = executor;
  }

  public static WebhookEndpoint start(InetSocketAddress address, ChatSecret verifyToken, WebhookSignature signature,
      Consumer<JsonNode> sink, ChatLog log) throws IOException {
    HttpServer server = HttpServer.create(address, 64);
    ExecutorService executor = Executors.newFixedThreadPool(2, r -> {
      Thread t = new Thread(r, "tether-whatsapp-webhook");
      t.setDaemon(true);
      return t;
    });
    server.setExecutor(executor);
    server.createContext(PATH, exchange -> {
      try (exchange) {
        if ("GET".equals(exchange.getRequestMethod())) {
          verify(exchange, verifyToken, log);
        } else if ("POST".equals(exchange.getRequestMethod())) {
          deliver(exchange, signature, sink, log);
        } else {
          exchange.getResponseHeaders().set("Allow", "GET, POST");
          exchange.sendResponseHeaders(405, -1);
        }
      } catch (IOException | RuntimeException e) {
        log.warn("webhook request failed: " + log.describe(e));
      }
    });
    server.start();
    return new WebhookEndpoint(server, executor);
  }

  public InetSocketAddress address() {
    return server.getAddress();
  }

  private static void verify(HttpExchange ex, ChatSecret verifyToken, ChatLog log) throws IOException {
    Map<String, String> q = query(ex.getRequestURI().getRawQuery());
    String token = q.getOrDefault("hub.verify_token", "");
    boolean ok = "subscribe".equals(q.get("hub.mode")) && MessageDigest.isEqual(token.getBytes(StandardCharsets.UTF_8),
        verifyToken.reveal().getBytes(StandardCharsets.UTF_8));
    String challenge = q.getOrDefault("hub.challenge", "");
    if (!ok || challenge.isEmpty() || challenge.length() > 256) {
      log.warn("refused a webhook verification from " + ex.getRemoteAddress().getAddress().getHostAddress() + ": wrong verify token or mode");
      ex.sendResponseHeaders(403, -1);
      return;
    }
    byte[] body = challenge.getBytes(StandardCharsets.UTF_8);
    ex.getResponseHeaders().set("Content-Type", "text/plain");
    ex.sendResponseHeaders(200, body.length);
    ex.getResponseBody().write(body);
  }

  private static void deliver(HttpExchange ex, WebhookSignature signature, Consumer<JsonNode> sink, ChatLog log) throws IOException {
    byte[] body;
    try (InputStream in = ex.getRequestBody()) {
      body = in.readNBytes(MAX_BODY + 1);
    }
    String from = ex.getRemoteAddress().getAddress().getHostAddress();
    if (body.length > MAX_BODY) {
      log.warn("refused a webhook delivery from " + from + ": larger than " + MAX_BODY + " bytes");
      ex.sendResponseHeaders(413, -1);
      return;
    }
    if (!signature.verifies(ex.getRequestHeaders().getFirst("X-Hub-Signature-256"), body)) {
      log.warn("refused a webhook delivery from " + from + ": a missing or bad X-Hub-Signature-256");
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
    if (root != null) {
      sink.accept(root);
    }
    ex.sendResponseHeaders(200, -1);
  }

  private static Map<String, String> query(String raw) {
    Map<String, String> q = new HashMap<>();
    if (raw == null) {
      return q;
    }
    for (String pair : raw.split("&")) {
      int eq = pair.indexOf('=');
      if (eq > 0) {
        try {
          q.putIfAbsent(URLDecoder.decode(pair.substring(0, eq), StandardCharsets.UTF_8),
              URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
        } catch (IllegalArgumentException malformed) {
          return Map.of();
        }
      }
    }
    return q;
  }

  @Override
  public void close() {
    server.stop(0);
    executor.shutdownNow();
  }
}
