package dev.tether.cli;

import dev.tether.api.ErrorCode;
import dev.tether.api.Frame;
import dev.tether.api.MsgIds;
import dev.tether.api.SessionKey;
import dev.tether.api.TetherException;
import dev.tether.api.internal.ApiInternals;
import dev.tether.images.FrameValidator;
import dev.tether.store.QueryResult;
import dev.tether.store.TetherStore;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.Fields;

/**
 * The tether HTTP API over a {@link TetherStore}.
 *
 * <p>Design: every request is handled asynchronously. A body is read chunk by chunk as Jetty
 * demands it ({@link BodyReader}); a long-poll or stream waits on the store's
 * {@code CompletableFuture} and holds no thread until frames arrive or the wait times out; the
 * response is then written from a pool thread. Waits in progress are tracked so that
 * {@link #beginShutdown()} can answer each of them at once (an empty, timed-out page) before the
 * server stops, instead of letting them be cut off. A client that disconnects during a long-poll
 * is not noticed until the wait ends (HTTP/1.1 has no read interest while a GET is handled), which
 * costs a waiter entry for at most {@code wait_ms}, never a thread.
 *
 * <ul>
 *   <li>{@code POST /v1/instances/{id}/tether}: one frame, validated; returns
 *       {@code {msg_id, session_id, ingress_seq}}. A missing {@code msg_id} becomes
 *       {@code host-<nanos>}, a missing session {@code host:default}.
 *   <li>{@code GET /v1/instances/{id}/tether/poll}: see {@link PollParams}; returns
 *       {@code {frames, next_seq, timed_out}} (and {@code gap}, {@code oldest_seq}).
 *   <li>{@code GET /v1/instances/{id}/tether/stream}: NDJSON of stored frames, all channels
 *       unless filtered, from {@code after_seq} (default: only frames stored from now on).
 *   <li>{@code GET /v1/health}: {@code {"ok":true,"waits":N}}, N the long-polls and streams waiting.
 * </ul>
 *
 * Thread-safe.
 */
final class TetherHandler extends Handler.Abstract {

  private final TetherStore store;
  private final FrameValidator validator;
  private final byte[] token; // the bearer token's bytes; null: no authentication (Unix socket)
  private final Set<CompletableFuture<QueryResult>> waits = ConcurrentHashMap.newKeySet();
  private final IngressBudget ingressBudget;
  private final FailureLog failures = new FailureLog();
  private volatile boolean shuttingDown;
  private volatile Executor executor = Runnable::run;

  TetherHandler(TetherStore store, FrameValidator validator, String token) {
    this(store, validator, token, TetherServer.defaultIngressBytes());
  }

  /** As above, reading at most {@code ingressBytes} of request bodies at once (see {@link IngressBudget}). */
  TetherHandler(TetherStore store, FrameValidator validator, String token, long ingressBytes) {
    this.ingressBudget = new IngressBudget(ingressBytes);
    this.store = store;
    this.validator = validator;
    this.token = token == null ? null : token.getBytes(StandardCharsets.UTF_8);
  }

  @Override
  protected void doStart() throws Exception {
    if (getServer() != null && getServer().getThreadPool() != null) {
      executor = getServer().getThreadPool();
    }
    super.doStart();
  }

  /** Refuses new requests and answers every wait in progress at once. */
  void beginShutdown() {
    shuttingDown = true;
    for (CompletableFuture<QueryResult> w : waits) {
      w.cancel(false);
    }
  }

  /** The server's own failures so far (logged or rate-limited), for tests. */
  long failures() {
    return failures.total();
  }

  /** Waits in progress (long-polls and streams), for tests and the load report. */
  int waitsInProgress() {
    return waits.size();
  }

  @Override
  public boolean handle(Request request, Response response, Callback callback) {
    try {
      return route(request, response, callback);
    } catch (Throwable e) {
      fail(response, callback, e);
      return true;
    }
  }

  private boolean route(Request request, Response response, Callback callback) {
    if (token != null && !authorized(request)) {
      response.getHeaders().put(HttpHeader.WWW_AUTHENTICATE, "Bearer");
      return send(response, callback, ErrorCode.UNAUTHORIZED.httpStatus(), ErrorBody.of(ErrorCode.UNAUTHORIZED, "a valid 'Authorization: Bearer <token>' header is required"));
    }
    if (shuttingDown) {
      return send(response, callback, ErrorCode.SHUTTING_DOWN.httpStatus(), ErrorBody.of(ErrorCode.SHUTTING_DOWN, "the server is shutting down"));
    }
    String path = request.getHttpURI().getDecodedPath();
    String method = request.getMethod();
    if ("/v1/health".equals(path)) {
      return send(response, callback, 200, ("{\"ok\":true,\"waits\":" + waits.size() + "}\n").getBytes(StandardCharsets.US_ASCII));
    }
    String[] parts = path.split("/", -1);
    // "", "v1", "instances", id, "tether" [, "poll" | "stream"]
    if (parts.length < 5 || parts.length > 6 || !parts[0].isEmpty() || !"v1".equals(parts[1])
        || !"instances".equals(parts[2]) || parts[3].isEmpty() || !"tether".equals(parts[4])) {
      return send(response, callback, ErrorCode.NOT_FOUND.httpStatus(), ErrorBody.of(ErrorCode.NOT_FOUND, "no such endpoint: " + path));
    }
    String instance = parts[3];
    String action = parts.length == 6 ? parts[5] : "";
    switch (action) {
      case "" -> {
        if (!"POST".equals(method)) {
          return notAllowed(response, callback, "POST");
        }
        ingress(instance, request, response, callback);
      }
      case "poll", "stream" -> {
        if (!"GET".equals(method)) {
          return notAllowed(response, callback, "GET");
        }
        Fields fields = Request.extractQueryParameters(request);
        PollParams params;
        try {
          params = "poll".equals(action)
              ? PollParams.parseForPoll(fields::getValues)
              : PollParams.parse(fields::getValues, null, null);
        } catch (IllegalArgumentException e) {
          return send(response, callback, ErrorCode.INVALID_ARGUMENT.httpStatus(), ErrorBody.of(ErrorCode.INVALID_ARGUMENT, e.getMessage()));
        }
        if ("poll".equals(action)) {
          poll(instance, params, request, response, callback);
        } else {
          stream(instance, params, request, response, callback);
        }
      }
      default -> {
        return send(response, callback, ErrorCode.NOT_FOUND.httpStatus(), ErrorBody.of(ErrorCode.NOT_FOUND, "no such endpoint: " + path));
      }
    }
    return true;
  }

  private void ingress(String instance, Request request, Response response, Callback callback) {
    String refused = Encodings.refusal(request.getHeaders());
    if (refused != null) {
      int status = refused.startsWith("Content-Encoding") ? 415 : 501;
      write(response, status, ErrorBody.of(ErrorBody.codeFor(status), refused),
          Callback.from(() -> BodyDrainer.drain(request, callback, 2L * validator.limits().maxFrameBytes()), callback::failed));
      return;
    }
    int maxFrame = validator.limits().maxFrameBytes();
    long cost = IngressBudget.cost(request.getLength(), maxFrame);
    if (!ingressBudget.tryReserve(cost)) {
      // Reading one more large body could push the heap past its budget: refuse it before its
      // first byte is held, and discard what the client still sends.
      response.getHeaders().put(HttpHeader.RETRY_AFTER, "1");
      write(response, ErrorCode.UNAVAILABLE.httpStatus(), ErrorBody.of(ErrorCode.UNAVAILABLE,
              "the server is reading too many large requests at once; retry shortly"),
          Callback.from(() -> BodyDrainer.drain(request, callback, 2L * maxFrame), callback::failed));
      return;
    }
    BodyReader.read(request, maxFrame).whenComplete((body, failure) -> {
      try {
        if (failure != null) {
          refuseBody(unwrap(failure), request, response, callback, maxFrame);
          return;
        }
        validator.validate(body.buffer(), 0, body.length());
        Frame frame = ApiInternals.readShared(body.buffer(), 0, body.length());
        Frame.Builder b = frame.toBuilder();
        String msgId = frame.msgId().orElseGet(MsgIds::host);
        SessionKey session = frame.session().orElse(SessionKey.host(SessionKey.DEFAULT_ID));
        long seq = store.append(instance, b.msgId(msgId).session(session).build());
        send(response, callback, 200, FrameJson.accepted(msgId, session.id(), seq));
      } catch (Throwable e) { // an Error too: the request is answered, never left hanging
        fail(response, callback, e);
      } finally {
        ingressBudget.release(cost);
      }
    });
  }

  private void refuseBody(Throwable cause, Request request, Response response, Callback callback, int maxFrame) {
    if (cause instanceof TetherException e && e.code() == dev.tether.api.ErrorCode.FRAME_TOO_LARGE) {
      // Refused while the client may still be sending: answer, then discard the rest.
      write(response, e.code().httpStatus(), ErrorBody.of(e),
          Callback.from(() -> BodyDrainer.drain(request, callback, 2L * maxFrame), callback::failed));
    } else {
      fail(response, callback, cause); // a body cut short is over already: nothing to drain
    }
  }

  private void poll(String instance, PollParams params, Request request, Response response, Callback callback) {
    CompletableFuture<QueryResult> wait = store.waitForFrames(instance, params.query(), Duration.ofMillis(params.waitMs()));
    track(wait, request);
    wait.whenCompleteAsync((result, failure) -> {
      waits.remove(wait);
      if (failure != null && unwrap(failure) instanceof CancellationException) {
        // Shutdown, client gone or instance removed: an empty page that keeps the cursor.
        result = new QueryResult(List.of(), params.query().afterSeq(), true, false, 0);
      } else if (failure != null) {
        fail(response, callback, unwrap(failure));
        return;
      }
      try {
        send(response, callback, 200, FrameJson.pollResult(result));
      } catch (Throwable t) { // building a page of megabytes can run out of memory: answer anyway
        fail(response, callback, t);
      }
    }, executor);
  }

  private void stream(String instance, PollParams params, Request request, Response response, Callback callback) {
    long start = params.afterSeqGiven() ? params.query().afterSeq() : store.lastSeq(instance);
    response.setStatus(200);
    response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/x-ndjson");
    response.getHeaders().put(HttpHeader.CACHE_CONTROL, "no-store");
    NdjsonStream stream =
        new NdjsonStream(store, executor, waits, () -> shuttingDown, instance, params.query(), request, response, callback);
    // Commit the headers now, so the client knows the stream is open before the first frame.
    response.write(false, ByteBuffer.allocate(0), Callback.from(() -> stream.next(start), callback::failed));
  }

  private void track(CompletableFuture<QueryResult> wait, Request request) {
    if (wait.isDone()) {
      return;
    }
    waits.add(wait);
    request.addFailureListener(t -> wait.cancel(false));
    if (shuttingDown) {
      wait.cancel(false);
    }
  }

  /** RFC 9110 section 11.1: the scheme is case-insensitive, the token compared in constant time. */
  private boolean authorized(Request request) {
    String header = request.getHeaders().get(HttpHeader.AUTHORIZATION);
    if (header == null) {
      return false;
    }
    String h = header.strip();
    int space = h.indexOf(' ');
    if (space < 0 || !"bearer".equalsIgnoreCase(h.substring(0, space))) {
      return false;
    }
    return MessageDigest.isEqual(token, h.substring(space + 1).strip().getBytes(StandardCharsets.UTF_8));
  }

  private static boolean notAllowed(Response response, Callback callback, String allowed) {
    response.getHeaders().put(HttpHeader.ALLOW, allowed);
    return send(response, callback, ErrorCode.METHOD_NOT_ALLOWED.httpStatus(), ErrorBody.of(ErrorCode.METHOD_NOT_ALLOWED, "use " + allowed + " here"));
  }

  /**
   * Answers a failed request. Client faults ({@link TetherException}, bad parameters) are answered
   * and not logged; the server's own failures are logged through {@link FailureLog} (one stack
   * trace, then rate-limited lines) and answered 503 when memory ran out (retrying later can
   * succeed), else 500.
   */
  private void fail(Response response, Callback callback, Throwable failure) {
    if (failure instanceof TetherException e) {
      send(response, callback, e.code().httpStatus(), ErrorBody.of(e));
    } else if (failure instanceof IllegalArgumentException e) {
      send(response, callback, ErrorCode.INVALID_ARGUMENT.httpStatus(), ErrorBody.of(ErrorCode.INVALID_ARGUMENT, e.getMessage()));
    } else if (failure instanceof dev.tether.store.jetstream.StoreUnavailableException e) {
      // NATS unreachable or a stream leader election under way: retry later, not a server bug.
      response.getHeaders().put(HttpHeader.RETRY_AFTER, "1");
      send(response, callback, ErrorCode.UNAVAILABLE.httpStatus(), ErrorBody.of(ErrorCode.UNAVAILABLE, e.getMessage()));
    } else if (failure instanceof OutOfMemoryError) {
      failures.log("out of memory answering a request", failure);
      response.getHeaders().put(HttpHeader.RETRY_AFTER, "1");
      send(response, callback, ErrorCode.UNAVAILABLE.httpStatus(), ErrorBody.of(ErrorCode.UNAVAILABLE, "the server is out of memory; retry later"));
    } else {
      failures.log("request failed", failure);
      send(response, callback, ErrorCode.INTERNAL.httpStatus(), ErrorBody.of(ErrorCode.INTERNAL, "the server failed: " + failure));
    }
  }

  private static boolean send(Response response, Callback callback, int status, byte[] body) {
    write(response, status, body, callback);
    return true;
  }

  private static void write(Response response, int status, byte[] body, Callback written) {
    response.setStatus(status);
    response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/json");
    response.getHeaders().put(HttpHeader.CONTENT_LENGTH, body.length);
    response.write(true, ByteBuffer.wrap(body), written);
  }

  private static Throwable unwrap(Throwable t) {
    while (t instanceof CompletionException && t.getCause() != null) {
      t = t.getCause();
    }
    return t;
  }
}
