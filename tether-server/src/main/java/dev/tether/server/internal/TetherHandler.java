package dev.tether.server.internal;

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
 * costs a waiter entry for at most {@code wait_ms}, never a thread. Each wait and stream is also
 * filed in {@link Grants} under its instance and the instance token that let it in, so revoking
 * the token or deleting the instance ends it at once (401 or 404 for a poll, the last chunk for a
 * stream). The path and query are decoded once, up front: a malformed encoding is 400
 * {@code INVALID_ARGUMENT}, never a server failure.
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
 *   <li>{@code GET /v1/ready}: 200 {@code {"ready":true}} when the store is ready, else 503
 *       {@code UNAVAILABLE} with the reason (see {@link ReadyRoute}).
 * </ul>
 *
 * Thread-safe.
 */
final class TetherHandler extends Handler.Abstract {

  private final TetherStore store;
  private final InstanceRegistry registry;
  private final InstanceRoutes instances;
  private final FrameValidator validator;
  private final BearerAuth auth; // null: no authentication (Unix socket)
  private static final int SMALL_BODY_BYTES = 64 * 1024;
  private final Set<CompletableFuture<QueryResult>> waits = ConcurrentHashMap.newKeySet();
  private final InstanceTokens tokens;
  private final Blobs blobs;
  private final AttachmentStore attachments;
  private final TokenRoutes tokenRoutes;
  private final ByteBudget ingressBudget;
  private final ByteBudget egressBudget;
  private final Duration requestIdleTimeout;
  private final DiskBudget disk;
  private final WaitSlots slots;
  private final Grants grants;
  private final FailureLog failures = new FailureLog();
  private volatile boolean shuttingDown;
  private volatile Executor executor = Runnable::run;
  private volatile dev.tether.server.ServerListener listener = dev.tether.server.ServerListener.NONE;
  private final java.util.concurrent.atomic.AtomicInteger streams = new java.util.concurrent.atomic.AtomicInteger();

  TetherHandler(TetherStore store, InstanceRegistry registry, FrameValidator validator, String token) {
    this(store, registry, validator, token, Bounds.defaults(), InstanceTokens.inMemory(), new Blobs(null, validator.limits()));
  }

  /** As above, within {@code bounds} (see {@link ByteBudget} and {@link WaitSlots}). */
  TetherHandler(TetherStore store, InstanceRegistry registry, FrameValidator validator, String token, Bounds bounds,
      InstanceTokens instanceTokens, Blobs blobs) {
    this(store, registry, validator, token, bounds, instanceTokens, blobs, null);
  }

  /** As above, keeping attachments below {@code attachmentsDir} (null: a private temporary directory; see {@link AttachmentStore}). */
  TetherHandler(TetherStore store, InstanceRegistry registry, FrameValidator validator, String token, Bounds bounds,
      InstanceTokens instanceTokens, Blobs blobs, java.nio.file.Path attachmentsDir) {
    this.blobs = blobs;
    this.attachments = blobs.shared()
        ? AttachmentStore.refusing("this server shares its instances with other hosts (serve --nats), and attachments are"
            + " kept on one host, which the others cannot read; attach files on a server without --nats")
        : AttachmentStore.inDirectory(attachmentsDir, AttachmentStore.DEFAULT_MAX_BYTES);
    this.tokens = instanceTokens;
    this.grants = new Grants(instanceTokens::live, id -> registry.find(id).isPresent());
    this.tokenRoutes = new TokenRoutes(instanceTokens, registry, grants);
    this.ingressBudget = new ByteBudget(bounds.ingressBytes());
    this.egressBudget = new ByteBudget(bounds.egressBytes());
    this.requestIdleTimeout = bounds.requestIdleTimeout();
    this.disk = new DiskBudget(bounds.instanceDiskBytes(), new InstanceFilesUsage(attachments));
    this.slots = new WaitSlots(bounds.maxWaits(), bounds.maxWaitsPerInstance());
    this.store = store;
    this.registry = registry;
    this.instances = new InstanceRoutes(registry, store, this::waitsOn, instanceTokens, grants);
    this.validator = validator;
    this.auth = token == null ? null : new BearerAuth(token);
  }

  @Override
  protected void doStart() throws Exception {
    if (getServer() != null && getServer().getThreadPool() != null) {
      executor = getServer().getThreadPool();
    }
    super.doStart();
  }

  /** Where refused frames are told; set once, before the server starts. */
  void listener(dev.tether.server.ServerListener listener) {
    this.listener = listener;
  }

  /** See {@link dev.tether.server.TetherServer#stats()}. */
  dev.tether.server.ServerStats stats() {
    int open = streams.get();
    return new dev.tether.server.ServerStats(Math.max(0, slots.held() - open), open, ingressBudget.reserved(),
        ingressBudget.maxBytes(), egressBudget.reserved(), egressBudget.maxBytes());
  }

  /** Not ready while shutting down; else the store's readiness. */
  dev.tether.store.Readiness readiness() {
    if (shuttingDown) {
      return dev.tether.store.Readiness.notReady("the server is shutting down");
    }
    try {
      return store.readiness();
    } catch (RuntimeException e) {
      return dev.tether.store.Readiness.notReady("the store's readiness check failed: " + e);
    }
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
      return route(request, response, callback, false);
    } catch (Throwable e) {
      fail(response, callback, e);
      return true;
    }
  }

  /**
   * Handles a request that another listener has authenticated with its own token (the web
   * console, see {@link ConsoleRoutes}): the same routes and answers, without this handler's
   * bearer check.
   */
  boolean handleAuthenticated(Request request, Response response, Callback callback) {
    try {
      return route(request, response, callback, true);
    } catch (Throwable e) {
      fail(response, callback, e);
      return true;
    }
  }

  private boolean route(Request request, Response response, Callback callback, boolean authenticated) throws Exception {
    // null: every route (the host token, the Unix socket, the console); else the one instance an
    // instance token opens.
    String scope = null;
    String grantId = null; // the id of the instance token that let this request in, if one did
    if (!authenticated && auth != null) {
      String header = request.getHeaders().get(HttpHeader.AUTHORIZATION);
      if (!auth.accepts(header)) {
        String presented = BearerAuth.bearer(header);
        java.util.Optional<InstanceTokens.Grant> grant = presented == null ? java.util.Optional.empty() : tokens.find(presented);
        if (grant.isEmpty()) {
          response.getHeaders().put(HttpHeader.WWW_AUTHENTICATE, "Bearer");
          return send(response, callback, ErrorCode.UNAUTHORIZED.httpStatus(), ErrorBody.of(ErrorCode.UNAUTHORIZED, "a valid 'Authorization: Bearer <token>' header is required"));
        }
        scope = grant.get().instance();
        grantId = grant.get().id();
      }
    }
    if (shuttingDown) {
      return send(response, callback, ErrorCode.SHUTTING_DOWN.httpStatus(), ErrorBody.of(ErrorCode.SHUTTING_DOWN, "the server is shutting down"));
    }
    String rawPath = request.getHttpURI().getPath();
    if (request.getHttpURI().getParam() != null || (rawPath != null && rawPath.indexOf(';') >= 0)) {
      // Path parameters (/v1/instances/x;y) would be dropped from the decoded path: never guess.
      return send(response, callback, 400, ErrorBody.of(ErrorCode.INVALID_ARGUMENT, "path parameters (';') are not accepted"));
    }
    String path;
    try {
      path = request.getHttpURI().getDecodedPath();
      Request.extractQueryParameters(request); // the routes read them later: refuse a bad encoding once, here
    } catch (RuntimeException e) { // %zz, a lone %, overlong or invalid UTF-8 (%C0%AE): the client's fault
      return send(response, callback, ErrorCode.INVALID_ARGUMENT.httpStatus(), ErrorBody.of(ErrorCode.INVALID_ARGUMENT,
          "the path or query has a malformed percent-encoding or is not UTF-8"));
    }
    String method = request.getMethod();
    RouteTable.Lookup at = ApiRoutes.TABLE.find(path);
    RouteTable.Caller caller = authenticated ? RouteTable.Caller.CONSOLE : scope == null ? RouteTable.Caller.HOST : RouteTable.Caller.INSTANCE;
    if (!at.permits(caller, method, scope)) {
      return send(response, callback, ErrorCode.PERMISSION_DENIED.httpStatus(), ErrorBody.of(ErrorCode.PERMISSION_DENIED,
          caller == RouteTable.Caller.CONSOLE ? "the console reads and sends only; tokens are managed with the host token"
              : "this token opens only instance '" + scope + "' (its tether, blob, attachment and watermark routes)"));
    }
    // Every route below an instance names a registered instance: 404 INSTANCE_NOT_FOUND before anything else.
    InstanceRegistry.Entry entry = at.belowInstance() ? registry.require(at.instance()) : null;
    RouteTable.Route row = at.route(method);
    if (row == null) {
      return at.exact() ? notAllowed(response, callback, at.allow()) : noSuchEndpoint(response, callback, path);
    }
    row.action().run(this, new RouteTable.Call(row, at, request, response, callback, grantId, caller, entry));
    return true;
  }

  void health(RouteTable.Call c) {
    send(c.response(), c.callback(), 200, ("{\"ok\":true,\"waits\":" + slots.held() + "}\n").getBytes(StandardCharsets.US_ASCII));
  }

  void ready(RouteTable.Call c) {
    ReadyRoute.answer(readiness(), c.response(), c.callback());
  }

  void listTokens(RouteTable.Call c) {
    reply(c.response(), c.callback(), tokenRoutes.list());
  }

  void mintToken(RouteTable.Call c) {
    readSmallBody(c.request(), c.response(), c.callback(), tokenRoutes::mint);
  }

  void revokeToken(RouteTable.Call c) {
    replyIo(c.response(), c.callback(), () -> tokenRoutes.revoke(c.param("id")));
  }

  void listInstances(RouteTable.Call c) {
    reply(c.response(), c.callback(), instances.list());
  }

  /** An instance token gets its instance without {@code workspace}, a host path. */
  void getInstance(RouteTable.Call c) {
    reply(c.response(), c.callback(), instances.get(c.instance(), c.caller() != RouteTable.Caller.INSTANCE));
  }

  void putInstance(RouteTable.Call c) {
    readSmallBody(c.request(), c.response(), c.callback(), body -> instances.put(c.instance(), body));
  }

  void deleteInstance(RouteTable.Call c) {
    String instance = c.instance();
    replyIo(c.response(), c.callback(), () -> {
      InstanceRegistry.Entry gone = registry.find(instance).orElse(null);
      Reply deleted = instances.delete(instance);
      if (gone != null) {
        attachments.removeInstance(gone); // a re-created id must not find these (also fenced by generation)
      }
      return deleted;
    });
  }

  void watermark(RouteTable.Call c) {
    String channel = Request.extractQueryParameters(c.request()).getValue("channel");
    reply(c.response(), c.callback(), instances.watermark(c.instance(), channel));
  }

  void setWatermark(RouteTable.Call c) {
    String channel = Request.extractQueryParameters(c.request()).getValue("channel");
    readSmallBody(c.request(), c.response(), c.callback(), body -> instances.setWatermark(c.instance(), channel, body));
  }

  void poll(RouteTable.Call c) {
    Fields fields = Request.extractQueryParameters(c.request());
    PollParams params = pollParams(c, fields);
    if (params != null) {
      poll(c.instance(), c.grantId(), params, fields, c.request(), c.response(), c.callback());
    }
  }

  void stream(RouteTable.Call c) {
    Fields fields = Request.extractQueryParameters(c.request());
    PollParams params = pollParams(c, fields);
    if (params != null) {
      stream(c.instance(), c.grantId(), params, fields, c.request(), c.response(), c.callback());
    }
  }

  /** The poll's or stream's parameters, or null after a 400. */
  private static PollParams pollParams(RouteTable.Call c, Fields fields) {
    try {
      return PollParams.parse(fields::getValues, null, null);
    } catch (IllegalArgumentException e) {
      send(c.response(), c.callback(), ErrorCode.INVALID_ARGUMENT.httpStatus(), ErrorBody.of(ErrorCode.INVALID_ARGUMENT, e.getMessage()));
      return null;
    }
  }

  /** A body of at most {@value #SMALL_BODY_BYTES} bytes (JSON of a registry request), then {@code handler}. */
  private void readSmallBody(Request request, Response response, Callback callback, IoFunction<byte[], Reply> handler) {
    BodyReader.read(request, SMALL_BODY_BYTES).whenComplete((body, failure) -> {
      try {
        if (failure != null) {
          Throwable cause = unwrap(failure);
          if (cause instanceof TetherException e && e.code() == dev.tether.api.ErrorCode.FRAME_TOO_LARGE) {
            write(response, 413, ErrorBody.of(ErrorCode.BAD_REQUEST, "this request takes a JSON body of at most " + SMALL_BODY_BYTES + " bytes"),
                Callback.from(() -> BodyDrainer.drain(request, callback, 1L << 20), callback::failed));
          } else {
            fail(response, callback, cause);
          }
          return;
        }
        reply(response, callback, handler.apply(java.util.Arrays.copyOf(body.buffer(), body.length())));
      } catch (Throwable e) {
        fail(response, callback, e);
      }
    });
  }

  void uploadBlob(RouteTable.Call c) {
    InstanceRegistry.Entry entry = c.entry();
    Request request = c.request();
    Response response = c.response();
    Callback callback = c.callback();
    dev.tether.api.MediaType type = BlobRoutes.uploadType(request.getHeaders().get(HttpHeader.CONTENT_TYPE));
    int max = Math.toIntExact(validator.limits().maxImageBytes());
    readUpload(request, response, callback, max,
        () -> ErrorBody.of(TetherException.of(dev.tether.api.ErrorCode.IMAGE_TOO_LARGE,
            "the image is larger than " + max + " bytes, the limit for one image")),
        body -> disk.write(entry, body.length(), 0, () -> BlobRoutes.upload(blobs, entry, type, body.buffer(), body.length())));
  }

  /**
   * Reads an upload's body of at most {@code max} bytes within the ingress budget, then answers
   * with what {@code store} makes of it: 503 (Retry-After) past the budget and 413
   * ({@code tooLarge}) past {@code max}, in both cases after discarding what the client still sends.
   */
  private void readUpload(Request request, Response response, Callback callback, int max,
      java.util.function.Supplier<byte[]> tooLarge, IoFunction<dev.tether.api.FrameCodec.BoundedBody, Reply> store) {
    long cost = BodyReader.reservation(request.getLength(), max);
    if (!ingressBudget.tryReserve(cost)) {
      response.getHeaders().put(HttpHeader.RETRY_AFTER, "1");
      write(response, 503, ErrorBody.of(ErrorCode.UNAVAILABLE, "the server is reading too many large requests at once; retry shortly"),
          Callback.from(() -> BodyDrainer.drain(request, callback, 2L * max), callback::failed));
      return;
    }
    BodyReader.read(request, max).whenComplete((body, failure) -> {
      try {
        if (failure != null) {
          Throwable cause = unwrap(failure);
          if (cause instanceof TetherException e && e.code() == dev.tether.api.ErrorCode.FRAME_TOO_LARGE) {
            write(response, 413, tooLarge.get(), Callback.from(() -> BodyDrainer.drain(request, callback, 2L * max), callback::failed));
          } else {
            fail(response, callback, cause);
          }
          return;
        }
        reply(response, callback, store.apply(body));
      } catch (Throwable e) {
        fail(response, callback, e);
      } finally {
        ingressBudget.release(cost);
      }
    });
  }

  private static dev.tether.api.SessionKey session(RouteTable.Call c) {
    Fields q = Request.extractQueryParameters(c.request());
    return AttachmentRoutes.session(q.getValue("channel"), q.getValue("session_id"));
  }

  /** {@code .../attachments[/{name}]}: see {@link AttachmentRoutes}. */
  void listAttachments(RouteTable.Call c) {
    dev.tether.api.SessionKey session = session(c);
    replyIo(c.response(), c.callback(), () -> AttachmentRoutes.list(attachments, c.entry(), session));
  }

  void deleteAttachment(RouteTable.Call c) {
    dev.tether.api.SessionKey session = session(c);
    replyIo(c.response(), c.callback(), () -> AttachmentRoutes.delete(attachments, c.entry(), session, c.param("name")));
  }

  void downloadAttachment(RouteTable.Call c) {
    dev.tether.api.SessionKey session = session(c);
    Response response = c.response();
    AttachmentRoutes.Download d;
    try {
      d = AttachmentRoutes.download(attachments, c.entry(), session, c.param("name"));
    } catch (java.io.IOException e) {
      fail(response, c.callback(), e);
      return;
    }
    response.getHeaders().put(AttachmentRoutes.MIME_HEADER, d.mimeType());
    response.getHeaders().put("Content-Disposition", "attachment");
    response.getHeaders().put("X-Content-Type-Options", "nosniff");
    // Streamed from the open file in windows under the egress budget, never read whole.
    FileAnswer.write(d.file().channel(), d.file().size(), "application/octet-stream", egressBudget, c.request(), response,
        executor, requestIdleTimeout, c.callback());
  }

  /** {@code GET .../blob/{key}}: the verified bytes, reserved from the egress budget until written (see {@link BlobRoutes#download}). */
  void downloadBlob(RouteTable.Call c) {
    Response response = c.response();
    Callback callback = c.callback();
    BlobRoutes.Download d;
    try {
      d = BlobRoutes.download(blobs, c.entry(), c.param("key"), egressBudget);
    } catch (java.io.IOException e) {
      fail(response, callback, e);
      return;
    }
    if (d.reply().status() == 503) {
      response.getHeaders().put(HttpHeader.RETRY_AFTER, "1");
    }
    reply(response, d.reserved() == 0 ? callback : EgressWrite.holding(egressBudget, d.reserved(), callback), d.reply());
  }

  /** Reads an attachment's body within the ingress budget and {@link AttachmentStore#maxBytes()}, then stores it. */
  void uploadAttachment(RouteTable.Call c) {
    dev.tether.api.SessionKey session = session(c);
    String name = AttachmentRoutes.uploadName(Request.extractQueryParameters(c.request()).getValue("name"));
    InstanceRegistry.Entry entry = c.entry();
    Request request = c.request();
    Response response = c.response();
    Callback callback = c.callback();
    String mimeType = request.getHeaders().get(HttpHeader.CONTENT_TYPE);
    int max = Math.toIntExact(attachments.maxBytes());
    readUpload(request, response, callback, max,
        () -> ErrorBody.of(ErrorCode.UPLOAD_TOO_LARGE, "the attachment is larger than " + max + " bytes, the limit for one attachment"),
        body -> disk.write(entry, body.length(), AttachmentRoutes.manifestEntryBytes(name, mimeType),
            () -> AttachmentRoutes.upload(attachments, entry, session, name, mimeType, body.buffer(), body.length())));
  }

  /** I/O work that answers a request. */
  @FunctionalInterface
  interface IoSupplier {
    Reply get() throws java.io.IOException;
  }

  /** I/O work on a body that answers a request. */
  @FunctionalInterface
  interface IoFunction<T, R> {
    R apply(T t) throws java.io.IOException;
  }

  private boolean replyIo(Response response, Callback callback, IoSupplier work) {
    try {
      return reply(response, callback, work.get());
    } catch (java.io.IOException e) {
      fail(response, callback, e);
      return true;
    }
  }

  private static boolean reply(Response response, Callback callback, Reply r) {
    response.setStatus(r.status());
    response.getHeaders().put(HttpHeader.CONTENT_TYPE, r.contentType());
    response.getHeaders().put(HttpHeader.CONTENT_LENGTH, r.body().length);
    response.write(true, ByteBuffer.wrap(r.body()), callback);
    return true;
  }

  private static boolean noSuchEndpoint(Response response, Callback callback, String path) {
    return send(response, callback, 404, ErrorBody.of(ErrorCode.NOT_FOUND, "no such endpoint: " + path));
  }

  /** Long-polls and streams held on {@code instance}. */
  int waitsOn(String instance) {
    return slots.held(instance);
  }

  void ingress(RouteTable.Call c) {
    InstanceRegistry.Entry entry = c.entry();
    Request request = c.request();
    Response response = c.response();
    Callback callback = c.callback();
    String refused = Encodings.refusal(request.getHeaders());
    if (refused != null) {
      int status = refused.startsWith("Content-Encoding") ? 415 : 501;
      refused(entry.id(), ErrorBody.codeFor(status), refused);
      write(response, status, ErrorBody.of(ErrorBody.codeFor(status), refused),
          Callback.from(() -> BodyDrainer.drain(request, callback, 2L * validator.limits().maxFrameBytes()), callback::failed));
      return;
    }
    int maxFrame = validator.limits().maxFrameBytes();
    long cost = BodyReader.reservation(request.getLength(), maxFrame);
    if (!ingressBudget.tryReserve(cost)) {
      // Reading one more large body could push the heap past its budget: refuse it before its
      // first byte is held, and discard what the client still sends.
      refused(entry.id(), ErrorCode.UNAVAILABLE, "ingress budget in use");
      response.getHeaders().put(HttpHeader.RETRY_AFTER, "1");
      write(response, ErrorCode.UNAVAILABLE.httpStatus(), ErrorBody.of(ErrorCode.UNAVAILABLE,
              "the server is reading too many large requests at once; retry shortly"),
          Callback.from(() -> BodyDrainer.drain(request, callback, 2L * maxFrame), callback::failed));
      return;
    }
    BodyReader.read(request, maxFrame).whenComplete((body, failure) -> {
      try {
        if (failure != null) {
          refused(entry.id(), codeOf(unwrap(failure)), unwrap(failure).getMessage());
          refuseBody(unwrap(failure), request, response, callback, maxFrame);
          return;
        }
        try {
          validator.validate(body.buffer(), 0, body.length());
        } catch (TetherException e) {
          throw ReferenceClientFrames.explain(e, body.buffer(), body.length());
        }
        Frame frame = ApiInternals.readShared(body.buffer(), 0, body.length());
        verifyRefs(entry, frame);
        Frame.Builder b = frame.toBuilder();
        String msgId = frame.msgId().orElseGet(MsgIds::host);
        SessionKey session = frame.session().orElse(SessionKey.host(SessionKey.DEFAULT_ID));
        Frame stored = b.msgId(msgId).session(session).build();
        long seq = store.append(entry.id(), stored);
        IngressLog.accepted(entry.id(), stored, seq);
        send(response, callback, 202, FrameJson.accepted(msgId, session.id(), seq));
      } catch (Throwable e) { // an Error too: the request is answered, never left hanging
        refused(entry.id(), codeOf(e), e.getMessage());
        fail(response, callback, e);
      } finally {
        ingressBudget.release(cost);
      }
    });
  }

  /** Counts and logs (at DEBUG: a client's fault) a frame refused on {@code instance}. */
  private void refused(String instance, ErrorCode code, String why) {
    listener.frameRefused(instance, code);
    IngressLog.refused(instance, code, why);
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

  private void poll(String instance, String grantId, PollParams params, Fields fields, Request request, Response response,
      Callback callback) {
    java.util.function.UnaryOperator<Frame> view = imagesView(instance, fields, response, callback);
    if (view == null) {
      return;
    }
    boolean holdsSlot = params.waitMs() > 0;
    if (holdsSlot && !slots.tryAcquire(instance)) {
      busy(response, callback, tooManyWaits(instance));
      return;
    }
    CompletableFuture<QueryResult> wait;
    try {
      wait = store.waitForFrames(instance, params.query(), Duration.ofMillis(params.waitMs()));
    } catch (RuntimeException e) {
      if (holdsSlot) {
        slots.release(instance);
      }
      throw e;
    }
    track(wait, request, instance);
    // Revoking the token or deleting the instance ends this wait at once, answered with why.
    java.util.concurrent.atomic.AtomicReference<TetherException> endedBy = new java.util.concurrent.atomic.AtomicReference<>();
    Grants.Hold hold = wait.isDone() ? null : grants.hold(grantId, instance, why -> {
      endedBy.set(why);
      wait.cancel(false);
    });
    wait.whenCompleteAsync((result, failure) -> {
      waits.remove(wait);
      grants.release(hold);
      if (holdsSlot) {
        slots.release(instance);
      }
      TetherException ended = endedBy.get();
      if (ended != null) {
        if (ended.code() == ErrorCode.UNAUTHORIZED) {
          response.getHeaders().put(HttpHeader.WWW_AUTHENTICATE, "Bearer");
        }
        fail(response, callback, ended);
        return;
      }
      if (failure != null && unwrap(failure) instanceof CancellationException && !shuttingDown
          && registry.find(instance).isEmpty()) {
        fail(response, callback, TetherException.of(dev.tether.api.ErrorCode.INSTANCE_NOT_FOUND,
            "instance '" + instance + "' was deleted while this poll waited"));
        return;
      } else if (failure != null && unwrap(failure) instanceof CancellationException) {
        // Shutdown or client gone: an empty page that keeps the cursor.
        result = new QueryResult(List.of(), params.query().afterSeq(), true, false, 0);
      } else if (failure != null) {
        fail(response, callback, unwrap(failure));
        return;
      }
      answerPage(response, callback, viewed(result, view));
    }, executor);
  }

  private static QueryResult viewed(QueryResult result, java.util.function.UnaryOperator<Frame> view) {
    if (view == STORED_VIEW || result.frames().isEmpty()) {
      return result;
    }
    return new QueryResult(result.frames().stream().map(view).toList(), result.nextSeq(), result.timedOut(), result.gap(), result.oldestSeq());
  }

  /**
   * Writes a poll page within the egress budget: the page is built only once its bytes (the
   * payloads, which the page holds as views until they are written, and their envelopes) are
   * reserved, and they are given back when the write ends; past the budget the poll gets 503, so
   * stalled readers cannot pile up answers in the heap.
   */
  private void answerPage(Response response, Callback callback, QueryResult result) {
    Callback written = EgressWrite.reserve(egressBudget, FrameJson.estimate(result), callback);
    if (written == null) {
      busy(response, callback, "the server is writing too many large answers at once; retry shortly");
      return;
    }
    AnswerBody page;
    try {
      page = FrameJson.pollResult(result);
    } catch (Throwable t) { // building a page of megabytes can run out of memory: answer anyway
      fail(response, written, t);
      return;
    }
    write(response, 200, page, written);
  }

  private String tooManyWaits(String instance) {
    return slots.held() >= slots.maxTotal()
        ? "the server holds " + slots.maxTotal() + " long-polls and streams, its limit; retry shortly"
        : "instance '" + instance + "' has " + slots.maxPerInstance() + " long-polls and streams open, its limit; retry shortly";
  }

  private static void busy(Response response, Callback callback, String why) {
    response.getHeaders().put(HttpHeader.RETRY_AFTER, "1");
    send(response, callback, ErrorCode.UNAVAILABLE.httpStatus(), ErrorBody.of(ErrorCode.UNAVAILABLE, why));
  }

  /** Frames as the store keeps them. */
  private static final java.util.function.UnaryOperator<Frame> STORED_VIEW = f -> f;

  /**
   * The view {@code ?images=} asks for: {@code stored} (the default) as the store keeps frames,
   * {@code inline} with every blob ref the host can read put inline; null (after a 400) otherwise.
   */
  private java.util.function.UnaryOperator<Frame> imagesView(String instance, Fields fields, Response response, Callback callback) {
    String images = fields.getValue("images");
    if (images != null && !images.equals("inline") && !images.equals("stored")) {
      send(response, callback, 400, ErrorBody.of(ErrorCode.INVALID_ARGUMENT, "images must be 'stored' (default) or 'inline' but was '" + images + "'"));
      return null;
    }
    return "inline".equals(images)
        ? f -> RefResolver.inlineOrAsStored(f, registry.find(instance).orElse(null), blobs)
        : STORED_VIEW;
  }

  private void stream(String instance, String grantId, PollParams params, Fields fields, Request request, Response response,
      Callback callback) {
    java.util.function.UnaryOperator<Frame> view = imagesView(instance, fields, response, callback);
    if (view == null) {
      return;
    }
    if (!slots.tryAcquire(instance)) {
      busy(response, callback, tooManyWaits(instance));
      return;
    }
    streams.incrementAndGet();
    java.util.concurrent.atomic.AtomicReference<Grants.Hold> hold = new java.util.concurrent.atomic.AtomicReference<>();
    Callback done = releasing(callback, () -> {
      grants.release(hold.get());
      streams.decrementAndGet();
      slots.release(instance);
    });
    long start;
    try {
      start = params.afterSeqGiven() ? params.query().afterSeq() : store.lastSeq(instance);
    } catch (RuntimeException e) {
      fail(response, done, e);
      return;
    }
    response.setStatus(200);
    response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/x-ndjson");
    response.getHeaders().put(HttpHeader.CACHE_CONTROL, "no-store");
    NdjsonStream stream = new NdjsonStream(store, executor, waits, () -> shuttingDown, instance, params.query(), view,
        egressBudget, request, response, done);
    // Revoking the token or deleting the instance ends the stream at once (see NdjsonStream#end).
    hold.set(grants.hold(grantId, instance, why -> stream.end()));
    // Commit the headers now, so the client knows the stream is open before the first frame.
    response.write(false, ByteBuffer.allocate(0), Callback.from(() -> stream.next(start), done::failed));
  }

  /** {@code callback}, running {@code release} first when it completes either way. */
  private static Callback releasing(Callback callback, Runnable release) {
    return new Callback() {
      private final java.util.concurrent.atomic.AtomicBoolean once = new java.util.concurrent.atomic.AtomicBoolean();

      @Override
      public void succeeded() {
        if (once.compareAndSet(false, true)) {
          release.run();
        }
        callback.succeeded();
      }

      @Override
      public void failed(Throwable x) {
        if (once.compareAndSet(false, true)) {
          release.run();
        }
        callback.failed(x);
      }
    };
  }

  /** Checks every blob ref of an ingress frame against the instance's blob store (see {@link BlobFiles}). */
  private void verifyRefs(InstanceRegistry.Entry entry, Frame frame) throws java.io.IOException {
    List<dev.tether.api.ImageRefs.Ref> refs = dev.tether.api.ImageRefs.refs(frame);
    long total = 0;
    for (dev.tether.api.ImageRefs.Ref ref : refs) {
      total += blobs.readForIngress(entry, ref).length;
    }
    if (total > validator.limits().maxFrameImageBytes()) {
      throw TetherException.of(dev.tether.api.ErrorCode.FRAME_IMAGES_TOO_LARGE, "the blobs this frame names add up to " + total
          + " bytes; a frame may carry at most " + validator.limits().maxFrameImageBytes() + " bytes of images");
    }
  }

  private void track(CompletableFuture<QueryResult> wait, Request request, String instance) {
    if (wait.isDone()) {
      return;
    }
    waits.add(wait);
    request.addFailureListener(t -> wait.cancel(false));
    if (shuttingDown) {
      wait.cancel(false);
    }
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
    } else if (failure instanceof dev.tether.store.StoreUnavailableException e) {
      // NATS unreachable or a stream leader election under way: retry later, not a server bug.
      response.getHeaders().put(HttpHeader.RETRY_AFTER, "1");
      send(response, callback, ErrorCode.UNAVAILABLE.httpStatus(), ErrorBody.of(ErrorCode.UNAVAILABLE, e.getMessage()));
    } else if (failure instanceof OutOfMemoryError) {
      failures.log("out of memory answering a request", failure);
      response.getHeaders().put(HttpHeader.RETRY_AFTER, "1");
      send(response, callback, ErrorCode.UNAVAILABLE.httpStatus(), ErrorBody.of(ErrorCode.UNAVAILABLE, "the server is out of memory; retry later"));
    } else {
      // The log has the detail (once, then rate-limited); the answer names nothing of the server's
      // insides: no exception class, no path.
      failures.log("request failed", failure);
      send(response, callback, ErrorCode.INTERNAL.httpStatus(), ErrorBody.of(ErrorCode.INTERNAL,
          "the server failed to answer this request; its log has the details"));
    }
  }

  /** The code {@link #fail} answers {@code failure} with. */
  private static ErrorCode codeOf(Throwable failure) {
    if (failure instanceof TetherException e) {
      return e.code();
    }
    if (failure instanceof IllegalArgumentException) {
      return ErrorCode.INVALID_ARGUMENT;
    }
    if (failure instanceof dev.tether.store.StoreUnavailableException || failure instanceof OutOfMemoryError) {
      return ErrorCode.UNAVAILABLE;
    }
    return ErrorCode.INTERNAL;
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

  private static void write(Response response, int status, AnswerBody body, Callback written) {
    response.setStatus(status);
    response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/json");
    response.getHeaders().put(HttpHeader.CONTENT_LENGTH, body.length());
    SlicedWrite.write(response, true, body, written);
  }

  private static Throwable unwrap(Throwable t) {
    while (t instanceof CompletionException && t.getCause() != null) {
      t = t.getCause();
    }
    return t;
  }
}
