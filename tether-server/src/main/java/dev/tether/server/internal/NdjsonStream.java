package dev.tether.server.internal;

import dev.tether.api.Frame;
import dev.tether.store.FrameQuery;
import dev.tether.store.QueryResult;
import dev.tether.store.TetherStore;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import java.util.function.UnaryOperator;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * One {@code GET .../tether/stream} response: NDJSON of the frames stored after a cursor, as they
 * are stored.
 *
 * <p>Design: a loop of store waits, each followed by asynchronous writes; the next step starts
 * when a write completes, so a slow client slows only its own stream and no thread is held in
 * between. The frames a wait returns are written in windows of at most {@value #WINDOW_BYTES}
 * bytes (or one frame, when a frame is larger), each reserved from the egress budget before it is
 * built and given back when it is written: a stream holds at most one window of heap, and a client
 * that stops reading holds it only until the request idle timeout cuts the connection. When the
 * budget is spent the window is retried every {@value #RETRY_MS} ms, holding nothing meanwhile.
 * A wait that ends empty writes a blank heartbeat line (at most every {@value #HEARTBEAT_SECONDS}
 * s), which is also how a client that left is noticed. Evicted frames are reported in place by a
 * line {@code {"gap":true,"oldest_seq":N}}. The stream ends cleanly when the server shuts down or
 * the instance is removed, and at once when {@link #end()} is called (its token was revoked or its
 * instance deleted, see {@link Grants}): every step checks that flag before it writes, so nothing
 * stored after the end is written. Driven by Jetty and the store's callbacks, one step at a time.
 */
final class NdjsonStream {
  static final int HEARTBEAT_SECONDS = 15;
  static final int WINDOW_BYTES = 1 << 20;
  static final int RETRY_MS = 100;
  private static final byte[] HEARTBEAT = {'\n'};

  private final TetherStore store;
  private final Executor executor;
  private final Set<CompletableFuture<QueryResult>> waits;
  private final BooleanSupplier shuttingDown;
  private final String instance;
  private final FrameQuery query;
  private final UnaryOperator<Frame> view;
  private final ByteBudget egress;
  private final Request request;
  private final Response response;
  private final Callback callback;
  private final AtomicReference<CompletableFuture<QueryResult>> current = new AtomicReference<>();
  private final AtomicBoolean failed = new AtomicBoolean();
  private final AtomicBoolean ended = new AtomicBoolean();

  NdjsonStream(TetherStore store, Executor executor, Set<CompletableFuture<QueryResult>> waits,
      BooleanSupplier shuttingDown, String instance, FrameQuery query, UnaryOperator<Frame> view, ByteBudget egress,
      Request request, Response response, Callback callback) {
    this.store = store;
    this.executor = executor;
    this.waits = waits;
    this.shuttingDown = shuttingDown;
    this.instance = instance;
    this.query = query;
    this.view = view;
    this.egress = egress;
    this.request = request;
    this.response = response;
    this.callback = callback;
    request.addFailureListener(t -> {
      failed.set(true);
      CompletableFuture<QueryResult> w = current.get();
      if (w != null) {
        w.cancel(false);
      }
    });
  }

  /**
   * Ends the stream: the wait in progress is cancelled, a write in progress finishes, and then the
   * last chunk is written instead of anything more. Only sets state; safe from any thread.
   */
  void end() {
    ended.set(true);
    CompletableFuture<QueryResult> w = current.get();
    if (w != null) {
      w.cancel(false);
    }
  }

  /** Waits for frames after {@code cursor}, writes them, and goes on. */
  void next(long cursor) {
    if (shuttingDown.getAsBoolean() || failed.get() || ended.get()) {
      response.write(true, ByteBuffer.allocate(0), callback);
      return;
    }
    CompletableFuture<QueryResult> wait =
        store.waitForFrames(instance, query.withAfterSeq(cursor), Duration.ofSeconds(HEARTBEAT_SECONDS));
    current.set(wait);
    if (ended.get()) {
      wait.cancel(false); // ended between the check above and publishing this wait
    }
    if (!wait.isDone()) {
      waits.add(wait);
      if (shuttingDown.getAsBoolean()) {
        wait.cancel(false);
      }
    }
    wait.whenCompleteAsync((result, failure) -> {
      waits.remove(wait);
      if (failure != null || ended.get()) {
        // The server stops, the instance went away, or the grant was revoked: nothing more is written.
        response.write(true, ByteBuffer.allocate(0), callback);
        return;
      }
      if (result.frames().isEmpty() && !result.gap()) {
        response.write(false, ByteBuffer.wrap(HEARTBEAT), Callback.from(() -> next(result.nextSeq()), callback::failed));
        return;
      }
      writeFrom(result, 0);
    }, executor);
  }

  /** Writes the window of {@code result}'s frames that starts at {@code from}, then the rest, then waits again. */
  private void writeFrom(QueryResult result, int from) {
    if (failed.get()) {
      return; // the request failed: Jetty has completed it
    }
    if (ended.get()) {
      response.write(true, ByteBuffer.allocate(0), callback);
      return;
    }
    List<Frame> frames = result.frames();
    int to = from;
    long bytes = 0;
    while (to < frames.size() && (to == from || bytes + frames.get(to).payload().size() + 200 <= WINDOW_BYTES)) {
      bytes += frames.get(to).payload().size() + 200;
      to++;
    }
    int end = to;
    Callback then = Callback.from(() -> {
      if (end < frames.size()) {
        writeFrom(result, end);
      } else {
        next(result.nextSeq());
      }
    }, callback::failed);
    // Reserved before the window is built, from the stored sizes; refs made inline can make it
    // larger by their images' base64, at most one frame's worth.
    Callback written = EgressWrite.reserve(egress, bytes + 64, then);
    if (written == null) {
      // The budget is spent by other answers: build this window shortly, holding nothing meanwhile.
      request.getComponents().getScheduler().schedule(() -> executor.execute(() -> writeFrom(result, from)),
          RETRY_MS, TimeUnit.MILLISECONDS);
      return;
    }
    AnswerBody lines;
    try {
      lines = FrameJson.streamLines(from == 0 && result.gap(), result.oldestSeq(), frames.subList(from, end), view);
    } catch (Throwable t) { // out of memory building the lines: end the stream, never leave it hanging
      written.failed(t);
      return;
    }
    SlicedWrite.write(response, false, lines, written); // a window is one frame when the frame is larger
  }
}
