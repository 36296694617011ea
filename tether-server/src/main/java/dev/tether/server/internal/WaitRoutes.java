package dev.tether.server.internal;

import static dev.tether.server.internal.Answers.busy;
import static dev.tether.server.internal.Answers.send;
import static dev.tether.server.internal.Answers.unwrap;
import static dev.tether.server.internal.Answers.write;

import dev.tether.api.ErrorCode;
import dev.tether.api.Frame;
import dev.tether.api.TetherException;
import dev.tether.store.QueryResult;
import dev.tether.store.TetherStore;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.Fields;

/**
 * The routes that wait: {@code GET .../tether/poll} (a long-poll) and {@code GET .../tether/stream}
 * (NDJSON). Design: a wait holds a slot ({@link WaitSlots}) and no thread; it is tracked in
 * {@link #waits()} so that shutdown can answer it at once, and filed in {@link Grants} so that
 * revoking its token or deleting its instance ends it. Answers are written from {@code executor}
 * within the egress budget. Thread-safe.
 */
final class WaitRoutes {
  private final TetherStore store;
  private final InstanceRegistry registry;
  private final Blobs blobs;
  private final WaitSlots slots;
  private final Grants grants;
  private final ByteBudget egressBudget;
  private final Answers answers;
  private final Supplier<Executor> executor;
  private final BooleanSupplier shuttingDown;
  private final Set<CompletableFuture<QueryResult>> waits = ConcurrentHashMap.newKeySet();
  private final AtomicInteger streams = new AtomicInteger();
  private volatile WakeTracker wake = WakeTracker.NONE;

  WaitRoutes(TetherStore store, InstanceRegistry registry, Blobs blobs, WaitSlots slots, Grants grants, ByteBudget egressBudget,
      Answers answers, Supplier<Executor> executor, BooleanSupplier shuttingDown) {
    this.store = store;
    this.registry = registry;
    this.blobs = blobs;
    this.slots = slots;
    this.grants = grants;
    this.egressBudget = egressBudget;
    this.answers = answers;
    this.executor = executor;
    this.shuttingDown = shuttingDown;
  }

  /** Told when a reader starts and ends; set once, before the server starts. */
  void wake(WakeTracker tracker) {
    this.wake = tracker;
  }

  /** Long-polls and streams waiting now. */
  Set<CompletableFuture<QueryResult>> waits() {
    return waits;
  }

  /** Streams open now. */
  int streams() {
    return streams.get();
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
    AuditNote.filters(c.request(), fields.getValue("channel"), fields.getValue("session_id"));
    try {
      return PollParams.parse(fields::getValues, null, null);
    } catch (IllegalArgumentException e) {
      send(c.response(), c.callback(), ErrorCode.INVALID_ARGUMENT.httpStatus(), ErrorBody.of(ErrorCode.INVALID_ARGUMENT, e.getMessage()));
      return null;
    }
  }

  private void poll(String instance, String grantId, PollParams params, Fields fields, Request request, Response response,
      Callback callback) {
    UnaryOperator<Frame> view = imagesView(instance, fields, response, callback);
    if (view == null) {
      return;
    }
    boolean holdsSlot = params.waitMs() > 0;
    if (holdsSlot && !slots.tryAcquire(instance)) {
      busy(response, callback, tooManyWaits(instance));
      return;
    }
    CompletableFuture<QueryResult> wait;
    WakeTracker reading = wake;
    reading.readerStarted(instance);
    try {
      wait = store.waitForFrames(instance, params.query(), Duration.ofMillis(params.waitMs()));
    } catch (RuntimeException e) {
      reading.readerEnded(instance);
      if (holdsSlot) {
        slots.release(instance);
      }
      throw e;
    }
    track(wait, request, instance);
    // Revoking the token or deleting the instance ends this wait at once, answered with why.
    AtomicReference<TetherException> endedBy = new AtomicReference<>();
    Grants.Hold hold = wait.isDone() ? null : grants.hold(grantId, instance, why -> {
      endedBy.set(why);
      wait.cancel(false);
    });
    wait.whenCompleteAsync((result, failure) -> {
      reading.readerEnded(instance);
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
        answers.fail(response, callback, ended);
        return;
      }
      if (failure != null && unwrap(failure) instanceof CancellationException && !shuttingDown.getAsBoolean()
          && registry.find(instance).isEmpty()) {
        answers.fail(response, callback, TetherException.of(ErrorCode.INSTANCE_NOT_FOUND,
            "instance '" + instance + "' was deleted while this poll waited"));
        return;
      } else if (failure != null && unwrap(failure) instanceof CancellationException) {
        // Shutdown or client gone: an empty page that keeps the cursor.
        result = new QueryResult(List.of(), params.query().afterSeq(), true, false, 0);
      } else if (failure != null) {
        answers.fail(response, callback, unwrap(failure));
        return;
      }
      answerPage(response, callback, viewed(result, view));
    }, executor.get());
  }

  private static QueryResult viewed(QueryResult result, UnaryOperator<Frame> view) {
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
      answers.fail(response, written, t);
      return;
    }
    write(response, 200, page, written);
  }

  private String tooManyWaits(String instance) {
    return slots.held() >= slots.maxTotal()
        ? "the server holds " + slots.maxTotal() + " long-polls and streams, its limit; retry shortly"
        : "instance '" + instance + "' has " + slots.maxPerInstance() + " long-polls and streams open, its limit; retry shortly";
  }

  /** Frames as the store keeps them. */
  private static final UnaryOperator<Frame> STORED_VIEW = f -> f;

  /**
   * The view {@code ?images=} asks for: {@code sent} (the default) as the sender sent each image
   * (refs a store made of inline images put back inline), {@code refs} (or {@code stored}) as the
   * store keeps frames, {@code inline} with every blob ref the host can read put inline; null
   * (after a 400) otherwise.
   */
  private UnaryOperator<Frame> imagesView(String instance, Fields fields, Response response, Callback callback) {
    String images = fields.getValue("images");
    if (images == null || images.equals("sent")) {
      return f -> RefResolver.asSent(f, registry.find(instance).orElse(null), blobs);
    }
    return switch (images) {
      case "refs", "stored" -> STORED_VIEW;
      case "inline" -> f -> RefResolver.inlineOrAsStored(f, registry.find(instance).orElse(null), blobs);
      default -> {
        send(response, callback, 400, ErrorBody.of(ErrorCode.INVALID_ARGUMENT,
            "images must be 'sent' (default), 'refs' (or 'stored') or 'inline' but was '" + images + "'"));
        yield null;
      }
    };
  }

  private void stream(String instance, String grantId, PollParams params, Fields fields, Request request, Response response,
      Callback callback) {
    UnaryOperator<Frame> view = imagesView(instance, fields, response, callback);
    if (view == null) {
      return;
    }
    if (!slots.tryAcquire(instance)) {
      busy(response, callback, tooManyWaits(instance));
      return;
    }
    streams.incrementAndGet();
    WakeTracker reading = wake;
    reading.readerStarted(instance);
    AtomicReference<Grants.Hold> hold = new AtomicReference<>();
    Callback done = releasing(callback, () -> {
      reading.readerEnded(instance);
      grants.release(hold.get());
      streams.decrementAndGet();
      slots.release(instance);
    });
    long start;
    try {
      start = params.afterSeqGiven() ? params.query().afterSeq() : store.lastSeq(instance);
    } catch (RuntimeException e) {
      answers.fail(response, done, e);
      return;
    }
    response.setStatus(200);
    response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/x-ndjson");
    response.getHeaders().put(HttpHeader.CACHE_CONTROL, "no-store");
    NdjsonStream stream = new NdjsonStream(store, executor.get(), waits, shuttingDown, instance, params.query(), view,
        egressBudget, request, response, done);
    // Revoking the token or deleting the instance ends the stream at once (see NdjsonStream#end).
    hold.set(grants.hold(grantId, instance, why -> stream.end()));
    // Commit the headers now, so the client knows the stream is open before the first frame.
    response.write(false, ByteBuffer.allocate(0), Callback.from(() -> stream.next(start), done::failed));
  }

  /** {@code callback}, running {@code release} first when it completes either way. */
  private static Callback releasing(Callback callback, Runnable release) {
    return new Callback() {
      private final AtomicBoolean once = new AtomicBoolean();

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

  private void track(CompletableFuture<QueryResult> wait, Request request, String instance) {
    if (wait.isDone()) {
      return;
    }
    waits.add(wait);
    request.addFailureListener(t -> wait.cancel(false));
    if (shuttingDown.getAsBoolean()) {
      wait.cancel(false);
    }
  }
}
