package dev.tether.client.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.tether.api.ErrorCode;
import dev.tether.api.Frame;
import dev.tether.api.MediaType;
import dev.tether.api.SessionKey;
import dev.tether.api.TetherException;
import dev.tether.client.AttachmentClient;
import dev.tether.client.AttachmentInfo;
import dev.tether.client.FramePage;
import dev.tether.client.HostAddress;
import dev.tether.client.PollRequest;
import dev.tether.client.SendReceipt;
import dev.tether.client.TetherClient;
import dev.tether.client.TokenFile;
import java.io.IOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.eclipse.jetty.client.HttpResponseException;
import org.eclipse.jetty.http.HttpMethod;

/**
 * The {@link TetherClient} of a remote host, over its HTTP API ({@code POST .../tether},
 * {@code GET .../tether/poll}, {@code .../blob}, {@code .../attachments}): what {@code tether mcp --host},
 * {@code tether coven}, {@code tether telegram} and any Java service use to reach a
 * {@code tether serve} or an embedded {@code dev.tether.server.TetherServer}. The in-process twin
 * is {@code dev.tether.store.StoreTetherClient}; both answer alike.
 *
 * <pre>{@code
 * try (HttpTetherClient client = HttpTetherClient.builder(HostAddress.parse("127.0.0.1:8731"))
 *     .tokenFile(Path.of(System.getProperty("user.home"), ".tether", "token"))
 *     .build()) {
 *   client.send("default", frame).join();
 * }
 * }</pre>
 *
 * <p>A poll's null channel or session is sent as {@code *} (any), as the contract says. Images
 * stored as blob refs come back inline (fetched from the host's blob endpoint), or as the ref when
 * the blob is gone. Cancelling a poll aborts the HTTP request in flight. A refusal completes the
 * future with a {@link TetherException}: the host's code when it is a known, definite one; else
 * {@code INVALID_ARGUMENT}, {@code UNAUTHORIZED} or {@code NOT_FOUND} for any other 4xx (retrying
 * cannot help). 5xx answers and transport failures are {@link java.io.IOException}s (the host may
 * recover).
 *
 * <p>Sends ({@link #send}, {@link #putBlob}, {@link #putAttachment}) answered 429
 * {@code RATE_LIMITED} (the host's ingress rate limit) are sent again after the host's
 * {@code Retry-After}, without holding a thread, within the bounds of
 * {@link Builder#rateLimitRetries} (default 8 retries within 60 s); past them the call fails with
 * {@link RateLimitedException}. A 429 stores nothing, so nothing is sent twice. Cancelling the
 * call stops the retries. Thread-safe; {@link #close()} stops its threads.
 */
public final class HttpTetherClient implements TetherClient, AttachmentClient {
  private final HttpTransport http;
  private final RateLimitRetry retry;

  HttpTetherClient(HttpTransport http) {
    this(http, RateLimitRetry.DEFAULT);
  }

  HttpTetherClient(HttpTransport http, RateLimitRetry retry) {
    this.http = Objects.requireNonNull(http, "http");
    this.retry = Objects.requireNonNull(retry, "retry");
  }

  /** A builder of a client of the host at {@code address}. */
  public static Builder builder(HostAddress address) {
    return new Builder(address);
  }

  /** Where this client sends its requests. */
  public HostAddress address() {
    return http.address();
  }

  /**
   * Stores image bytes in the instance's blob store ({@code POST /v1/instances/{id}/blob}) and
   * completes with their key, which a frame can then carry as a blob ref. The host validates the
   * bytes as an image of {@code type}.
   */
  public CompletableFuture<String> putBlob(String instance, byte[] bytes, MediaType type) {
    Objects.requireNonNull(bytes, "bytes");
    Objects.requireNonNull(type, "type");
    return failingWithTranslation(retry.call(() -> http.putBlob(instance, bytes, type)), instance);
  }

  /**
   * The bytes of a blob ({@code GET /v1/instances/{id}/blob/{key}}), checked against the key's
   * hash. A missing blob fails with {@link java.nio.file.NoSuchFileException}.
   */
  public CompletableFuture<byte[]> blob(String instance, String key) {
    Objects.requireNonNull(key, "key");
    return failingWithTranslation(http.blob(instance, key), instance);
  }

  /** {@inheritDoc} ({@code POST /v1/instances/{id}/attachments}; the body is {@code bytes}, the {@code Content-Type} {@code mimeType}.) */
  @Override
  public CompletableFuture<AttachmentInfo> putAttachment(String instance, SessionKey session, String fileName,
      String mimeType, byte[] bytes) {
    Objects.requireNonNull(session, "session");
    Objects.requireNonNull(fileName, "fileName");
    Objects.requireNonNull(bytes, "bytes");
    return failingWithTranslation(retry.call(() -> http.putAttachment(instance, session, fileName, mimeType, bytes))
        .thenApply(HttpTetherClient::attachmentInfo), instance);
  }

  /** {@inheritDoc} ({@code GET /v1/instances/{id}/attachments}.) */
  @Override
  public CompletableFuture<List<AttachmentInfo>> attachments(String instance, SessionKey session) {
    Objects.requireNonNull(session, "session");
    return failingWithTranslation(http.attachments(instance, session).thenApply(n -> {
      List<AttachmentInfo> out = new ArrayList<>();
      n.path("attachments").forEach(a -> out.add(attachmentInfo(a)));
      return List.copyOf(out);
    }), instance);
  }

  /** {@inheritDoc} ({@code GET /v1/instances/{id}/attachments/{name}}, at most 64 MiB.) */
  @Override
  public CompletableFuture<byte[]> attachment(String instance, SessionKey session, String name) {
    Objects.requireNonNull(session, "session");
    Objects.requireNonNull(name, "name");
    return failingWithTranslation(http.attachment(instance, session, name), instance);
  }

  /** {@inheritDoc} ({@code DELETE /v1/instances/{id}/attachments/{name}}.) */
  @Override
  public CompletableFuture<Void> deleteAttachment(String instance, SessionKey session, String name) {
    Objects.requireNonNull(session, "session");
    Objects.requireNonNull(name, "name");
    return failingWithTranslation(http.deleteAttachment(instance, session, name), instance);
  }

  private static AttachmentInfo attachmentInfo(JsonNode n) {
    try {
      return new AttachmentInfo(n.path("name").asText(), n.path("mime_type").asText(), n.path("size").asLong(),
          Instant.parse(n.path("added_at").asText()));
    } catch (RuntimeException e) {
      throw new CompletionException(new IOException("the host answered with a bad attachment entry: " + e.getMessage(), e));
    }
  }

  @Override
  public CompletableFuture<SendReceipt> send(String instance, Frame frame) {
    return failingWithTranslation(retry.call(() -> http.send(instance, frame)), instance);
  }

  @Override
  public CompletableFuture<FramePage> poll(String instance, PollRequest r) {
    return failingWithTranslation(http.poll(instance, r.channel() == null ? "*" : r.channel(),
        r.sessionId() == null ? "*" : r.sessionId(), r.afterSeq(), r.limit(), r.waitMs(), r.types(), r.replyToMsgId()),
        instance);
  }

  @Override
  public void close() {
    http.close();
  }

  /** {@code call} with a host's refusal {@link #translate translated}; cancelling it cancels {@code call}. */
  private static <T> CompletableFuture<T> failingWithTranslation(CompletableFuture<T> call, String instance) {
    CompletableFuture<T> result = new CompletableFuture<>();
    call.whenComplete((value, failure) -> {
      if (failure != null) {
        result.completeExceptionally(translate(failure, instance));
      } else {
        result.complete(value);
      }
    });
    result.whenComplete((value, failure) -> {
      if (result.isCancelled()) {
        call.cancel(false); // aborts the request: a long-poll ends at once
      }
    });
    return result;
  }

  /**
   * A host's refusal with a known error code becomes a TetherException with that code; any other
   * 4xx one coded INVALID_ARGUMENT, UNAUTHORIZED or NOT_FOUND (the request itself is wrong, so
   * retrying cannot help); 5xx and transport failures pass through as
   * {@link java.io.IOException}s (the host may recover).
   */
  static Throwable translate(Throwable t, String instance) {
    Throwable cause = t instanceof CompletionException && t.getCause() != null ? t.getCause() : t;
    if (cause instanceof HttpTransport.HttpError e) {
      Optional<ErrorCode> known = ErrorCode.parse(e.code).filter(c -> !c.retryable());
      if (known.isPresent() && known.get() != ErrorCode.INSTANCE_NOT_FOUND) {
        ErrorCode code = known.get();
        return e.imageIndex >= 0 ? TetherException.forImage(code, e.imageIndex, e.detail) : TetherException.of(code, e.detail);
      }
      if (e.status / 100 == 4 && e.status != 408 && e.status != 429) {
        String said = e.status + " " + e.code + (e.detail == null || e.detail.isEmpty() ? "" : ": " + e.detail);
        return refused(e.status, e.code, said, instance);
      }
    }
    if (cause instanceof HttpResponseException e && e.getResponse() != null
        && e.getResponse().getStatus() / 100 == 4) {
      // Jetty refuses some answers itself, such as a 401 without a WWW-Authenticate header.
      int status = e.getResponse().getStatus();
      return refused(status, "HTTP_" + status, status + ": " + e.getMessage(), instance);
    }
    return cause;
  }

  /**
   * Mints a token that opens only {@code instance} ({@code POST /v1/tokens}; needs the host token
   * or the Unix socket). The answer is the only time the secret is shown.
   */
  public CompletableFuture<InstanceToken> mintToken(String instance) {
    byte[] body = ("{\"instance\":" + TextNode.valueOf(Objects.requireNonNull(instance, "instance"))
        + "}").getBytes(StandardCharsets.UTF_8);
    return failingWithTranslation(http.json(HttpMethod.POST, "/v1/tokens", body)
        .thenApply(HttpTetherClient::token), instance);
  }

  /** The instance tokens of the host, without their secrets ({@code GET /v1/tokens}). */
  public CompletableFuture<List<InstanceToken>> tokens() {
    return failingWithTranslation(http.json(HttpMethod.GET, "/v1/tokens", null).thenApply(a -> {
      List<InstanceToken> out = new ArrayList<>();
      a.forEach(n -> out.add(token(n)));
      return List.copyOf(out);
    }), "");
  }

  /** Revokes the token with {@code id} ({@code DELETE /v1/tokens/{id}}); fails with {@code NOT_FOUND} when there is none. */
  public CompletableFuture<Void> revokeToken(String id) {
    String path = "/v1/tokens/" + URLEncoder.encode(Objects.requireNonNull(id, "id"), StandardCharsets.UTF_8);
    return failingWithTranslation(http.json(HttpMethod.DELETE, path, null).thenApply(n -> (Void) null), "");
  }

  private static InstanceToken token(JsonNode n) {
    return new InstanceToken(n.path("id").asText(), n.path("instance").asText(), Instant.parse(n.path("created_at").asText()),
        n.hasNonNull("token") ? n.get("token").asText() : null);
  }

  /**
   * Configures an {@link HttpTetherClient}. Not thread-safe.
   */
  public static final class Builder {
    private final HostAddress address;
    private String token;
    private Path tokenFile;
    private boolean blobImages;
    private RateLimitRetry retry = RateLimitRetry.DEFAULT;

    private Builder(HostAddress address) {
      this.address = Objects.requireNonNull(address, "address");
    }

    /** The host's bearer token (TCP only; a Unix socket needs none). */
    public Builder token(String token) {
      this.token = Objects.requireNonNull(token, "token");
      return this;
    }

    /** Reads the bearer token from this file at {@link #build()}, with the rules of {@link dev.tether.client.TokenFile}. */
    public Builder tokenFile(Path file) {
      this.tokenFile = Objects.requireNonNull(file, "file");
      return this;
    }

    /**
     * Whether {@link HttpTetherClient#send} uploads a frame's inline images first and sends them
     * as blob refs (the host's ring then holds a few hundred bytes per image instead of its
     * base64). Polls always return images inline. Default: false.
     */
    public Builder blobImages(boolean blobImages) {
      this.blobImages = blobImages;
      return this;
    }

    /**
     * How a send answered 429 {@code RATE_LIMITED} is retried: at most {@code maxRetries} times
     * after the first attempt, each after the host's {@code Retry-After}, and never waiting more
     * than {@code maxWait} in all; then it fails with {@link RateLimitedException}. {@code 0} retries:
     * the first 429 fails at once. Default: 8 retries within 60 s.
     *
     * @throws IllegalArgumentException when {@code maxRetries} or {@code maxWait} is negative
     */
    public Builder rateLimitRetries(int maxRetries, Duration maxWait) {
      this.retry = new RateLimitRetry(maxRetries, Objects.requireNonNull(maxWait, "maxWait"));
      return this;
    }

    /**
     * A started client; it connects on first use.
     *
     * @throws IllegalStateException when both a token and a token file were set
     * @throws IllegalArgumentException when the token file breaks a rule of {@link dev.tether.client.TokenFile}
     * @throws java.io.IOException when the token file cannot be read
     */
    public HttpTetherClient build() throws IOException {
      if (token != null && tokenFile != null) {
        throw new IllegalStateException("set token(...) or tokenFile(...), not both");
      }
      String bearer = token != null ? token : tokenFile != null ? TokenFile.read(tokenFile) : null;
      return new HttpTetherClient(new HttpTransport(address, bearer).blobImages(blobImages), retry);
    }
  }

  private static Throwable refused(int status, String code, String said, String instance) {
    if ("INSTANCE_NOT_FOUND".equals(code)) {
      return TetherException.of(ErrorCode.INSTANCE_NOT_FOUND, "no instance named '" + instance + "'");
    }
    ErrorCode refusal = switch (status) {
      case 401, 403 -> ErrorCode.UNAUTHORIZED;
      case 404 -> ErrorCode.NOT_FOUND;
      default -> ErrorCode.INVALID_ARGUMENT;
    };
    String advice = refusal == ErrorCode.UNAUTHORIZED ? "; check the host's bearer token (--token-file of tether mcp, --host-token-file of the bridges)" : "";
    return TetherException.of(refusal, "the tether host refused the request: " + said + advice);
  }
}
