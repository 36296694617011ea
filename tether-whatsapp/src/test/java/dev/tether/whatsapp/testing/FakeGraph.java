package dev.tether.whatsapp.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;

/**
 * A WhatsApp Cloud API stand-in on 127.0.0.1 speaking the Graph API's wire format: {@code GET
 * /v21.0/<media-id>} answering a short-lived media URL, the media download (bearer token
 * required; a URL can be made to expire), {@code POST /v21.0/<phone-number-id>/media} (multipart) and
 * {@code /messages} (JSON), Graph error objects ({@code 131047} outside the 24-hour window) and 429.
 */
public final class FakeGraph implements AutoCloseable {
  public static final String TOKEN = "EAAG-test-access-token-0123456789";
  public static final String PHONE_NUMBER_ID = "106540352242922";
  private static final ObjectMapper JSON = new ObjectMapper();

  private final HttpServer server;
  private final Map<String, byte[]> media = new ConcurrentHashMap<>();
  private final Map<String, String> mime = new ConcurrentHashMap<>();
  private final List<String> resolves = new CopyOnWriteArrayList<>();
  private final List<String> downloads = new CopyOnWriteArrayList<>();
  private final List<JsonNode> sent = new CopyOnWriteArrayList<>();
  private final List<byte[]> uploads = new CopyOnWriteArrayList<>();
  private final Set<String> expiredOnce = ConcurrentHashMap.newKeySet();
  private final Set<String> outsideWindow = ConcurrentHashMap.newKeySet();
  private final AtomicInteger rateLimited = new AtomicInteger();
  private final AtomicInteger throttled = new AtomicInteger();
  private final AtomicInteger ids = new AtomicInteger(1000);

  public FakeGraph() throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 50);
    server.createContext("/v21.0/", this::graph);
    server.createContext("/cdn/", this::cdn);
    server.start();
  }

  public URI graphUrl() {
    return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/v21.0/");
  }

  public void addMedia(String id, String mimeType, byte[] bytes) {
    media.put(id, bytes.clone());
    mime.put(id, mimeType);
  }

  /** The first URL handed out for {@code id} answers 404 when downloaded, as an expired one does. */
  public void expireFirstUrl(String id) {
    expiredOnce.add(id);
  }

  /** Messages to {@code waId} are refused with 131047 (the customer has not written for 24 hours). */
  public void outsideWindow(String waId) {
    outsideWindow.add(waId);
  }

  /** The next {@code n} sends answer 429 with Graph's rate-limit error 130429. */
  public void rateLimitSends(int n) {
    rateLimited.set(n);
  }

  /** How many sends were answered 429. */
  public int throttledSends() {
    return throttled.get();
  }

  public List<String> downloads() {
    return List.copyOf(downloads);
  }

  public List<String> resolves() {
    return List.copyOf(resolves);
  }

  public List<byte[]> uploads() {
    return List.copyOf(uploads);
  }

  public List<JsonNode> sent() {
    return List.copyOf(sent);
  }

  public JsonNode awaitSent(Predicate<JsonNode> test, Duration wait) throws InterruptedException {
    long end = System.nanoTime() + wait.toNanos();
    while (System.nanoTime() < end) {
      for (JsonNode m : sent) {
        if (test.test(m)) {
          return m;
        }
      }
      Thread.sleep(20);
    }
    throw new AssertionError("no such message was sent; sent: " + sent);
  }

  private void graph(HttpExchange ex) throws IOException {
    try (ex) {
      String path = ex.getRequestURI().getPath().substring("/v21.0/".length());
      byte[] body = ex.getRequestBody().readAllBytes();
      if (!("Bearer " + TOKEN).equals(ex.getRequestHeaders().getFirst("Authorization"))) {
        error(ex, 401, 190, "Invalid OAuth access token.");
        return;
      }
      if ("GET".equals(ex.getRequestMethod()) && media.containsKey(path)) {
        resolves.add(path);
        String expiry = expiredOnce.remove(path) ? "expired" : "fresh";
        send(ex, 200, JSON.createObjectNode().put("messaging_product", "whatsapp").put("id", path).put("mime_type", mime.get(path))
            .put("file_size", media.get(path).length)
            .put("url", "http://127.0.0.1:" + server.getAddress().getPort() + "/cdn/" + path + "?state=" + expiry));
      } else if (path.equals(PHONE_NUMBER_ID + "/media")) {
        uploads.add(fileOf(body, ex.getRequestHeaders().getFirst("Content-Type")));
        send(ex, 200, JSON.createObjectNode().put("id", "up" + ids.incrementAndGet()));
      } else if (path.equals(PHONE_NUMBER_ID + "/messages")) {
        JsonNode message = JSON.readTree(body);
        if (rateLimited.getAndDecrement() > 0) {
          throttled.incrementAndGet();
          error(ex, 429, 130429, "Rate limit hit");
          return;
        }
        if (outsideWindow.contains(message.path("to").asText())) {
          error(ex, 400, 131047, "Re-engagement message");
          return;
        }
        sent.add(message);
        ObjectNode answer = JSON.createObjectNode().put("messaging_product", "whatsapp");
        answer.putArray("messages").addObject().put("id", "wamid.out" + ids.incrementAndGet());
        send(ex, 200, answer);
      } else {
        error(ex, 404, 100, "Unsupported get request.");
      }
    }
  }

  private void cdn(HttpExchange ex) throws IOException {
    try (ex) {
      String id = ex.getRequestURI().getPath().substring("/cdn/".length());
      if (!("Bearer " + TOKEN).equals(ex.getRequestHeaders().getFirst("Authorization"))) {
        ex.sendResponseHeaders(401, -1);
        return;
      }
      if (String.valueOf(ex.getRequestURI().getQuery()).contains("expired") || !media.containsKey(id)) {
        ex.sendResponseHeaders(404, -1);
        return;
      }
      downloads.add(id);
      byte[] bytes = media.get(id);
      ex.sendResponseHeaders(200, bytes.length);
      ex.getResponseBody().write(bytes);
    }
  }

  /** The bytes of the multipart part named {@code file}. */
  private static byte[] fileOf(byte[] body, String contentType) {
    String boundary = "--" + contentType.substring(contentType.indexOf("boundary=") + 9);
    String text = new String(body, StandardCharsets.ISO_8859_1);
    int part = text.indexOf("name=\"file\"");
    int start = text.indexOf("\r\n\r\n", part) + 4;
    int end = text.indexOf("\r\n" + boundary, start);
    return text.substring(start, end).getBytes(StandardCharsets.ISO_8859_1);
  }

  private static void error(HttpExchange ex, int status, int code, String message) throws IOException {
    ObjectNode root = JSON.createObjectNode();
    root.putObject("error").put("message", message).put("type", "OAuthException").put("code", code).put("fbtrace_id", "Atest");
    send(ex, status, root);
  }

  private static void send(HttpExchange ex, int status, ObjectNode body) throws IOException {
    byte[] bytes = JSON.writeValueAsBytes(body);
    ex.getResponseHeaders().set("Content-Type", "application/json");
    ex.sendResponseHeaders(status, bytes.length);
    ex.getResponseBody().write(bytes);
  }

  /** A webhook delivery of one message, as WhatsApp posts it. */
  public static ObjectNode delivery(String from, String id, ObjectNode message) {
    ObjectNode root = JSON.createObjectNode().put("object", "whatsapp_business_account");
    ObjectNode value = root.putArray("entry").addObject().put("id", "WABA1").putArray("changes").addObject().put("field", "messages")
        .putObject("value").put("messaging_product", "whatsapp");
    value.putObject("metadata").put("display_phone_number", "15550001111").put("phone_number_id", PHONE_NUMBER_ID);
    value.putArray("contacts").addObject().put("wa_id", from).putObject("profile").put("name", "Kim");
    message.put("from", from).put("id", id).put("timestamp", "1700000000");
    value.putArray("messages").add(message);
    return root;
  }

  public static ObjectNode text(String body) {
    ObjectNode m = JSON.createObjectNode().put("type", "text");
    m.putObject("text").put("body", body);
    return m;
  }

  public static ObjectNode media(String type, String mediaId, String mimeType, String caption) {
    ObjectNode m = JSON.createObjectNode().put("type", type);
    ObjectNode node = m.putObject(type).put("id", mediaId).put("mime_type", mimeType);
    if (caption != null) {
      node.put("caption", caption);
    }
    return m;
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
