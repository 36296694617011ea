package dev.tether.telegram.internal;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tether.api.json.TetherJson;
import dev.tether.telegram.BotToken;
import dev.tether.telegram.TelegramChat;
import dev.tether.telegram.TelegramListener;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The Bot API methods the bridge calls, over the JDK {@link HttpClient} with Jackson.
 *
 * <p>Requests are {@code POST https://api.telegram.org/bot<token>/<method>} with a JSON body, or a
 * multipart body for uploads; answers are {@code {"ok":true,"result":...}} or
 * {@code {"ok":false,"error_code","description","parameters":{"retry_after"}}}, which becomes a
 * {@link BotApiException}. Network failures are {@link IOException}s. No method retries: that is
 * {@link Retrier}'s job. The token is in every URL, so no message this class builds contains a URL,
 * and every text taken from a response or a JDK exception is redacted.
 *
 * <p>Thread-safe: the HTTP client is shared, nothing else is mutable.
 */
public final class BotApi {
  /** The public Bot API. */
  public static final URI PUBLIC_API = URI.create("https://api.telegram.org");
  /** The Bot API's size limit for {@code getFile} downloads (20 MB). */
  public static final long GET_FILE_LIMIT = 20_000_000L;
  /** The largest API answer read (a page of 100 updates is far smaller). */
  private static final int MAX_RESPONSE_BYTES = 8 << 20;

  /** Bot API answers are read whole (at most {@code MAX_RESPONSE_BYTES}) before parsing. */
  private static final ObjectMapper JSON = JsonMapper.builder(TetherJson.newFactory())
      .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
      .build();

  private final String base;
  private final BotToken token;
  private final HttpClient http;
  private final Duration requestTimeout;

  /**
   * @param apiUrl the Bot API server, for example {@link #PUBLIC_API} or a local Bot API server
   * @param requestTimeout the timeout of a request that is not a long poll; a long poll adds its wait
   */
  public BotApi(URI apiUrl, BotToken token, HttpClient http, Duration requestTimeout) {
    String url = Objects.requireNonNull(apiUrl, "apiUrl").toString();
    this.base = url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
    this.token = Objects.requireNonNull(token, "token");
    this.http = Objects.requireNonNull(http, "http");
    this.requestTimeout = Objects.requireNonNull(requestTimeout, "requestTimeout");
  }

  private volatile TelegramListener listener = TelegramListener.NONE;

  /** Where this API's answers are told; set before the bridge starts. */
  public void listener(TelegramListener listener) {
    this.listener = Objects.requireNonNull(listener, "listener");
  }

  public BotToken token() {
    return token;
  }

  /** {@code getUpdates}: updates from {@code offset} on (confirming all before it), waiting up to {@code waitSeconds}. */
  public List<BotTypes.Update> getUpdates(long offset, int waitSeconds) throws IOException {
    ObjectNode body = JSON.createObjectNode()
        .put("offset", offset)
        .put("timeout", waitSeconds)
        .put("limit", 100);
    List<BotTypes.Update> updates = updatesOf(call("getUpdates", body, requestTimeout.plusSeconds(waitSeconds)));
    listener.updatesReceived(updates.size());
    return updates;
  }

  /**
   * The updates of a {@code getUpdates} result. An update with a malformed message is kept, without
   * its message, so the bridge skips and confirms it.
   *
   * @throws IOException when the result is not an array of objects with a numeric {@code update_id}
   */
  static List<BotTypes.Update> updatesOf(JsonNode result) throws IOException {
    if (result == null || !result.isArray()) {
      throw new IOException("getUpdates answered a result that is not an array");
    }
    List<BotTypes.Update> updates = new ArrayList<>(result.size());
    for (JsonNode node : result) {
      updates.add(update(node));
    }
    return updates;
  }

  /** Reads one update; a malformed message becomes a message-less update, never an exception. */
  static BotTypes.Update update(JsonNode node) throws IOException {
    JsonNode id = node.isObject() ? node.get("update_id") : null;
    if (id == null || !id.canConvertToLong()) {
      throw new IOException("getUpdates answered an update without a numeric update_id");
    }
    String kind = "empty";
    for (Iterator<String> names = node.fieldNames(); names.hasNext(); ) {
      String name = names.next();
      if (!name.equals("update_id")) {
        kind = name;
        break;
      }
    }
    BotTypes.Message message = null;
    if (kind.equals("message")) {
      try {
        message = JSON.treeToValue(node.get("message"), BotTypes.Message.class);
        if (message != null && !message.isWellFormed()) {
          message = null;
        }
      } catch (JsonProcessingException | IllegalArgumentException e) {
        message = null; // Wrong JSON types: skipped like any update the bridge does not handle.
      }
    }
    return new BotTypes.Update(id.asLong(), kind, message);
  }

  /** {@code getFile}: the path to download a file from; fails for files over 20 MB. */
  public BotTypes.File getFile(String fileId) throws IOException {
    JsonNode result = call("getFile", JSON.createObjectNode().put("file_id", fileId), requestTimeout);
    return JSON.treeToValue(result, BotTypes.File.class);
  }

  /**
   * Downloads {@code /file/bot<token>/<filePath>}, reading at most {@code maxBytes}: empty when the
   * file is larger (the download stops there), without trusting any declared size.
   */
  public Optional<byte[]> download(String filePath, long maxBytes) throws IOException {
    HttpRequest request = HttpRequest.newBuilder(URI.create(base + "/file/bot" + token.value() + "/" + pathOf(filePath)))
        .timeout(requestTimeout.multipliedBy(4))
        .GET()
        .build();
    HttpResponse<InputStream> response = send(request, "download", HttpResponse.BodyHandlers.ofInputStream());
    try (InputStream in = response.body()) {
      if (response.statusCode() != 200) {
        byte[] error = in.readNBytes(64 << 10);
        throw failure("download", response.statusCode(), error);
      }
      byte[] bytes = in.readNBytes((int) Math.min(Integer.MAX_VALUE - 8, maxBytes + 1));
      return bytes.length > maxBytes ? Optional.empty() : Optional.of(bytes);
    }
  }

  /** {@code sendMessage} of plain text (no parse mode, so the agent's text is shown as written). */
  public BotTypes.Sent sendMessage(TelegramChat chat, String text) throws IOException {
    ObjectNode body = target(chat).put("text", text);
    return JSON.treeToValue(call("sendMessage", body, requestTimeout), BotTypes.Sent.class);
  }

  /** {@code editMessageText} of a message the bot sent. */
  public void editMessageText(TelegramChat chat, long messageId, String text) throws IOException {
    ObjectNode body = JSON.createObjectNode().put("chat_id", chat.chatId()).put("message_id", messageId).put("text", text);
    call("editMessageText", body, requestTimeout);
  }

  /** {@code sendChatAction}, for example {@code typing}; it shows for 5 seconds or until the next message. */
  public void sendChatAction(TelegramChat chat, String action) throws IOException {
    call("sendChatAction", target(chat).put("action", action), requestTimeout);
  }

  /** Sends {@code upload} ({@code sendPhoto} or {@code sendDocument}, multipart). */
  public BotTypes.Sent sendFile(PhotoUpload upload) throws IOException {
    HttpRequest request = HttpRequest.newBuilder(methodUri(upload.method()))
        .timeout(requestTimeout.multipliedBy(4))
        .header("Content-Type", upload.contentType())
        .POST(HttpRequest.BodyPublishers.fromPublisher(HttpRequest.BodyPublishers.ofByteArrays(upload.body().pieces()),
            upload.body().length()))
        .build();
    return JSON.treeToValue(ListenedCall.of(listener, upload.method(), () -> result(upload.method(),
        send(request, upload.method(), HttpResponse.BodyHandlers.ofInputStream()))), BotTypes.Sent.class);
  }

  private ObjectNode target(TelegramChat chat) {
    ObjectNode body = JSON.createObjectNode().put("chat_id", chat.chatId());
    chat.threadId().ifPresent(t -> body.put("message_thread_id", t));
    return body;
  }

  private JsonNode call(String method, ObjectNode body, Duration timeout) throws IOException {
    HttpRequest request = HttpRequest.newBuilder(methodUri(method))
        .timeout(timeout)
        .header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofByteArray(JSON.writeValueAsBytes(body)))
        .build();
    JsonNode result = ListenedCall.of(listener, method, () -> result(method, send(request, method,
        HttpResponse.BodyHandlers.ofInputStream())));
    return result;
  }

  private URI methodUri(String method) {
    return URI.create(base + "/bot" + token.value() + "/" + method);
  }

  private <T> HttpResponse<T> send(HttpRequest request, String method, HttpResponse.BodyHandler<T> handler)
      throws IOException {
    try {
      return http.send(request, handler);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException(method + " was interrupted");
    } catch (IOException e) {
      // The JDK's messages may quote the URL, and with it the token: keep only a redacted text.
      throw new IOException(method + " failed: " + token.redact(String.valueOf(e)));
    }
  }

  private JsonNode result(String method, HttpResponse<InputStream> response) throws IOException {
    byte[] bytes;
    try (InputStream in = response.body()) {
      bytes = in.readNBytes(MAX_RESPONSE_BYTES + 1);
    }
    if (bytes.length > MAX_RESPONSE_BYTES) {
      throw new IOException(method + " answered more than " + MAX_RESPONSE_BYTES + " bytes");
    }
    if (response.statusCode() / 100 != 2) {
      throw failure(method, response.statusCode(), bytes);
    }
    JsonNode root = parse(bytes);
    if (root == null || !root.path("ok").asBoolean(false) || !root.has("result")) {
      throw failure(method, response.statusCode(), bytes);
    }
    return root.get("result");
  }

  private BotApiException failure(String method, int status, byte[] body) {
    JsonNode root = parse(body);
    int code = status;
    String description = "HTTP " + status;
    int retryAfter = 0;
    if (root != null && root.isObject()) {
      code = root.path("error_code").asInt(status);
      description = root.path("description").asText(description);
      retryAfter = Math.max(0, root.path("parameters").path("retry_after").asInt(0));
    }
    if (description.length() > 300) {
      description = description.substring(0, 300) + "...";
    }
    return new BotApiException(method, code, token.redact(description), retryAfter);
  }

  private static JsonNode parse(byte[] bytes) {
    try {
      return JSON.readTree(bytes);
    } catch (IOException e) {
      return null;
    }
  }

  /** A {@code file_path} as a URL path: each segment percent-encoded, so a hostile path cannot leave /file/. */
  static String pathOf(String filePath) throws IOException {
    if (filePath == null || filePath.isEmpty()) {
      throw new IOException("getFile answered no file_path");
    }
    StringBuilder sb = new StringBuilder();
    for (String segment : filePath.split("/", -1)) {
      if (segment.isEmpty() || segment.equals(".") || segment.equals("..")) {
        throw new IOException("getFile answered an unusable file_path");
      }
      if (sb.length() > 0) {
        sb.append('/');
      }
      sb.append(URLEncoder.encode(segment, StandardCharsets.UTF_8).replace("+", "%20"));
    }
    return sb.toString();
  }
}
