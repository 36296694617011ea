package dev.tether.client.http;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tether.api.Frame;
import dev.tether.api.FrameCodec;
import dev.tether.api.ImageRefs;
import dev.tether.api.MediaType;
import dev.tether.api.Payload;
import dev.tether.api.SessionKey;
import dev.tether.api.TetherException;
import dev.tether.api.json.TetherJson;
import dev.tether.client.FramePage;
import dev.tether.client.HostAddress;
import dev.tether.client.SendReceipt;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.NoSuchFileException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.eclipse.jetty.client.BytesRequestContent;
import org.eclipse.jetty.client.CompletableResponseListener;
import org.eclipse.jetty.client.ContentResponse;
import org.eclipse.jetty.client.HttpClient;
import org.eclipse.jetty.client.Request;
import org.eclipse.jetty.client.transport.HttpClientTransportOverHTTP;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpMethod;
import org.eclipse.jetty.io.ClientConnector;
import org.eclipse.jetty.io.Transport;
import org.eclipse.jetty.util.ssl.SslContextFactory;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

/**
 * The HTTP transport under {@link HttpTetherClient}: {@code tether serve}'s HTTP API over a Unix
 * domain socket or TCP, with Jetty's asynchronous {@link HttpClient} ({@code java.net.http} cannot
 * speak Unix sockets), one method per endpoint, pages as {@link FramePage}, receipts as
 * {@link SendReceipt}. Package-private: users (the bridges, the MCP tools, the demo agent) take
 * {@link HttpTetherClient}, the public {@code TetherClient} over HTTP; only this package's tests
 * use the transport directly.
 *
 * <p>Every call returns a {@link CompletableFuture} that fails with {@link HttpError} for a
 * non-2xx answer (carrying the API's error code) or with an {@link IOException} when the host
 * cannot be reached. Thread-safe; close it to stop its threads.
 */
final class HttpTransport implements AutoCloseable {
  /** A non-2xx answer: the HTTP status and the API's {@code error.code} and message. */
  static final class HttpError extends IOException {
    private static final long serialVersionUID = 1L;
    final int status;
    final String code;
    final String detail;
    final int imageIndex;
    /** The answer's {@code Retry-After} in seconds, or -1 when it had none (or not in seconds). */
    final long retryAfterSeconds;

    HttpError(int status, String code, String message, int imageIndex) {
      this(status, code, message, imageIndex, -1);
    }

    HttpError(int status, String code, String message, int imageIndex, long retryAfterSeconds) {
      super(status + " " + code + ": " + message);
      this.status = status;
      this.code = code;
      this.detail = message;
      this.imageIndex = imageIndex;
      this.retryAfterSeconds = retryAfterSeconds;
    }
  }

  /** The cap on answers that are not pages (a POST's receipt, health): small JSON documents. */
  private static final int MAX_SMALL_RESPONSE_BYTES = 1 << 20;
  /** The most frames a page holds: the server clamps {@code limit} to this. */
  static final int MAX_PAGE_FRAMES = 200;
  /** The server's page size when a poll names none (or 0 or less). */
  private static final int DEFAULT_PAGE_FRAMES = 50;
  /** JSON around the frames of a page ({@code next_seq}, {@code gap}, ...) and between them. */
  private static final int PAGE_OVERHEAD_BYTES = 64 * 1024;
  private static final int PER_FRAME_OVERHEAD_BYTES = 1024;
  private static final JsonFactory PAGE_JSON = TetherJson.factory();
  private static final ObjectMapper MAPPER =
      new ObjectMapper(TetherJson.newFactory());

  private final HostAddress address;
  private final String authorization;
  private final String base;
  private volatile boolean blobImages;
  /** Guards {@link #http} and {@link #closed}. */
  private final Object lifecycle = new Object();
  /** Jetty's client, made by the first request; null before it. */
  private HttpClient http;
  private boolean closed;

  HttpTransport(HostAddress address, String token) {
    this.address = Objects.requireNonNull(address, "address");
    this.authorization = token == null ? null : "Bearer " + token;
    this.base = address instanceof HostAddress.Tcp tcp ? "http://" + tcp.host() + ":" + tcp.port() : "http://localhost";
  }

  /**
   * Jetty's client, made and started by the first request: a process that never reaches the host
   * ({@code tether mcp} answering {@code initialize}, a command refused for its flags) does not
   * load it or start its threads. After {@link #close()} a client is made but never started, so
   * a late request fails as it would on a stopped one.
   */
  private HttpClient http() {
    synchronized (lifecycle) {
      if (http == null) {
        QueuedThreadPool pool = new QueuedThreadPool(16, 2);
        pool.setName("tether-client");
        pool.setDaemon(true);
        HttpClient client = new HttpClient(new HttpClientTransportOverHTTP(plainConnector()));
        client.setExecutor(pool);
        client.setIdleTimeout(120_000);
        client.setMaxConnectionsPerDestination(2048);
        client.setMaxRequestsQueuedPerDestination(4096);
        client.setUserAgentField(null);
        if (!closed) {
          try {
            client.start();
          } catch (Exception e) {
            throw new IllegalStateException("cannot start the HTTP client", e);
          }
        }
        http = client;
      }
      return http;
    }
  }

  /**
   * A connector without TLS. The host is always reached over plain HTTP (a Unix socket or a
   * loopback {@code http://} address: {@link HostAddress} has no other kind), and Jetty's default
   * connector would load the JDK's TLS stack and trust store at start: a fifth of the start-up of
   * {@code tether mcp}, which a host agent spawns.
   */
  private static ClientConnector plainConnector() {
    return new ClientConnector() {
      @Override
      protected SslContextFactory.Client newSslContextFactory() {
        return null;
      }
    };
  }

  HostAddress address() {
    return address;
  }

  /**
   * How {@link #send(String, Frame)} sends images: false (the default) inline as they are; true
   * as blob refs, each image first stored with {@link #putBlob} (the host's ring then holds a few
   * hundred bytes per image instead of its base64). Polls always return images inline.
   */
  HttpTransport blobImages(boolean blobImages) {
    this.blobImages = blobImages;
    return this;
  }

  /** {@code POST /v1/instances/{id}/blob}: stores image bytes in the host's blob store; completes with the key. */
  CompletableFuture<String> putBlob(String instance, byte[] bytes, MediaType type) {
    Request r = request(HttpMethod.POST, instancePath(instance) + "/blob")
        .body(new BytesRequestContent(type.mimeType(), bytes))
        .timeout(60, TimeUnit.SECONDS);
    return exchange(r, MAX_SMALL_RESPONSE_BYTES).thenApply(HttpTransport::json).thenApply(n -> n.path("blob").asText());
  }

  /**
   * {@code GET /v1/instances/{id}/blob/{key}}: a blob's bytes, checked against the key. A missing
   * blob fails with {@link java.nio.file.NoSuchFileException}.
   */
  CompletableFuture<byte[]> blob(String instance, String key) {
    Request r = request(HttpMethod.GET, instancePath(instance) + "/blob/" + URLEncoder.encode(key, StandardCharsets.UTF_8))
        .timeout(60, TimeUnit.SECONDS);
    return exchange(r, (int) Math.min(Integer.MAX_VALUE - 8, FrameCodec.standard().limits().maxImageBytes() + 1)).thenApply(response -> {
      if (response.getStatus() == 404) {
        throw new CompletionException(new NoSuchFileException(key));
      }
      requireSuccess(response);
      byte[] bytes = response.getContent();
      Optional<MediaType> type = MediaType.forExtension(key.substring(key.lastIndexOf('.') + 1));
      if (type.isEmpty() || !ImageRefs.keyFor(bytes, type.get()).equals(key)) {
        throw new CompletionException(new IOException("blob " + key + " arrived with other bytes"));
      }
      return bytes;
    });
  }

  /** The cap on an attachment download: above any host's default limit (20 MiB), far below the heap. */
  static final int MAX_ATTACHMENT_BYTES = 64 << 20;

  /** {@code POST /v1/instances/{id}/attachments}: stores a file; completes with the host's JSON answer. */
  CompletableFuture<JsonNode> putAttachment(String instance, SessionKey session, String name, String mimeType,
      byte[] bytes) {
    Request r = request(HttpMethod.POST, attachmentsPath(instance, null, session) + "&name=" + URLEncoder.encode(name, StandardCharsets.UTF_8))
        .body(new BytesRequestContent(mimeType == null ? "application/octet-stream" : mimeType, bytes))
        .timeout(120, TimeUnit.SECONDS);
    return exchange(r, MAX_SMALL_RESPONSE_BYTES).thenApply(HttpTransport::json);
  }

  /** {@code GET /v1/instances/{id}/attachments}: the host's JSON list. */
  CompletableFuture<JsonNode> attachments(String instance, SessionKey session) {
    Request r = request(HttpMethod.GET, attachmentsPath(instance, null, session)).timeout(30, TimeUnit.SECONDS);
    return exchange(r, 16 << 20).thenApply(HttpTransport::json);
  }

  /** {@code GET /v1/instances/{id}/attachments/{name}}: the bytes. */
  CompletableFuture<byte[]> attachment(String instance, SessionKey session, String name) {
    Request r = request(HttpMethod.GET, attachmentsPath(instance, name, session)).timeout(120, TimeUnit.SECONDS);
    return exchange(r, MAX_ATTACHMENT_BYTES).thenApply(response -> {
      requireSuccess(response);
      return response.getContent();
    });
  }

  /** {@code DELETE /v1/instances/{id}/attachments/{name}}: removes it. */
  CompletableFuture<Void> deleteAttachment(String instance, SessionKey session, String name) {
    Request r = request(HttpMethod.DELETE, attachmentsPath(instance, name, session)).timeout(30, TimeUnit.SECONDS);
    return exchange(r, MAX_SMALL_RESPONSE_BYTES).thenApply(response -> {
      requireSuccess(response);
      return null;
    });
  }

  private static String attachmentsPath(String instance, String name, SessionKey session) {
    return instancePath(instance) + "/attachments"
        + (name == null ? "" : "/" + URLEncoder.encode(name, StandardCharsets.UTF_8).replace("+", "%20"))
        + "?session_id=" + URLEncoder.encode(session.id(), StandardCharsets.UTF_8)
        + "&channel=" + URLEncoder.encode(session.channel(), StandardCharsets.UTF_8);
  }

  /** The frames of {@code page} with every blob ref made inline, fetching the blobs from the host. */
  private CompletableFuture<FramePage> inlineRefs(String instance, FramePage page) {
    Map<String, CompletableFuture<byte[]>> fetches = new LinkedHashMap<>();
    for (Frame f : page.frames()) {
      for (ImageRefs.Ref ref : refsOrNone(f)) {
        fetches.computeIfAbsent(ref.key(), k -> blob(instance, k));
      }
    }
    if (fetches.isEmpty()) {
      return CompletableFuture.completedFuture(page);
    }
    return CompletableFuture.allOf(fetches.values().toArray(CompletableFuture[]::new)).handle((v, t) -> {
      List<Frame> frames = new ArrayList<>(page.frames().size());
      for (Frame f : page.frames()) {
        try {
          frames.add(ImageRefs.inline(f, ref -> {
            try {
              return fetches.get(ref.key()).join();
            } catch (CompletionException e) {
              if (e.getCause() instanceof IOException io) {
                throw io;
              }
              throw e;
            }
          }));
        } catch (IOException | RuntimeException e) {
          frames.add(f); // a blob gone since: the reader gets the ref, which it can report
        }
      }
      return new FramePage(frames, page.nextSeq(), page.timedOut(), page.gap(), page.oldestSeq());
    });
  }

  private static List<ImageRefs.Ref> refsOrNone(Frame f) {
    try {
      return ImageRefs.refs(f);
    } catch (RuntimeException e) {
      return List.of();
    }
  }

  /** POSTs one frame's wire bytes to {@code instance}. */
  CompletableFuture<SendReceipt> send(String instance, byte[] frameJson) {
    Request r = request(HttpMethod.POST, path(instance, ""))
        .body(new BytesRequestContent("application/json", frameJson))
        .timeout(60, TimeUnit.SECONDS);
    return exchange(r, MAX_SMALL_RESPONSE_BYTES).thenApply(HttpTransport::json).thenApply(node -> new SendReceipt(
        node.path("msg_id").asText(), node.path("session_id").asText(), node.path("ingress_seq").asLong()));
  }

  /** POSTs {@code frame}, its images as blob refs when {@link #blobImages(boolean)} is set. */
  CompletableFuture<SendReceipt> send(String instance, Frame frame) {
    if (!blobImages || refsOrNone(frame).size() == imageCount(frame)) {
      return send(instance, FrameCodec.standard().write(frame));
    }
    return CompletableFuture.supplyAsync(() -> {
      try {
        return ImageRefs.toRefs(frame, (bytes, type) -> {
          try {
            return putBlob(instance, bytes, type).get(60, TimeUnit.SECONDS);
          } catch (ExecutionException e) {
            throw e.getCause() instanceof IOException io ? io : new IOException(e.getCause());
          } catch (TimeoutException e) {
            throw new IOException("the host did not store a blob within 60 s", e);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted");
          }
        });
      } catch (IOException e) {
        throw new CompletionException(e);
      }
    }).thenCompose(f -> send(instance, FrameCodec.standard().write(f)));
  }

  private static int imageCount(Frame frame) {
    try {
      return imagesOf(frame.payloadView());
    } catch (RuntimeException e) {
      return 0;
    }
  }

  private static int imagesOf(Payload p) {
    if (p instanceof Payload.AssistantDone d) {
      return d.images().size();
    }
    if (p instanceof Payload.UserMessage m) {
      return m.images().size();
    }
    if (p instanceof Payload.AssistantMessage m) {
      return m.images().size();
    }
    return 0;
  }

  /**
   * Polls {@code instance}. Null filters are left out (the server's defaults apply); use
   * {@code "*"} for any channel or session.
   */
  CompletableFuture<FramePage> poll(String instance, String channel, String sessionId, long afterSeq, int limit,
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
    return exchange(r, maxPageBytes(limit, FrameCodec.standard().limits().maxFrameBytes()))
        .thenApply(HttpTransport::page)
        .thenCompose(p -> inlineRefs(instance, p));
  }

  /** A small JSON exchange with the host's API ({@code body} null: none); completes with the answer's JSON. */
  CompletableFuture<JsonNode> json(HttpMethod method, String path, byte[] body) {
    Request r = request(method, path).timeout(30, TimeUnit.SECONDS);
    if (body != null) {
      r.body(new BytesRequestContent("application/json", body));
    }
    return exchange(r, MAX_SMALL_RESPONSE_BYTES).thenApply(HttpTransport::json);
  }

  /** {@code GET /v1/health}: the number of waits (long-polls and streams) the host holds. */
  CompletableFuture<Integer> waitsHeld() {
    return exchange(request(HttpMethod.GET, "/v1/health").timeout(10, TimeUnit.SECONDS), MAX_SMALL_RESPONSE_BYTES)
        .thenApply(HttpTransport::json).thenApply(n -> n.path("waits").asInt());
  }

  /**
   * The response cap for a page of {@code limit} frames: the largest page the server can send,
   * {@code limit} frames of {@code maxFrameBytes} each plus the JSON around them, so no page the
   * server may legitimately send is ever refused (three unread 27 MB images used to exceed a
   * fixed 64 MiB cap and stop every later read). A Java array holds at most 2 GiB, which bounds
   * it; the server's own ring and store budgets keep real pages far smaller.
   */
  static int maxPageBytes(int limit, int maxFrameBytes) {
    int frames = limit <= 0 ? DEFAULT_PAGE_FRAMES : Math.min(limit, MAX_PAGE_FRAMES);
    long bytes = (long) frames * ((long) maxFrameBytes + PER_FRAME_OVERHEAD_BYTES) + PAGE_OVERHEAD_BYTES;
    return (int) Math.min(bytes, Integer.MAX_VALUE - 8);
  }

  /**
   * Parses a page with Jackson's streaming parser: each frame's bytes are located by offset,
   * skipped without decoding its strings, and read by the codec (which checks it like any frame
   * from the wire). Nothing is re-encoded and no tree of the page is built.
   */
  private static FramePage page(ContentResponse response) {
    requireSuccess(response);
    byte[] body = response.getContent();
    List<Frame> frames = new ArrayList<>();
    long nextSeq = 0;
    boolean timedOut = false;
    boolean gap = false;
    long oldestSeq = 0;
    try (JsonParser p = PAGE_JSON.createParser(body)) {
      if (p.nextToken() != JsonToken.START_OBJECT) {
        throw badPage(response, "a page must be a JSON object");
      }
      for (String name = p.nextFieldName(); name != null; name = p.nextFieldName()) {
        JsonToken t = p.nextToken();
        switch (name) {
          case "frames" -> {
            if (t != JsonToken.START_ARRAY) {
              throw badPage(response, "frames must be an array");
            }
            while (p.nextToken() == JsonToken.START_OBJECT) {
              int from = (int) p.currentTokenLocation().getByteOffset();
              p.skipChildren();
              int to = (int) p.currentLocation().getByteOffset();
              frames.add(FrameCodec.standard().read(Arrays.copyOfRange(body, from, to)));
            }
            if (p.currentToken() != JsonToken.END_ARRAY) {
              throw badPage(response, "frames must hold frame objects");
            }
          }
          case "next_seq" -> nextSeq = p.getValueAsLong();
          case "timed_out" -> timedOut = p.getValueAsBoolean();
          case "gap" -> gap = p.getValueAsBoolean();
          case "oldest_seq" -> oldestSeq = p.getValueAsLong();
          default -> p.skipChildren();
        }
      }
    } catch (IOException e) {
      throw badPage(response, e.getMessage());
    } catch (TetherException e) {
      throw badPage(response, "a frame in the page is invalid: " + e.getMessage());
    }
    return new FramePage(frames, nextSeq, timedOut, gap, oldestSeq);
  }

  private static CompletionException badPage(ContentResponse response, String why) {
    return new CompletionException(
        new HttpError(response.getStatus(), "BAD_RESPONSE", "the host answered with a bad page: " + why, -1));
  }

  private Request request(HttpMethod method, String pathAndQuery) {
    Request r = http().newRequest(base + pathAndQuery).method(method);
    if (address instanceof HostAddress.Unix unix) {
      r.transport(new Transport.TCPUnix(unix.path()));
    }
    if (authorization != null) {
      r.headers(h -> h.put(HttpHeader.AUTHORIZATION, authorization));
    }
    return r;
  }

  /** Sends {@code r}; cancelling the returned future aborts the request (a long-poll ends at once). */
  private static CompletableFuture<ContentResponse> exchange(Request r, int maxResponseBytes) {
    CompletableFuture<ContentResponse> sent = new CompletableResponseListener(r, maxResponseBytes).send();
    CompletableFuture<ContentResponse> result = sent.thenApply(x -> x);
    result.whenComplete((n, t) -> {
      if (result.isCancelled()) {
        r.abort(new CancellationException("cancelled by the caller"));
      }
    });
    return result;
  }

  /** A non-2xx answer becomes an {@link HttpError} with the API's error code. */
  private static void requireSuccess(ContentResponse response) {
    if (response.getStatus() / 100 != 2) {
      json(response);
    }
  }

  private static JsonNode json(ContentResponse response) {
    JsonNode node;
    try {
      node = MAPPER.readTree(response.getContent());
    } catch (IOException e) {
      throw new CompletionException(
          new HttpError(response.getStatus(), "BAD_RESPONSE", "the host answered with non-JSON: " + e.getMessage(), -1));
    }
    if (response.getStatus() / 100 != 2) {
      JsonNode err = node.path("error");
      throw new CompletionException(
          new HttpError(response.getStatus(), err.path("code").asText("HTTP_" + response.getStatus()),
              err.path("message").asText(), err.path("image_index").asInt(-1),
              retryAfterSeconds(response.getHeaders().get(HttpHeader.RETRY_AFTER))));
    }
    return node;
  }

  /** {@code Retry-After} as delta-seconds (0 to a day), else -1 (absent, an HTTP date, or malformed). */
  static long retryAfterSeconds(String header) {
    if (header == null) {
      return -1;
    }
    String v = header.strip();
    if (v.isEmpty() || v.length() > 9 || !v.chars().allMatch(c -> c >= '0' && c <= '9')) {
      return -1;
    }
    return Math.min(86_400, Long.parseLong(v));
  }

  private static String instancePath(String instance) {
    return "/v1/instances/" + URLEncoder.encode(instance, StandardCharsets.UTF_8).replace("+", "%20");
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
    HttpClient started;
    synchronized (lifecycle) {
      closed = true;
      started = http;
    }
    if (started == null) {
      return;
    }
    try {
      started.stop();
    } catch (Exception e) {
      System.getLogger(HttpTransport.class.getName()).log(System.Logger.Level.DEBUG, "stopping the HTTP client failed", e);
    }
  }
}
