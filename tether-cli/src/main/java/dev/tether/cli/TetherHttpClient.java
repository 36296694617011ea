package dev.tether.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tether.api.Frame;
import dev.tether.api.FrameCodec;
import dev.tether.api.TetherException;
import java.io.IOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.client.BytesRequestContent;
import org.eclipse.jetty.client.CompletableResponseListener;
import org.eclipse.jetty.client.ContentResponse;
import org.eclipse.jetty.client.HttpClient;
import org.eclipse.jetty.client.Request;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpMethod;
import org.eclipse.jetty.io.Transport;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

/**
 * A client of the tether HTTP API, over a Unix domain socket or TCP, with Jetty's asynchronous
 * {@link HttpClient} ({@code java.net.http} cannot speak Unix sockets).
 *
 * <p>Every call returns a {@link CompletableFuture} that fails with {@link HttpError} for a
 * non-2xx answer (carrying the API's error code) or with an {@link IOException} when the host
 * cannot be reached. Thread-safe; close it to stop its threads.
 */
final class TetherHttpClient implements AutoCloseable {
  /** A non-2xx answer: the HTTP status and the API's {@code error.code} and message. */
  static final class HttpError extends IOException {
    private static final long serialVersionUID = 1L;
    final int status;
    final String code;
    final String detail;
    final int imageIndex;

    HttpError(int status, String code, String message, int imageIndex) {
      super(status + " " + code + ": " + message);
      this.status = status;
      this.code = code;
      this.detail = message;
      this.imageIndex = imageIndex;
    }
  }

  /** The answer to a POST: the frame's id, session id and seq. */
  record Accepted(String msgId, String sessionId, long ingressSeq) {}

  /** A page of a poll. */
  record Page(List<Frame> frames, long nextSeq, boolean timedOut, boolean gap, long oldestSeq) {}

  private static final int MAX_RESPONSE_BYTES = 64 << 20;

  private final HttpClient http;
  private final Address address;
  private final String authorization;
  private final String base;

  TetherHttpClient(Address address, String token) {
    this.address = Objects.requireNonNull(address, "address");
    this.authorization = token == null ? null : "Bearer " + token;
    QueuedThreadPool pool = new QueuedThreadPool(16, 2);
    pool.setName("tether-client");
    pool.setDaemon(true);
    this.http = new HttpClient();
    http.setExecutor(pool);
    http.setIdleTimeout(120_000);
    http.setMaxConnectionsPerDestination(2048);
    http.setMaxRequestsQueuedPerDestination(4096);
    http.setUserAgentField(null);
    this.base = address instanceof Address.Tcp tcp ? "http://" + tcp.host() + ":" + tcp.port() : "http://localhost";
    try {
      http.start();
    } catch (Exception e) {
      throw new IllegalStateException("cannot start the HTTP client", e);
    }
  }

  Address address() {
    return address;
  }

  /** POSTs one frame's wire bytes to {@code instance}. */
  CompletableFuture<Accepted> send(String instance, byte[] frameJson) {
    Request r = request(HttpMethod.POST, path(instance, ""))
        .body(new BytesRequestContent("application/json", frameJson))
        .timeout(60, TimeUnit.SECONDS);
    return exchange(r).thenApply(node -> new Accepted(
        node.path("msg_id").asText(), node.path("session_id").asText(), node.path("ingress_seq").asLong()));
  }

  /** POSTs {@code frame}. */
  CompletableFuture<Accepted> send(String instance, Frame frame) {
    return send(instance, FrameCodec.standard().write(frame));
  }

  /**
   * Polls {@code instance}. Null filters are left out (the server's defaults apply); use
   * {@code "*"} for any channel or session.
   */
  CompletableFuture<Page> poll(String instance, String channel, String sessionId, long afterSeq, int limit,
      long waitMs, Collection<String> types, String replyToMsgId) {
    StringBuilder q = new StringBuilder("?after_seq=").append(afterSeq).append("&wait_ms=").append(waitMs);
    param(q, "channel", channel);
    param(q, "session_id", sessionId);
    if (limit > 0) {
      q.append("&limit=").append(limit);
    }
    if (types != null && !types.isEmpty()) {
      param(q, "types", String.join(",", types));
    }
    param(q, "reply_to_msg_id", replyToMsgId);
    Request r = request(HttpMethod.GET, path(instance, "/poll") + q).timeout(waitMs + 30_000, TimeUnit.MILLISECONDS);
    return exchange(r).thenApply(TetherHttpClient::page);
  }

  /** {@code GET /v1/health}: the number of waits (long-polls and streams) the host holds. */
  CompletableFuture<Integer> waitsHeld() {
    return exchange(request(HttpMethod.GET, "/v1/health").timeout(10, TimeUnit.SECONDS))
        .thenApply(n -> n.path("waits").asInt());
  }

  private static Page page(JsonNode node) {
    List<Frame> frames = new ArrayList<>();
    for (JsonNode f : node.path("frames")) {
      try {
        frames.add(FrameCodec.standard().read(Json.MAPPER.writeValueAsBytes(f)));
      } catch (IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
    }
    return new Page(frames, node.path("next_seq").asLong(), node.path("timed_out").asBoolean(),
        node.path("gap").asBoolean(), node.path("oldest_seq").asLong());
  }

  private Request request(HttpMethod method, String pathAndQuery) {
    Request r = http.newRequest(base + pathAndQuery).method(method);
    if (address instanceof Address.Unix unix) {
      r.transport(new Transport.TCPUnix(unix.path()));
    }
    if (authorization != null) {
      r.headers(h -> h.put(HttpHeader.AUTHORIZATION, authorization));
    }
    return r;
  }

  /** Sends {@code r}; cancelling the returned future aborts the request (a long-poll ends at once). */
  private static CompletableFuture<JsonNode> exchange(Request r) {
    CompletableFuture<ContentResponse> sent = new CompletableResponseListener(r, MAX_RESPONSE_BYTES).send();
    CompletableFuture<JsonNode> result = sent.thenApply(TetherHttpClient::json);
    result.whenComplete((n, t) -> {
      if (result.isCancelled()) {
        r.abort(new java.util.concurrent.CancellationException("cancelled by the caller"));
      }
    });
    return result;
  }

  private static JsonNode json(ContentResponse response) {
    JsonNode node;
    try {
      node = Json.MAPPER.readTree(response.getContent());
    } catch (IOException e) {
      throw new java.util.concurrent.CompletionException(
          new HttpError(response.getStatus(), "BAD_RESPONSE", "the host answered with non-JSON: " + e.getMessage(), -1));
    }
    if (response.getStatus() / 100 != 2) {
      JsonNode err = node.path("error");
      throw new java.util.concurrent.CompletionException(
          new HttpError(response.getStatus(), err.path("code").asText("HTTP_" + response.getStatus()),
              err.path("message").asText(), err.path("image_index").asInt(-1)));
    }
    return node;
  }

  private static String path(String instance, String suffix) {
    return "/v1/instances/" + URLEncoder.encode(instance, StandardCharsets.UTF_8).replace("+", "%20") + "/tether" + suffix;
  }

  private static void param(StringBuilder q, String name, String value) {
    if (value != null) {
      q.append('&').append(name).append('=').append(URLEncoder.encode(value, StandardCharsets.UTF_8));
    }
  }

  @Override
  public void close() {
    try {
      http.stop();
    } catch (Exception e) {
      System.getLogger(TetherHttpClient.class.getName()).log(System.Logger.Level.DEBUG, "stopping the HTTP client failed", e);
    }
  }
}
