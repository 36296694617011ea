package dev.tether.telegram.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.tether.images.ImageHeaders;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Predicate;

/**
 * A local Bot API server for tests, speaking the wire format of {@code api.telegram.org}: methods
 * at {@code /bot<token>/<method>} taking JSON, form or multipart bodies (multipart parsed for
 * real), answers {@code {"ok":true,"result":...}} or
 * {@code {"ok":false,"error_code","description","parameters":{"retry_after"}}}, and file downloads
 * at {@code /file/bot<token>/<file_path>}.
 *
 * <p>It records every method call (fields and uploaded files), every {@code getUpdates} offset and
 * every download, and applies the rules of the real methods that the bridge must respect
 * (text 1-4096 characters, caption at most 1024, {@code sendPhoto}'s size and dimension rules,
 * {@code getFile}'s 20 MB limit). Updates are kept like Telegram keeps them: an update is
 * confirmed, and never returned again, once {@code getUpdates} is called with a higher offset.
 * Failures can be scripted per method. Thread-safe.
 */
public final class RecordingBotApi implements AutoCloseable {
  public static final String TOKEN = "123456789:AAH-fakeTokenForTests_0123456789abc";

  /** One uploaded file of a multipart request. */
  public record Upload(String field, String fileName, String contentType, byte[] bytes) {}

  /** One method call as received. */
  public record Call(String method, Map<String, String> fields, Upload upload, long atNanos) {
    public long chatId() {
      return Long.parseLong(fields.get("chat_id"));
    }

    public String text() {
      return fields.get("text");
    }
  }

  private record StoredFile(byte[] bytes, String path, boolean declareSize) {}

  private record Failure(int status, String description, int retryAfter, String rawBody) {
    Failure(int status, String description, int retryAfter) {
      this(status, description, retryAfter, null);
    }
  }

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Duration AWAIT = Duration.ofSeconds(60);

  private final String token;
  private final HttpServer server;
  private final ExecutorService executor = Executors.newCachedThreadPool(r -> {
    Thread t = new Thread(r, "recording-bot-api");
    t.setDaemon(true);
    return t;
  });
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition changed = lock.newCondition();
  private final List<ObjectNode> updates = new ArrayList<>();
  private final List<Call> calls = new ArrayList<>();
  private final List<Call> delivered = new ArrayList<>();
  private final List<Long> offsets = new ArrayList<>();
  private final List<String> downloads = new ArrayList<>();
  private final Map<String, StoredFile> files = new HashMap<>();
  private final Map<String, Failure> fileErrors = new HashMap<>();
  private final Map<String, Deque<Failure>> failures = new HashMap<>();
  private long nextUpdateId = 500_000_001L;
  private long confirmedBelow;
  private long nextMessageId = 9000;
  private int fileCounter;

  public RecordingBotApi() throws IOException {
    this(TOKEN);
  }

  public RecordingBotApi(String token) throws IOException {
    this.token = token;
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.setExecutor(executor);
    server.createContext("/", this::handle);
    server.start();
  }

  public URI url() {
    return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
  }

  // ---- what the test puts in ----

  /** Queues an update with {@code message} as its {@code message}; returns its update_id. */
  public long addMessage(ObjectNode message) {
    ObjectNode update = JSON.createObjectNode();
    update.set("message", message);
    return addUpdate(update);
  }

  /** Queues an update of any kind (the update_id is set here); returns its update_id. */
  public long addUpdate(ObjectNode update) {
    lock.lock();
    try {
      long id = nextUpdateId++;
      ObjectNode withId = JSON.createObjectNode().put("update_id", id);
      withId.setAll(update);
      updates.add(withId);
      changed.signalAll();
      return id;
    } finally {
      lock.unlock();
    }
  }

  /** Stores a downloadable file; returns its file_id. getFile reports its size unless {@code declareSize} is false. */
  public String addFile(byte[] bytes, boolean declareSize) {
    lock.lock();
    try {
      String id = "file-" + (++fileCounter);
      files.put(id, new StoredFile(bytes, "photos/file_" + fileCounter + ".bin", declareSize));
      return id;
    } finally {
      lock.unlock();
    }
  }

  public String addFile(byte[] bytes) {
    return addFile(bytes, true);
  }

  /** getFile of {@code fileId} will answer this error. */
  public void failGetFile(String fileId, int status, String description) {
    lock.lock();
    try {
      fileErrors.put(fileId, new Failure(status, description, 0));
    } finally {
      lock.unlock();
    }
  }

  /** The next {@code times} calls of {@code method} answer {@code status} (with retry_after when > 0). */
  public void failNext(String method, int times, int status, String description, int retryAfter) {
    lock.lock();
    try {
      Deque<Failure> q = failures.computeIfAbsent(method, m -> new ArrayDeque<>());
      for (int i = 0; i < times; i++) {
        q.add(new Failure(status, description, retryAfter));
      }
    } finally {
      lock.unlock();
    }
  }

  /** The next call of {@code method} answers {@code status} with {@code body} as is (an HTML page from a proxy, say). */
  public void failNextWithRawBody(String method, int status, String body) {
    lock.lock();
    try {
      failures.computeIfAbsent(method, m -> new ArrayDeque<>()).add(new Failure(status, null, 0, body));
    } finally {
      lock.unlock();
    }
  }

  /** Ends scripted failures of {@code method}. */
  public void heal(String method) {
    lock.lock();
    try {
      failures.remove(method);
    } finally {
      lock.unlock();
    }
  }

  /** Acts as if the offsets above {@code updateId} never reached Telegram: later updates are returned again. */
  public void forgetConfirmationsAfter(long updateId) {
    lock.lock();
    try {
      confirmedBelow = Math.min(confirmedBelow, updateId + 1);
    } finally {
      lock.unlock();
    }
  }

  // ---- what the test reads back ----

  public List<Call> calls() {
    lock.lock();
    try {
      return List.copyOf(calls);
    } finally {
      lock.unlock();
    }
  }

  /** The calls of the methods named, in order; getUpdates and getFile are recorded too. */
  public List<Call> calls(String... methods) {
    List<String> names = List.of(methods);
    return calls().stream().filter(c -> names.contains(c.method())).toList();
  }

  /** The calls that put something in a chat and were answered ok, in order: sendMessage, sendPhoto, sendDocument, editMessageText. */
  public List<Call> delivered() {
    lock.lock();
    try {
      return List.copyOf(delivered);
    } finally {
      lock.unlock();
    }
  }

  /** Waits until {@code count} deliveries (answered ok) match {@code condition}; returns all deliveries. */
  public List<Call> awaitDelivered(Predicate<Call> condition, int count, Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    lock.lock();
    try {
      while (delivered.stream().filter(condition).count() < count) {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          throw new AssertionError("timed out waiting for " + count + " deliveries; delivered: " + describe(delivered)
              + "\nall calls: " + describe(calls));
        }
        changed.awaitNanos(left);
      }
      return List.copyOf(delivered);
    } finally {
      lock.unlock();
    }
  }

  /** Waits for one delivered sendMessage or caption to {@code chatId} whose text contains {@code part}. */
  public Call awaitText(long chatId, String part) throws InterruptedException {
    Predicate<Call> p = c -> c.chatId() == chatId
        && (c.fields().getOrDefault("text", "").contains(part) || c.fields().getOrDefault("caption", "").contains(part));
    return awaitDelivered(p, 1, AWAIT).stream().filter(p).findFirst().orElseThrow();
  }

  public List<Long> offsets() {
    lock.lock();
    try {
      return List.copyOf(offsets);
    } finally {
      lock.unlock();
    }
  }

  public List<String> downloads() {
    lock.lock();
    try {
      return List.copyOf(downloads);
    } finally {
      lock.unlock();
    }
  }

  /** Whether every queued update has been confirmed by a later getUpdates offset. */
  public boolean allConfirmed() {
    lock.lock();
    try {
      return updates.isEmpty() || confirmedBelow > updates.get(updates.size() - 1).get("update_id").asLong();
    } finally {
      lock.unlock();
    }
  }

  /** Waits until the recorded calls satisfy {@code condition}; fails the test after {@code timeout}. */
  public List<Call> await(Predicate<List<Call>> condition, Duration timeout, String what) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    lock.lock();
    try {
      while (!condition.test(calls)) {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          throw new AssertionError("timed out waiting for " + what + "; calls: " + describe(calls));
        }
        changed.awaitNanos(left);
      }
      return List.copyOf(calls);
    } finally {
      lock.unlock();
    }
  }

  public static String describe(List<Call> calls) {
    StringBuilder sb = new StringBuilder();
    for (Call c : calls) {
      if (!c.method().equals("getUpdates")) {
        Map<String, String> shown = new LinkedHashMap<>(c.fields());
        shown.computeIfPresent("text", (k, v) -> v.length() > 80 ? v.substring(0, 80) + "..." : v);
        sb.append("\n  ").append(c.method()).append(' ').append(shown)
            .append(c.upload() == null ? "" : " +" + c.upload().fileName() + " " + c.upload().bytes().length + " bytes");
      }
    }
    return sb.toString();
  }

  @Override
  public void close() {
    server.stop(0);
    executor.shutdownNow();
  }

  // ---- the server ----

  private void handle(HttpExchange ex) throws IOException {
    try (ex) {
      String path = ex.getRequestURI().getRawPath();
      String botPrefix = "/bot" + token + "/";
      String filePrefix = "/file/bot" + token + "/";
      if (path.startsWith(filePrefix)) {
        download(ex, URLDecoder.decode(path.substring(filePrefix.length()), StandardCharsets.UTF_8));
      } else if (path.startsWith(botPrefix)) {
        method(ex, path.substring(botPrefix.length()));
      } else if (path.startsWith("/bot") || path.startsWith("/file/bot")) {
        error(ex, 401, "Unauthorized", 0);
      } else {
        error(ex, 404, "Not Found", 0);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /**
   * Holds every file download (after recording it) until {@link #releaseDownloads}, so a test can
   * see what a bridge asks for while a download is in flight.
   */
  public void holdDownloads() {
    downloadGate = new java.util.concurrent.CountDownLatch(1);
  }

  public void releaseDownloads() {
    java.util.concurrent.CountDownLatch gate = downloadGate;
    downloadGate = null;
    if (gate != null) {
      gate.countDown();
    }
  }

  private volatile java.util.concurrent.CountDownLatch downloadGate;

  private void download(HttpExchange ex, String filePath) throws IOException, InterruptedException {
    StoredFile file;
    lock.lock();
    try {
      downloads.add(filePath);
      file = files.values().stream().filter(f -> f.path().equals(filePath)).findFirst().orElse(null);
      changed.signalAll();
    } finally {
      lock.unlock();
    }
    java.util.concurrent.CountDownLatch gate = downloadGate;
    if (gate != null) {
      gate.await(60, java.util.concurrent.TimeUnit.SECONDS);
    }
    if (file == null) {
      error(ex, 404, "Not Found", 0);
      return;
    }
    ex.getResponseHeaders().set("Content-Type", "application/octet-stream");
    ex.sendResponseHeaders(200, file.bytes().length);
    try (OutputStream out = ex.getResponseBody()) {
      out.write(file.bytes());
    } catch (IOException e) {
      // The bridge stopped reading at its cap: that is allowed.
    }
  }

  private void method(HttpExchange ex, String method) throws IOException, InterruptedException {
    Map<String, String> fields = new LinkedHashMap<>();
    Upload upload = readFields(ex, fields);
    Failure failure;
    lock.lock();
    try {
      calls.add(new Call(method, Map.copyOf(fields), upload, System.nanoTime()));
      changed.signalAll();
      Deque<Failure> q = failures.get(method);
      failure = q == null ? null : q.poll();
    } finally {
      lock.unlock();
    }
    if (failure != null && failure.rawBody() != null) {
      byte[] bytes = failure.rawBody().getBytes(StandardCharsets.UTF_8);
      ex.getResponseHeaders().set("Content-Type", "text/html");
      ex.sendResponseHeaders(failure.status(), bytes.length);
      try (OutputStream out = ex.getResponseBody()) {
        out.write(bytes);
      }
      return;
    }
    if (failure != null) {
      error(ex, failure.status(), failure.description(), failure.retryAfter());
      return;
    }
    Call call = new Call(method, Map.copyOf(fields), upload, System.nanoTime());
    if (answer(ex, method, fields, upload) == 200 && SENDING.contains(method)) {
      lock.lock();
      try {
        delivered.add(call);
        changed.signalAll();
      } finally {
        lock.unlock();
      }
    }
  }

  private static final java.util.Set<String> SENDING = java.util.Set.of("sendMessage", "sendPhoto", "sendDocument", "editMessageText");

  private int answer(HttpExchange ex, String method, Map<String, String> fields, Upload upload) throws IOException, InterruptedException {
    switch (method) {
      case "getUpdates":
        return getUpdates(ex, fields);
      case "getFile":
        return getFile(ex, fields.get("file_id"));
      case "sendMessage": {
        String text = fields.getOrDefault("text", "");
        if (text.isBlank()) {
          return error(ex, 400, "Bad Request: message text is empty", 0);
        } else if (text.length() > 4096) {
          return error(ex, 400, "Bad Request: message is too long", 0);
        }
        return ok(ex, message(fields).put("text", text));
      }
      case "editMessageText": {
        String text = fields.getOrDefault("text", "");
        if (text.isBlank() || text.length() > 4096) {
          return error(ex, 400, "Bad Request: MESSAGE_TOO_LONG", 0);
        }
        return ok(ex, message(fields).put("text", text));
      }
      case "sendPhoto":
      case "sendDocument":
        return sendFile(ex, method, fields, upload);
      case "sendChatAction":
        return ok(ex, JSON.getNodeFactory().booleanNode(true));
      default:
        return error(ex, 404, "Not Found", 0);
    }
  }

  private int sendFile(HttpExchange ex, String method, Map<String, String> fields, Upload upload) throws IOException {
    String field = method.equals("sendPhoto") ? "photo" : "document";
    if (upload == null || !upload.field().equals(field)) {
      return error(ex, 400, "Bad Request: there is no " + field + " in the request", 0);
    }
    if (fields.getOrDefault("caption", "").length() > 1024) {
      return error(ex, 400, "Bad Request: message caption is too long", 0);
    }
    if (method.equals("sendPhoto")) {
      if (upload.bytes().length > 10_000_000) {
        return error(ex, 400, "Bad Request: PHOTO_SAVE_FILE_INVALID", 0);
      }
      try {
        ImageHeaders.Dimensions d = ImageHeaders.dimensions(upload.bytes());
        long w = d.width();
        long h = d.height();
        if (w + h > 10_000 || Math.max(w, h) > 20 * Math.min(w, h)) {
          return error(ex, 400, "Bad Request: PHOTO_INVALID_DIMENSIONS", 0);
        }
      } catch (IllegalArgumentException e) {
        return error(ex, 400, "Bad Request: IMAGE_PROCESS_FAILED", 0);
      }
    }
    return ok(ex, message(fields));
  }

  private ObjectNode message(Map<String, String> fields) {
    long id;
    lock.lock();
    try {
      id = nextMessageId++;
    } finally {
      lock.unlock();
    }
    ObjectNode m = JSON.createObjectNode().put("message_id", id).put("date", 1_700_000_000L);
    m.putObject("chat").put("id", Long.parseLong(fields.getOrDefault("chat_id", "0"))).put("type", "private");
    return m;
  }

  private int getUpdates(HttpExchange ex, Map<String, String> fields) throws IOException, InterruptedException {
    long offset = Long.parseLong(fields.getOrDefault("offset", "0"));
    int timeout = Integer.parseInt(fields.getOrDefault("timeout", "0"));
    int limit = Integer.parseInt(fields.getOrDefault("limit", "100"));
    ArrayNode result = JSON.createArrayNode();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(timeout);
    lock.lock();
    try {
      offsets.add(offset);
      if (offset > 0) {
        confirmedBelow = Math.max(confirmedBelow, offset);
      }
      while (true) {
        for (ObjectNode u : updates) {
          if (u.get("update_id").asLong() >= confirmedBelow && result.size() < limit) {
            result.add(u);
          }
        }
        long left = deadline - System.nanoTime();
        if (!result.isEmpty() || left <= 0) {
          break;
        }
        changed.awaitNanos(left);
      }
    } finally {
      lock.unlock();
    }
    return ok(ex, result);
  }

  private int getFile(HttpExchange ex, String fileId) throws IOException {
    StoredFile file;
    Failure failure;
    lock.lock();
    try {
      file = files.get(fileId);
      failure = fileErrors.get(fileId);
    } finally {
      lock.unlock();
    }
    if (failure != null) {
      return error(ex, failure.status(), failure.description(), 0);
    } else if (file == null) {
      return error(ex, 400, "Bad Request: invalid file_id", 0);
    } else if (file.bytes().length > 20_000_000) {
      return error(ex, 400, "Bad Request: file is too big", 0);
    }
    ObjectNode f = JSON.createObjectNode().put("file_id", fileId).put("file_unique_id", "u" + fileId);
    if (file.declareSize()) {
      f.put("file_size", file.bytes().length);
    }
    return ok(ex, f.put("file_path", file.path()));
  }

  /** Reads the request's parameters from the query, a JSON, form or multipart body; returns the uploaded file, if any. */
  private static Upload readFields(HttpExchange ex, Map<String, String> fields) throws IOException {
    String query = ex.getRequestURI().getRawQuery();
    if (query != null) {
      form(query, fields);
    }
    byte[] body;
    try (InputStream in = ex.getRequestBody()) {
      body = in.readAllBytes();
    }
    String type = ex.getRequestHeaders().getFirst("Content-Type");
    if (type == null || body.length == 0) {
      return null;
    }
    if (type.startsWith("application/json")) {
      JsonNode root = JSON.readTree(body);
      root.properties().forEach(e -> fields.put(e.getKey(), e.getValue().isTextual() ? e.getValue().asText() : e.getValue().toString()));
      return null;
    }
    if (type.startsWith("application/x-www-form-urlencoded")) {
      form(new String(body, StandardCharsets.UTF_8), fields);
      return null;
    }
    if (type.startsWith("multipart/form-data")) {
      return MultipartParser.parse(type, body, fields);
    }
    throw new IOException("unsupported Content-Type " + type);
  }

  private static void form(String encoded, Map<String, String> fields) {
    for (String pair : encoded.split("&")) {
      int eq = pair.indexOf('=');
      if (eq > 0) {
        fields.put(URLDecoder.decode(pair.substring(0, eq), StandardCharsets.UTF_8),
            URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
      }
    }
  }

  private static int ok(HttpExchange ex, JsonNode result) throws IOException {
    ObjectNode body = JSON.createObjectNode().put("ok", true);
    body.set("result", result);
    send(ex, 200, body);
    return 200;
  }

  private static int error(HttpExchange ex, int status, String description, int retryAfter) throws IOException {
    ObjectNode body = JSON.createObjectNode().put("ok", false).put("error_code", status).put("description", description);
    if (retryAfter > 0) {
      body.putObject("parameters").put("retry_after", retryAfter);
    }
    send(ex, status, body);
    return status;
  }

  private static void send(HttpExchange ex, int status, JsonNode body) throws IOException {
    byte[] bytes = JSON.writeValueAsBytes(body);
    ex.getResponseHeaders().set("Content-Type", "application/json");
    ex.sendResponseHeaders(status, bytes.length);
    try (OutputStream out = ex.getResponseBody()) {
      out.write(bytes);
    }
  }
}
