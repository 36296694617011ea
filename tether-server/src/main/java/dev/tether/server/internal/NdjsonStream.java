package dev.tether.server.internal;

import dev.tether.store.FrameQuery;
import dev.tether.store.QueryResult;
import dev.tether.store.TetherStore;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * One {@code GET .../tether/stream} response: NDJSON of the frames stored after a cursor, as they
 * are stored.
 *
 * <p>Design: a loop of store waits, each followed by one asynchronous write; the next wait starts
 * when the write completes, so a slow client slows only its own stream and no thread is held in
 * between. A wait that ends empty writes a blank heartbeat line (at most every
 * {@value #HEARTBEAT_SECONDS} s), which is also how a client that left is noticed. Evicted frames
 * are reported in place by a line {@code {"gap":true,"oldest_seq":N}}. The stream ends cleanly
 * when the server shuts down or the instance is removed. One failure listener per stream cancels
 * whichever wait is current. Driven by Jetty and the store's callbacks, one step at a time.
 */
final class NdjsonStream {
  static final int HEARTBEAT_SECONDS = 15;
  private static final byte[] HEARTBEAT = {'\n'};

  private final TetherStore store;
  private final Executor executor;
  private final Set<CompletableFuture<QueryResult>> waits;
  private final BooleanSupplier shuttingDown;
  private final String instance;
  private final FrameQuery query;
  private final java.util.function.UnaryOperator<dev.tether.api.Frame> view;
  private final Response response;
  private final Callback callback;
  private final AtomicReference<CompletableFuture<QueryResult>> current = new AtomicReference<>();

  NdjsonStream(TetherStore store, Executor executor, Set<CompletableFuture<QueryResult>> waits,
      BooleanSupplier shuttingDown, String instance, FrameQuery query, java.util.function.UnaryOperator<dev.tether.api.Frame> view,
      Request request, Response response,
      Callback callback) {
    this.store = store;
    this.executor = executor;
    this.waits = waits;
    this.shuttingDown = shuttingDown;
    this.instance = instance;
    this.query = query;
    this.view = view;
    this.response = response;
    this.callback = callback;
    request.addFailureListener(t -> {
      CompletableFuture<QueryResult> w = current.get();
      if (w != null) {
        w.cancel(false);
      }
    });
  }

  /** Waits for frames after {@code cursor}, writes them, and goes on. */
  void next(long cursor) {
    if (shuttingDown.getAsBoolean()) {
      response.write(true, ByteBuffer.allocate(0), callback);
      return;
    }
    CompletableFuture<QueryResult> wait =
        store.waitForFrames(instance, query.withAfterSeq(cursor), Duration.ofSeconds(HEARTBEAT_SECONDS));
    current.set(wait);
    if (!wait.isDone()) {
      waits.add(wait);
      if (shuttingDown.getAsBoolean()) {
        wait.cancel(false);
      }
    }
    wait.whenCompleteAsync((result, failure) -> {
      waits.remove(wait);
      if (failure != null) {
        response.write(true, ByteBuffer.allocate(0), callback); // the server stops or the instance went away
        return;
      }
      byte[] bytes;
      try {
        bytes = result.frames().isEmpty() && !result.gap() ? HEARTBEAT : FrameJson.streamLines(result, view);
      } catch (Throwable t) { // out of memory building the lines: end the stream, never leave it hanging
        callback.failed(t);
        return;
      }
      response.write(false, ByteBuffer.wrap(bytes), Callback.from(() -> next(result.nextSeq()), callback::failed));
    }, executor);
  }
}
