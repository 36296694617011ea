package dev.tether.slack.testing;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;

/**
 * A Slack stand-in on 127.0.0.1 that speaks the Web API's wire format: form posts with
 * {@code Authorization: Bearer}, {@code {"ok":...}} answers, HTTP 429 with {@code Retry-After}; the
 * external upload flow; {@code url_private} file downloads that require the bot token; and Socket
 * Mode ({@link SocketModeServer}: {@code hello}, {@code events_api} envelopes, acks). Records every
 * call.
 */
public final class FakeSlack implements AutoCloseable {
  public static final String BOT_TOKEN = "xoxb-1111-2222-test-bot-token";
  public static final String APP_TOKEN = "xapp-1-A111-3333-test-app-token";
  private static final ObjectMapper JSON = new ObjectMapper();

  /** One Web API call: its method (prefixed {@code "429 "} when it was answered 429) and form fields. */
  public record Call(String method, Map<String, String> fields) {}

  private final HttpServer server;
  private final SocketModeServer socket;
  private final List<Call> calls = new CopyOnWriteArrayList<>();
  private final Map<String, byte[]> files = new ConcurrentHashMap<>();
  private final Map<String, byte[]> uploads = new ConcurrentHashMap<>();
  private final List<String> downloads = new CopyOnWriteArrayList<>();
  private final Map<String, AtomicInteger> rateLimited = new ConcurrentHashMap<>();
  private final AtomicInteger ts = new AtomicInteger(100);

  public FakeSlack() throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 50);
    server.createContext("/api/", this::api);
    server.createContext("/files/", this::download);
    server.createContext("/upload/", this::upload);
    server.start();
    socket = new SocketModeServer();
  }

  public URI apiUrl() {
    return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/api/");
  }

  public SocketModeServer socketMode() {
    return socket;
  }

  /** Adds a file; returns its {@code url_private}. */
  public String addFile(String id, byte[] bytes) {
    files.put(id, bytes.clone());
    return "http://127.0.0.1:" + server.getAddress().getPort() + "/files/" + id;
  }

  /** The next {@code times} calls of {@code method} answer 429 with {@code Retry-After: 1}. */
  public void rateLimit(String method, int times) {
    rateLimited.put(method, new AtomicInteger(times));
  }

  public List<Call> calls(String method) {
    return calls.stream().filter(c -> c.method().equals(method)).toList();
  }

  /** The file ids downloaded, one entry per download. */
  public List<String> downloads() {
    return List.copyOf(downloads);
  }

  public byte[] uploaded(String fileId) {
    return uploads.get(fileId);
  }

  /** Waits for a call of {@code method} matching {@code test}. */
  public Call await(String method, Predicate<Call> test, Duration wait) throws InterruptedException {
    long end = System.nanoTime() + wait.toNanos();
    while (System.nanoTime() < end) {
      for (Call c : calls(method)) {
        if (test.test(c)) {
          return c;
        }
      }
      Thread.sleep(20);
    }
    throw new AssertionError("no " + method + " call arrived; calls: " + calls);
  }

  private void api(HttpExchange ex) throws IOException {
    try (ex) {
      String method = ex.getRequestURI().getPath().substring("/api/".length());
      String auth = ex.getRequestHeaders().getFirst("Authorization");
      Map<String, String> fields = form(ex.getRequestBody());
      AtomicInteger limited = rateLimited.get(method);
      if (limited != null && limited.getAndDecrement() > 0) {
        calls.add(new Call("429 " + method, fields));
        ex.getResponseHeaders().set("Retry-After", "1");
        send(ex, 429, JSON.createObjectNode().put("ok", false).put("error", "ratelimited"));
        return;
      }
      calls.add(new Call(method, fields));
      String expected = method.equals("apps.connections.open") ? APP_TOKEN : BOT_TOKEN;
      if (!("Bearer " + expected).equals(auth)) {
        send(ex, 200, JSON.createObjectNode().put("ok", false).put("error", "invalid_auth"));
        return;
      }
      ObjectNode answer = JSON.createObjectNode().put("ok", true);
      switch (method) {
        case "apps.connections.open" -> answer.put("url", socket.url().toString());
        case "chat.postMessage" -> answer.put("ts", "1700000000." + String.format("%06d", ts.incrementAndGet()))
            .put("channel", fields.get("channel"));
        case "chat.update" -> answer.put("ts", fields.get("ts"));
        case "files.getUploadURLExternal" -> {
          String id = "F" + ts.incrementAndGet();
          answer.put("upload_url", "http://127.0.0.1:" + server.getAddress().getPort() + "/upload/" + id).put("file_id", id);
        }
        case "files.completeUploadExternal" -> answer.putArray("files");
        default -> {
          answer.put("ok", false).put("error", "unknown_method");
        }
      }
      send(ex, 200, answer);
    }
  }

  private void upload(HttpExchange ex) throws IOException {
    try (ex) {
      String id = ex.getRequestURI().getPath().substring("/upload/".length());
      uploads.put(id, ex.getRequestBody().readAllBytes());
      ex.sendResponseHeaders(200, -1);
    }
  }

  private void download(HttpExchange ex) throws IOException {
    try (ex) {
      String id = ex.getRequestURI().getPath().substring("/files/".length());
      if (!("Bearer " + BOT_TOKEN).equals(ex.getRequestHeaders().getFirst("Authorization"))) {
        ex.sendResponseHeaders(403, -1);
        return;
      }
      byte[] bytes = files.get(id);
      if (bytes == null) {
        ex.sendResponseHeaders(404, -1);
        return;
      }
      downloads.add(id);
      ex.sendResponseHeaders(200, bytes.length);
      ex.getResponseBody().write(bytes);
    }
  }

  private static Map<String, String> form(InputStream in) throws IOException {
    Map<String, String> fields = new LinkedHashMap<>();
    String body = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    for (String pair : body.split("&")) {
      if (pair.isEmpty()) {
        continue;
      }
      int eq = pair.indexOf('=');
      fields.put(URLDecoder.decode(pair.substring(0, eq), StandardCharsets.UTF_8),
          URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
    }
    return fields;
  }

  private static void send(HttpExchange ex, int status, ObjectNode body) throws IOException {
    byte[] bytes = JSON.writeValueAsBytes(body);
    ex.getResponseHeaders().set("Content-Type", "application/json");
    ex.sendResponseHeaders(status, bytes.length);
    ex.getResponseBody().write(bytes);
  }

  /** A message event as Slack's Events API wraps it ({@code event_callback}). */
  public static ObjectNode message(String eventId, String channel, String ts, String text) {
    ObjectNode callback = JSON.createObjectNode().put("type", "event_callback").put("event_id", eventId).put("team_id", "T1");
    callback.putObject("event").put("type", "message").put("channel", channel).put("user", "U123").put("text", text).put("ts", ts);
    return callback;
  }

  /** Adds a file to a message event, as {@code event.files[]} describes it. */
  public static ObjectNode withFile(ObjectNode callback, String id, String name, long size, String mime, String url) {
    ObjectNode event = (ObjectNode) callback.get("event");
    event.put("subtype", "file_share");
    (event.has("files") ? (com.fasterxml.jackson.databind.node.ArrayNode) event.get("files") : event.putArray("files"))
        .addObject().put("id", id).put("name", name).put("size", size).put("mimetype", mime).put("url_private", url);
    return callback;
  }

  public List<Call> allCalls() {
    return new ArrayList<>(calls);
  }

  @Override
  public void close() {
    server.stop(0);
    socket.close();
  }
}
