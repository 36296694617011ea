package dev.tether.whatsapp.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tether.api.json.TetherJson;
import dev.tether.chat.ChatSecret;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/**
 * The WhatsApp Business Cloud API calls the bridge makes, over the JDK HTTP client, each with
 * {@code Authorization: Bearer} and the access token: resolve a media id to its short-lived URL
 * ({@code GET /<media-id>}), download it, upload media ({@code POST /<phone-number-id>/media}) and
 * send messages ({@code POST /<phone-number-id>/messages}).
 *
 * <p>Failures are {@link GraphApiException}s with a description a person can act on (see
 * {@link #describe}); network failures are {@link IOException}s. No method retries. Thread-safe.
 */
public final class GraphApi {
  /** The public Graph API, with the version this bridge was written against. */
  public static final URI PUBLIC_API = URI.create("https://graph.facebook.com/v21.0/");
  private static final ObjectMapper JSON = new ObjectMapper(TetherJson.newFactory());
  private static final int MAX_ANSWER = 1 << 20;
  private static final Set<Integer> RATE_LIMITS = Set.of(4, 80007, 130429, 131056);
  private static final Set<Integer> PLATFORM_FAILURES = Set.of(1, 2, 131000);

  /** What {@code GET /<media-id>} answers. */
  public record MediaUrl(URI url, String mimeType, long size) {}

  private final URI base;
  private final ChatSecret token;
  private final String phoneNumberId;
  private final HttpClient http;
  private final Duration timeout;

  public GraphApi(URI base, ChatSecret token, String phoneNumberId, HttpClient http, Duration timeout) {
    String b = Objects.requireNonNull(base, "base").toString();
    this.base = URI.create(b.endsWith("/") ? b : b + "/");
    this.token = Objects.requireNonNull(token, "token");
    this.phoneNumberId = Objects.requireNonNull(phoneNumberId, "phoneNumberId");
    this.http = Objects.requireNonNull(http, "http");
    this.timeout = Objects.requireNonNull(timeout, "timeout");
  }

  public String redact(String text) {
    return token.redact(text);
  }

  /** {@code GET /<media-id>}: the media's URL (valid for minutes), type and size, resolved now. */
  public MediaUrl resolve(String mediaId) throws IOException {
    if (!mediaId.matches("[0-9A-Za-z_.-]{1,128}")) {
      throw new IOException("a WhatsApp media id must be letters and digits but was '" + mediaId + "'");
    }
    JsonNode answer = call("media lookup", HttpRequest.newBuilder(base.resolve(mediaId)).GET());
    return new MediaUrl(URI.create(answer.path("url").asText()), answer.path("mime_type").asText("application/octet-stream"),
        answer.path("file_size").canConvertToLong() ? answer.path("file_size").asLong() : -1);
  }

  /**
   * Downloads a resolved media URL with the access token, reading at most {@code maxBytes} (empty
   * when larger). The token goes only to WhatsApp's media hosts ({@code *.whatsapp.net},
   * {@code *.fbcdn.net}, {@code lookaside.fbsbx.com} over https) or the configured API's origin.
   *
   * @throws GraphApiException with status 404 or 401/403 when the URL has expired (resolve again)
   */
  public Optional<byte[]> download(URI url, long maxBytes) throws IOException {
    if (!trustedMediaUrl(url)) {
      throw new IOException("refused to send the access token to " + url.getScheme() + "://" + url.getHost()
          + ": media is downloaded only from WhatsApp's hosts");
    }
    HttpRequest request = HttpRequest.newBuilder(url).timeout(timeout.multipliedBy(4))
        .header("Authorization", "Bearer " + token.reveal()).GET().build();
    HttpResponse<InputStream> response = send(request, "media download");
    try (InputStream in = response.body()) {
      if (response.statusCode() / 100 != 2) {
        in.readNBytes(MAX_ANSWER);
        throw new GraphApiException("media download", response.statusCode(), 0, "HTTP " + response.statusCode(), retryAfter(response));
      }
      byte[] bytes = in.readNBytes((int) Math.min(Integer.MAX_VALUE - 8, maxBytes + 1));
      return bytes.length > maxBytes ? Optional.empty() : Optional.of(bytes);
    }
  }

  /** {@code POST /<phone-number-id>/media}: uploads {@code bytes}; returns the new media id. */
  public String upload(String fileName, String mimeType, byte[] bytes) throws IOException {
    String boundary = "tether-" + UUID.randomUUID();
    ByteArrayOutputStream body = new ByteArrayOutputStream(bytes.length + 512);
    String head = "--" + boundary + "\r\nContent-Disposition: form-data; name=\"messaging_product\"\r\n\r\nwhatsapp\r\n"
        + "--" + boundary + "\r\nContent-Disposition: form-data; name=\"type\"\r\n\r\n" + mimeType + "\r\n"
        + "--" + boundary + "\r\nContent-Disposition: form-data; name=\"file\"; filename=\"" + fileName + "\"\r\n"
        + "Content-Type: " + mimeType + "\r\n\r\n";
    body.writeBytes(head.getBytes(StandardCharsets.UTF_8));
    body.writeBytes(bytes);
    body.writeBytes(("\r\n--" + boundary + "--\r\n").getBytes(StandardCharsets.UTF_8));
    HttpRequest.Builder request = HttpRequest.newBuilder(base.resolve(phoneNumberId + "/media")).timeout(timeout.multipliedBy(4))
        .header("Content-Type", "multipart/form-data; boundary=" + boundary)
        .POST(HttpRequest.BodyPublishers.ofByteArray(body.toByteArray()));
    return call("media upload", request).path("id").asText();
  }

  /** Sends a text message to {@code to}; returns its message id. */
  public String sendText(String to, String text) throws IOException {
    ObjectNode message = message(to, "text");
    message.putObject("text").put("preview_url", false).put("body", text);
    return send(message);
  }

  /** Sends an uploaded image to {@code to}, with {@code caption} (null for none); returns its message id. */
  public String sendImage(String to, String mediaId, String caption) throws IOException {
    ObjectNode message = message(to, "image");
    ObjectNode image = message.putObject("image").put("id", mediaId);
    if (caption != null && !caption.isEmpty()) {
      image.put("caption", caption);
    }
    return send(message);
  }

  private static ObjectNode message(String to, String type) {
    return JSON.createObjectNode().put("messaging_product", "whatsapp").put("recipient_type", "individual").put("to", to).put("type", type);
  }

  private String send(ObjectNode message) throws IOException {
    HttpRequest.Builder request = HttpRequest.newBuilder(base.resolve(phoneNumberId + "/messages"))
        .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofByteArray(JSON.writeValueAsBytes(message)));
    return call("send message", request).path("messages").path(0).path("id").asText("");
  }

  boolean trustedMediaUrl(URI url) {
    if (url == null || url.getHost() == null || url.getRawUserInfo() != null) {
      return false;
    }
    String host = url.getHost().toLowerCase(Locale.ROOT);
    boolean sameOrigin = Objects.equals(url.getScheme(), base.getScheme()) && Objects.equals(url.getHost(), base.getHost())
        && url.getPort() == base.getPort();
    return sameOrigin || "https".equals(url.getScheme())
        && (host.endsWith(".whatsapp.net") || host.endsWith(".fbcdn.net") || host.equals("lookaside.fbsbx.com"));
  }

  private JsonNode call(String what, HttpRequest.Builder builder) throws IOException {
    HttpRequest request = builder.timeout(timeout).header("Authorization", "Bearer " + token.reveal()).build();
    HttpResponse<InputStream> response = send(request, what);
    byte[] bytes;
    try (InputStream in = response.body()) {
      bytes = in.readNBytes(MAX_ANSWER);
    }
    JsonNode root;
    try {
      root = JSON.readTree(bytes);
    } catch (IOException e) {
      root = null;
    }
    if (response.statusCode() / 100 == 2 && root != null && !root.has("error")) {
      return root;
    }
    JsonNode error = root == null ? JSON.missingNode() : root.path("error");
    int code = error.path("code").asInt(0);
    String message = error.path("message").asText("HTTP " + response.statusCode());
    int status = response.statusCode() == 429 || RATE_LIMITS.contains(code) ? 429
        : PLATFORM_FAILURES.contains(code) ? 503 : response.statusCode() / 100 == 2 ? 400 : response.statusCode();
    throw new GraphApiException(what, status, code, redact(describe(code, message)), status == 429 ? Math.max(1, retryAfter(response)) : 0);
  }

  /** WhatsApp's refusal as a sentence a person can act on. */
  static String describe(int code, String message) {
    String m = message.length() > 300 ? message.substring(0, 300) : message;
    return switch (code) {
      case 131047 -> "outside the 24-hour customer service window (WhatsApp code 131047): the customer has not written in the"
          + " last 24 hours, so only an approved template message may be sent until they write again";
      case 131026 -> "the recipient cannot receive this message (WhatsApp code 131026): not a WhatsApp user, or an old app";
      case 190 -> "the access token is invalid or expired (WhatsApp code 190): create a new one and restart the bridge";
      case 131051 -> "WhatsApp does not support this message type (code 131051)";
      case 0 -> m;
      default -> m + " (WhatsApp code " + code + ")";
    };
  }

  private static int retryAfter(HttpResponse<?> response) {
    try {
      return (int) Math.min(3600, Long.parseLong(response.headers().firstValue("Retry-After").orElse("0").strip()));
    } catch (NumberFormatException e) {
      return 0;
    }
  }

  private HttpResponse<InputStream> send(HttpRequest request, String what) throws IOException {
    try {
      return http.send(request, HttpResponse.BodyHandlers.ofInputStream());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException(what + " interrupted");
    } catch (IOException e) {
      throw new IOException(what + ": " + redact(String.valueOf(e.getMessage())), e);
    }
  }
}
