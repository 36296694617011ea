package dev.tether.slack.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tether.api.json.TetherJson;
import dev.tether.chat.ChatSecret;
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
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The Slack Web API calls the bridge makes, over the JDK HTTP client (Slack's Java SDK,
 * {@code com.slack.api:slack-api-client}, is not served by this build's registry; the calls are
 * plain form posts). Every call sends {@code Authorization: Bearer} with the bot token, except
 * {@code apps.connections.open}, which takes the app-level token.
 *
 * <p>Failures: HTTP 429 (with {@code Retry-After} seconds) and 5xx, and {@code ok:false} answers,
 * are {@link SlackApiException}s; network failures are {@link IOException}s. No method retries:
 * that is {@link dev.tether.chat.ChatRetrier}'s job. Thread-safe.
 */
public final class SlackApi {
  /** The public Web API. */
  public static final URI PUBLIC_API = URI.create("https://slack.com/api/");
  private static final ObjectMapper JSON = new ObjectMapper(TetherJson.newFactory());
  /** Largest answer read from a Web API method (they are small JSON objects). */
  private static final int MAX_ANSWER = 1 << 20;
  private static final Set<String> SLACK_FAILURES = Set.of("internal_error", "fatal_error", "service_unavailable", "request_timeout");

  private final URI base;
  private final ChatSecret botToken;
  private final ChatSecret appToken;
  private final HttpClient http;
  private final Duration timeout;

  /** @param appToken the {@code xapp-} token for Socket Mode, or null when events come over HTTP */
  public SlackApi(URI base, ChatSecret botToken, ChatSecret appToken, HttpClient http, Duration timeout) {
    String b = Objects.requireNonNull(base, "base").toString();
    this.base = URI.create(b.endsWith("/") ? b : b + "/");
    this.botToken = Objects.requireNonNull(botToken, "botToken");
    this.appToken = appToken;
    this.http = Objects.requireNonNull(http, "http");
    this.timeout = Objects.requireNonNull(timeout, "timeout");
  }

  /** The secrets' redaction of {@code text}. */
  public String redact(String text) {
    String t = botToken.redact(text);
    return appToken == null ? t : appToken.redact(t);
  }

  URI base() {
    return base;
  }

  /** {@code apps.connections.open}: a fresh Socket Mode WebSocket URL. */
  public URI openConnection() throws IOException {
    if (appToken == null) {
      throw new IllegalStateException("Socket Mode needs the app-level token");
    }
    return URI.create(call("apps.connections.open", Map.of(), appToken).path("url").asText());
  }

  /** {@code chat.postMessage} of plain text in a thread; returns the message's {@code ts}. */
  public String postMessage(String channel, String threadTs, String text) throws IOException {
    Map<String, String> form = new LinkedHashMap<>();
    form.put("channel", channel);
    form.put("thread_ts", threadTs);
    form.put("text", text);
    return call("chat.postMessage", form, botToken).path("ts").asText();
  }

  /** {@code chat.update} of a message the bot posted. */
  public void update(String channel, String ts, String text) throws IOException {
    call("chat.update", Map.of("channel", channel, "ts", ts, "text", text), botToken);
  }

  /** The answer of {@code files.getUploadURLExternal}. */
  public record UploadTarget(URI uploadUrl, String fileId) {}

  /** {@code files.getUploadURLExternal}: where to post {@code length} bytes of {@code filename}. */
  public UploadTarget uploadTarget(String filename, long length) throws IOException {
    JsonNode answer = call("files.getUploadURLExternal", Map.of("filename", filename, "length", Long.toString(length)), botToken);
    URI url = URI.create(answer.path("upload_url").asText());
    if (!"https".equals(url.getScheme()) && !sameOrigin(url)) {
      throw new IOException("files.getUploadURLExternal answered an upload URL that is not https");
    }
    return new UploadTarget(url, answer.path("file_id").asText());
  }

  /** Posts the bytes to the upload URL (step two of the external upload). */
  public void upload(UploadTarget target, byte[] bytes) throws IOException {
    HttpRequest request = HttpRequest.newBuilder(target.uploadUrl()).timeout(timeout.multipliedBy(4))
        .header("Content-Type", "application/octet-stream")
        .POST(HttpRequest.BodyPublishers.ofByteArray(bytes)).build();
    HttpResponse<InputStream> response = send(request, "file upload");
    try (InputStream in = response.body()) {
      in.readNBytes(MAX_ANSWER);
    }
    if (response.statusCode() / 100 != 2) {
      throw failure("file upload", response.statusCode(), "HTTP " + response.statusCode(), response);
    }
  }

  /** {@code files.completeUploadExternal}: shares the uploaded file in the thread, with {@code comment} (may be null). */
  public void completeUpload(UploadTarget target, String title, String channel, String threadTs, String comment) throws IOException {
    Map<String, String> form = new LinkedHashMap<>();
    form.put("files", JSON.createArrayNode().add(JSON.createObjectNode().put("id", target.fileId()).put("title", title)).toString());
    form.put("channel_id", channel);
    form.put("thread_ts", threadTs);
    if (comment != null && !comment.isEmpty()) {
      form.put("initial_comment", comment);
    }
    call("files.completeUploadExternal", form, botToken);
  }

  /**
   * Downloads a file's {@code url_private} with the bot token, reading at most {@code maxBytes}
   * (empty when it is larger). The token goes only to Slack's own hosts ({@code *.slack.com} over
   * https) or the configured API's origin; any other URL is refused before a request is made.
   */
  public Optional<byte[]> download(URI url, long maxBytes) throws IOException {
    if (!trustedFileUrl(url)) {
      throw new IOException("refused to send the bot token to " + url.getScheme() + "://" + url.getHost()
          + ": files are downloaded only from Slack's hosts");
    }
    HttpRequest request = HttpRequest.newBuilder(url).timeout(timeout.multipliedBy(4))
        .header("Authorization", "Bearer " + botToken.reveal()).GET().build();
    HttpResponse<InputStream> response = send(request, "file download");
    try (InputStream in = response.body()) {
      if (response.statusCode() / 100 != 2) {
        in.readNBytes(MAX_ANSWER);
        throw failure("file download", response.statusCode(), "HTTP " + response.statusCode(), response);
      }
      byte[] bytes = in.readNBytes((int) Math.min(Integer.MAX_VALUE - 8, maxBytes + 1));
      return bytes.length > maxBytes ? Optional.empty() : Optional.of(bytes);
    }
  }

  /** Whether the bot token may be sent to {@code url}. */
  boolean trustedFileUrl(URI url) {
    if (url == null || url.getHost() == null || url.getRawUserInfo() != null) {
      return false;
    }
    String host = url.getHost().toLowerCase(Locale.ROOT);
    return sameOrigin(url) || "https".equals(url.getScheme()) && (host.equals("slack.com") || host.endsWith(".slack.com"));
  }

  private boolean sameOrigin(URI url) {
    return Objects.equals(url.getScheme(), base.getScheme()) && Objects.equals(url.getHost(), base.getHost())
        && url.getPort() == base.getPort();
  }

  private JsonNode call(String method, Map<String, String> form, ChatSecret token) throws IOException {
    String body = form.entrySet().stream()
        .map(e -> URLEncoder.encode(e.getKey(), StandardCharsets.UTF_8) + "=" + URLEncoder.encode(e.getValue(), StandardCharsets.UTF_8))
        .collect(Collectors.joining("&"));
    HttpRequest request = HttpRequest.newBuilder(base.resolve(method)).timeout(timeout)
        .header("Content-Type", "application/x-www-form-urlencoded; charset=utf-8")
        .header("Authorization", "Bearer " + token.reveal())
        .POST(HttpRequest.BodyPublishers.ofString(body)).build();
    HttpResponse<InputStream> response = send(request, method);
    byte[] bytes;
    try (InputStream in = response.body()) {
      bytes = in.readNBytes(MAX_ANSWER);
    }
    if (response.statusCode() / 100 != 2) {
      throw failure(method, response.statusCode(), "HTTP " + response.statusCode(), response);
    }
    JsonNode root;
    try {
      root = JSON.readTree(bytes);
    } catch (IOException e) {
      throw new SlackApiException(method, 502, "an answer that is not JSON", 0);
    }
    if (root == null || !root.path("ok").asBoolean(false)) {
      String error = root == null ? "no answer" : root.path("error").asText("unknown_error");
      error = error.length() > 200 ? error.substring(0, 200) : error;
      int code = "ratelimited".equals(error) ? 429 : SLACK_FAILURES.contains(error) ? 503 : 400;
      throw new SlackApiException(method, code, redact(error), code == 429 ? retryAfter(response) : 0);
    }
    return root;
  }

  private SlackApiException failure(String method, int status, String description, HttpResponse<?> response) {
    return new SlackApiException(method, status, description, status == 429 ? retryAfter(response) : 0);
  }

  private static int retryAfter(HttpResponse<?> response) {
    try {
      return (int) Math.min(3600, Math.max(1, Long.parseLong(response.headers().firstValue("Retry-After").orElse("1").strip())));
    } catch (NumberFormatException e) {
      return 1;
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
