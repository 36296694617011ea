package dev.tether.server.internal;

import static dev.tether.server.internal.Answers.codeOf;
import static dev.tether.server.internal.Answers.noSuchEndpoint;
import static dev.tether.server.internal.Answers.notAllowed;
import static dev.tether.server.internal.Answers.reply;
import static dev.tether.server.internal.Answers.send;
import static dev.tether.server.internal.Answers.unwrap;
import static dev.tether.server.internal.Answers.write;

import dev.tether.api.ErrorCode;
import dev.tether.api.Frame;
import dev.tether.api.ImageRefs;
import dev.tether.api.MsgIds;
import dev.tether.api.SessionKey;
import dev.tether.api.TetherException;
import dev.tether.images.FrameValidator;
import dev.tether.server.ServerListener;
import dev.tether.server.ServerStats;
import dev.tether.store.QueryResult;
import dev.tether.store.Readiness;
import dev.tether.store.TetherStore;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

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
 * {@code INVALID_ARGUMENT}, never a server failure. Which route a path is, who may take it, its
 * methods (405 with {@code Allow}) and its handler are one row of {@link ApiRoutes#TABLE}; the
 * waiting routes live in {@link WaitRoutes}, the file routes in {@link FileRoutes}. An ingress row
 * (what puts frames, blobs or attachments into an instance) is first held to the rate limits of
 * {@link IngressRateLimits}: past them 429 {@code RATE_LIMITED} with {@code Retry-After}, before
 * the body is read.
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
  private volatile Connector ownerSocket; // the owner-only socket a TCP server keeps as well, or null
  private static final int SMALL_BODY_BYTES = 64 * 1024;
  private final InstanceTokens tokens;
  private final Blobs blobs;
  private final Attachments attachments;
  private final TokenRoutes tokenRoutes;
  private final ByteBudget ingressBudget;
  private final ByteBudget egressBudget;
  private final Duration requestIdleTimeout;
  private final DiskBudget disk;
  private final LocalAttachments localAttachments;
  private final IngressRateLimits rates;
  private final Bounds bounds;
  private final WaitSlots slots;
  private final Grants grants;
  private final Answers answers = new Answers();
  final WaitRoutes waitRoutes;
  final FileRoutes files;
  private volatile boolean shuttingDown;
  private volatile Executor executor = Runnable::run;
  private volatile ServerListener listener = ServerListener.NONE;
  private volatile WakeTracker wake = WakeTracker.NONE;

  TetherHandler(TetherStore store, InstanceRegistry registry, FrameValidator validator, String token) {
    this(store, registry, validator, token, Bounds.defaults(), InstanceTokens.inMemory(), new Blobs(null, validator.limits()));
  }

  /** As above, within {@code bounds} (see {@link ByteBudget} and {@link WaitSlots}). */
  TetherHandler(TetherStore store, InstanceRegistry registry, FrameValidator validator, String token, Bounds bounds,
      InstanceTokens instanceTokens, Blobs blobs) {
    this(store, registry, validator, token, bounds, instanceTokens, blobs,
        Attachments.of(null, blobs.shared(), null, bounds.instanceDiskBytes()));
  }

  /** As above, keeping attachments in {@code attachments} (see {@link Attachments#of}). */
  TetherHandler(TetherStore store, InstanceRegistry registry, FrameValidator validator, String token, Bounds bounds,
      InstanceTokens instanceTokens, Blobs blobs, Attachments attachments) {
    this.blobs = blobs;
    this.attachments = attachments;
    this.tokens = instanceTokens;
    this.grants = new Grants(instanceTokens::live, id -> registry.find(id).isPresent());
    instanceTokens.onRemoved(grants::revoked); // a revocation on another server ends this one's waits and streams too
    this.tokenRoutes = new TokenRoutes(instanceTokens, registry, grants);
    this.ingressBudget = new ByteBudget(bounds.ingressBytes());
    this.egressBudget = new ByteBudget(bounds.egressBytes());
    this.requestIdleTimeout = bounds.requestIdleTimeout();
    this.disk = new DiskBudget(bounds.instanceDiskBytes(), new InstanceFilesUsage(attachments));
    this.localAttachments = new LocalAttachments(attachments, disk, registry, () -> executor);
    this.slots = new WaitSlots(bounds.maxWaits(), bounds.maxWaitsPerInstance());
    this.rates = IngressRateLimits.of(bounds.instanceRate(), bounds.tokenRate());
    this.bounds = bounds;
    this.store = store;
    this.registry = registry;
    this.instances = new InstanceRoutes(registry, store, this::waitsOn, instanceTokens, grants);
    this.validator = validator;
    this.waitRoutes = new WaitRoutes(store, registry, blobs, slots, grants, egressBudget, answers, () -> executor, () -> shuttingDown);
    this.files = new FileRoutes(blobs, attachments, disk, ingressBudget, egressBudget, validator.limits().maxImageBytes(),
        requestIdleTimeout, answers, () -> executor);
    this.auth = token == null ? null : new BearerAuth(token);
  }

  @Override
  protected void doStart() throws Exception {
    if (getServer() != null && getServer().getThreadPool() != null) {
      executor = getServer().getThreadPool();
    }
    super.doStart();
  }

  /** The ingress rate limits, for in-process callers that stand for HTTP clients (a mounted handler's {@link LocalClient}). */
  IngressRateLimits rates() {
    return rates;
  }

  /** The attachment routes for in-process callers ({@link LocalClient}): same store, budget and checks. */
  LocalAttachments localAttachments() {
    return localAttachments;
  }

  /** The waits and streams in progress by grant, for mounted handlers to file theirs ({@link MountRouter}). */
  Grants grants() {
    return grants;
  }

  /** Where refused frames are told; set once, before the server starts. */
  void listener(ServerListener listener) {
    this.listener = listener;
  }

  /** Who is told of readers and of frames for the guest; set once, before the server starts. */
  void wake(WakeTracker tracker) {
    this.wake = tracker;
    waitRoutes.wake(tracker);
  }

  /** See {@link dev.tether.server.TetherServer#stats()}. */
  ServerStats stats() {
    int open = waitRoutes.streams();
    return new ServerStats(Math.max(0, slots.held() - open), open, ingressBudget.reserved(),
        ingressBudget.maxBytes(), egressBudget.reserved(), egressBudget.maxBytes());
  }

  /** Not ready while shutting down; else the store's readiness. */
  Readiness readiness() {
    if (shuttingDown) {
      return Readiness.notReady("the server is shutting down");
    }
    try {
      return store.readiness();
    } catch (RuntimeException e) {
      return Readiness.notReady("the store's readiness check failed: " + e);
    }
  }

  /** Refuses new requests and answers every wait in progress at once. */
  void beginShutdown() {
    shuttingDown = true;
    for (CompletableFuture<QueryResult> w : waitRoutes.waits()) {
      w.cancel(false);
    }
  }

  /** The server's own failures so far (logged or rate-limited), for tests. */
  long failures() {
    return answers.failures();
  }

  /** Waits in progress (long-polls and streams), for tests and the load report. */
  int waitsInProgress() {
    return waitRoutes.waits().size();
  }

  @Override
  public boolean handle(Request request, Response response, Callback callback) {
    try {
      return route(request, response, callback, null);
    } catch (Throwable e) {
      answers.fail(response, callback, e);
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
      return route(request, response, callback, RouteTable.Caller.CONSOLE);
    } catch (Throwable e) {
      answers.fail(response, callback, e);
      return true;
    }
  }

  /**
   * Who sent a request on the API listener.
   *
   * @param scope null: every route (the host token, the Unix socket, the console); else the one
   *     instance an instance token opens
   * @param grantId the id of the instance token that let the request in, if one did
   */
  record Caller(String scope, String grantId) {
    static final Caller HOST = new Caller(null, null);
  }

  /**
   * Makes {@code connector} the owner-only Unix socket a TCP server keeps as well: its file mode is
   * the access control, as for a server on a socket alone, so a request on it is the host's, with
   * no bearer check. Set once, before the server starts.
   */
  void ownerSocket(Connector connector) {
    this.ownerSocket = connector;
  }

  /**
   * The caller of {@code request} by its bearer token (every caller on a Unix socket), or empty
   * after answering 401 (a missing or unknown token) or 503 (shutting down).
   */
  Optional<Caller> authenticate(Request request, Response response, Callback callback) {
    Caller caller = Caller.HOST;
    boolean owner = ownerSocket != null && request.getConnectionMetaData().getConnector() == ownerSocket;
    if (auth != null && !owner) {
      String header = request.getHeaders().get(HttpHeader.AUTHORIZATION);
      if (!auth.accepts(header)) {
        String presented = BearerAuth.bearer(header);
        Optional<InstanceTokens.Grant> grant = presented == null ? Optional.empty() : tokens.find(presented);
        if (grant.isEmpty()) {
          AuditNote.refused(request, ErrorCode.UNAUTHORIZED);
          response.getHeaders().put(HttpHeader.WWW_AUTHENTICATE, "Bearer");
          send(response, callback, ErrorCode.UNAUTHORIZED.httpStatus(), ErrorBody.of(ErrorCode.UNAUTHORIZED, "a valid 'Authorization: Bearer <token>' header is required"));
          return Optional.empty();
        }
        caller = new Caller(grant.get().instance(), grant.get().id());
      }
    }
    AuditNote.caller(request, caller.grantId() != null ? caller.grantId() : auth != null && !owner ? "host" : "socket", null);
    if (shuttingDown) {
      send(response, callback, ErrorCode.SHUTTING_DOWN.httpStatus(), ErrorBody.of(ErrorCode.SHUTTING_DOWN, "the server is shutting down"));
      return Optional.empty();
    }
    return Optional.of(caller);
  }

  /** @param trusted who another listener already knows the caller to be (the console), or null to authenticate */
  private boolean route(Request request, Response response, Callback callback, RouteTable.Caller trusted) throws Exception {
    Caller who = Caller.HOST;
    if (trusted == null) {
      Optional<Caller> found = authenticate(request, response, callback);
      if (found.isEmpty()) {
        return true;
      }
      who = found.get();
    } else {
      AuditNote.caller(request, "console", null);
    }
    if (trusted != null && shuttingDown) {
      return send(response, callback, ErrorCode.SHUTTING_DOWN.httpStatus(), ErrorBody.of(ErrorCode.SHUTTING_DOWN, "the server is shutting down"));
    }
    String scope = who.scope();
    String grantId = who.grantId();
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
    AuditNote n = AuditNote.of(request);
    if (n != null) {
      n.instance = at.instance();
    }
    RouteTable.Caller caller = trusted != null ? trusted : scope == null ? RouteTable.Caller.HOST : RouteTable.Caller.INSTANCE;
    if (!at.permits(caller, method, scope)) {
      AuditNote.refused(request, ErrorCode.PERMISSION_DENIED);
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
    if (row.ingress() && rateLimited(row, entry, caller == RouteTable.Caller.CONSOLE ? "console" : grantId, request, response,
        callback)) {
      return true;
    }
    row.action().run(this, new RouteTable.Call(row, at, request, response, callback, grantId, caller, entry));
    return true;
  }

  /**
   * Counts an ingress request against its instance's and its token's rate; past either, answers
   * 429 {@code RATE_LIMITED} with {@code Retry-After} before reading the body (then discarded).
   *
   * @param tokenKey the id of the instance token, {@code console}, or null for the host
   */
  private boolean rateLimited(RouteTable.Route row, InstanceRegistry.Entry entry, String tokenKey, Request request,
      Response response, Callback callback) {
    long wait = rates.admit(entry.id(), tokenKey);
    if (wait == 0) {
      return false;
    }
    long seconds = IngressRateLimits.retryAfterSeconds(wait);
    String why = rates.refusal(entry.id(), seconds);
    if (row.template().endsWith("/tether")) {
      refused(request, entry.id(), ErrorCode.RATE_LIMITED, why);
    } else {
      AuditNote.refused(request, ErrorCode.RATE_LIMITED);
      IngressLog.refused(entry.id(), ErrorCode.RATE_LIMITED, why);
    }
    response.getHeaders().put(HttpHeader.RETRY_AFTER, Long.toString(seconds));
    write(response, ErrorCode.RATE_LIMITED.httpStatus(), ErrorBody.of(ErrorCode.RATE_LIMITED, why),
        Callback.from(() -> BodyDrainer.drain(request, callback, 2L * validator.limits().maxFrameBytes()), callback::failed));
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
    answers.replyIo(c.response(), c.callback(), () -> tokenRoutes.revoke(c.param("id")));
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
    answers.replyIo(c.response(), c.callback(), () -> {
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

  /** A body of at most {@value #SMALL_BODY_BYTES} bytes (JSON of a registry request), then {@code handler}. */
  private void readSmallBody(Request request, Response response, Callback callback, Answers.IoFunction<byte[], Reply> handler) {
    BodyReader.read(request, SMALL_BODY_BYTES).whenComplete((body, failure) -> {
      try {
        if (failure != null) {
          Throwable cause = unwrap(failure);
          if (cause instanceof TetherException e && e.code() == ErrorCode.FRAME_TOO_LARGE) {
            write(response, 413, ErrorBody.of(ErrorCode.BAD_REQUEST, "this request takes a JSON body of at most " + SMALL_BODY_BYTES + " bytes"),
                Callback.from(() -> BodyDrainer.drain(request, callback, 1L << 20), callback::failed));
          } else {
            answers.fail(response, callback, cause);
          }
          return;
        }
        reply(response, callback, handler.apply(Arrays.copyOf(body.buffer(), body.length())));
      } catch (Throwable e) {
        answers.fail(response, callback, e);
      }
    });
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
      refused(request, entry.id(), ErrorBody.codeFor(status), refused);
      write(response, status, ErrorBody.of(ErrorBody.codeFor(status), refused),
          Callback.from(() -> BodyDrainer.drain(request, callback, 2L * validator.limits().maxFrameBytes()), callback::failed));
      return;
    }
    int maxFrame = validator.limits().maxFrameBytes();
    long cost = BodyReader.reservation(request.getLength(), maxFrame);
    if (!ingressBudget.tryReserve(cost)) {
      // Reading one more large body could push the heap past its budget: refuse it before its
      // first byte is held, and discard what the client still sends.
      refused(request, entry.id(), ErrorCode.UNAVAILABLE, "ingress budget in use");
      response.getHeaders().put(HttpHeader.RETRY_AFTER, "1");
      write(response, ErrorCode.UNAVAILABLE.httpStatus(), ErrorBody.of(ErrorCode.UNAVAILABLE,
              "the server is reading too many large requests at once; retry shortly"),
          Callback.from(() -> BodyDrainer.drain(request, callback, 2L * maxFrame), callback::failed));
      return;
    }
    BodyReader.read(request, maxFrame).whenComplete((body, failure) -> {
      try {
        if (failure != null) {
          refused(request, entry.id(), codeOf(unwrap(failure)), unwrap(failure).getMessage());
          refuseBody(unwrap(failure), request, response, callback, maxFrame);
          return;
        }
        Frame frame;
        try {
          // validated once: the stored frame's images carry the validator's proof
          frame = validator.readOwned(body.buffer(), 0, body.length());
        } catch (TetherException e) {
          throw ReferenceClientFrames.explain(e, body.buffer(), body.length());
        }
        verifyRefs(entry, frame);
        Frame.Builder b = frame.toBuilder();
        String msgId = frame.msgId().orElseGet(MsgIds::host);
        SessionKey session = frame.session().orElse(SessionKey.host(SessionKey.DEFAULT_ID));
        Frame stored = b.msgId(msgId).session(session).build();
        long seq = store.append(entry.id(), stored);
        IngressLog.accepted(entry.id(), stored, seq);
        AuditNote.frame(request, stored);
        wake.arrived(entry.id(), stored.type());
        send(response, callback, 202, FrameJson.accepted(msgId, session.id(), seq));
      } catch (Throwable e) { // an Error too: the request is answered, never left hanging
        refused(request, entry.id(), codeOf(e), e.getMessage());
        answers.fail(response, callback, e);
      } finally {
        ingressBudget.release(cost);
      }
    });
  }

  /** Counts and logs (at DEBUG: a client's fault) a frame refused on {@code instance}. */
  private void refused(Request request, String instance, ErrorCode code, String why) {
    AuditNote.refused(request, code);
    listener.frameRefused(instance, code);
    IngressLog.refused(instance, code, why);
  }

  private void refuseBody(Throwable cause, Request request, Response response, Callback callback, int maxFrame) {
    if (cause instanceof TetherException e && e.code() == ErrorCode.FRAME_TOO_LARGE) {
      // Refused while the client may still be sending: answer, then discard the rest.
      write(response, e.code().httpStatus(), ErrorBody.of(e),
          Callback.from(() -> BodyDrainer.drain(request, callback, 2L * maxFrame), callback::failed));
    } else {
      answers.fail(response, callback, cause); // a body cut short is over already: nothing to drain
    }
  }

  /** Checks every blob ref of an ingress frame against the instance's blob store (see {@link BlobFiles}). */
  private void verifyRefs(InstanceRegistry.Entry entry, Frame frame) throws IOException {
    List<ImageRefs.Ref> refs = ImageRefs.refs(frame);
    long total = 0;
    for (ImageRefs.Ref ref : refs) {
      total += blobs.readForIngress(entry, ref).length;
    }
    if (total > validator.limits().maxFrameImageBytes()) {
      throw TetherException.of(ErrorCode.FRAME_IMAGES_TOO_LARGE, "the blobs this frame names add up to " + total
          + " bytes; a frame may carry at most " + validator.limits().maxFrameImageBytes() + " bytes of images");
    }
  }

}
