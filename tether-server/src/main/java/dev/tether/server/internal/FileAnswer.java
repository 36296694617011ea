package dev.tether.server.internal;

import dev.tether.api.ErrorCode;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ReadableByteChannel;
import java.time.Duration;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.IteratingCallback;

/**
 * Writes an already opened file (an attachment) as an answer body, in windows of at most
 * {@value #WINDOW_BYTES} bytes, each reserved from the egress {@link ByteBudget} before it is read
 * and given back when its write ends: however large the file and however many readers stall, the
 * heap holds at most one window per answer, and only within the budget poll and stream answers
 * share.
 *
 * <p>Design: the size is the open file's, taken once by the caller (a shared attachment's stored size), and sent
 * as {@code Content-Length}; exactly that many bytes follow. The first window is reserved before
 * the head is written: when it does not fit, the answer is 503 with {@code Retry-After} and
 * nothing else was sent (as a poll). Later windows that do not fit are retried every
 * {@value #RETRY_MS} ms, holding nothing meanwhile (as a stream); when none has fit for the
 * request idle timeout the answer is cut, as a stalled write is. A write that moves no bytes for
 * the request idle timeout fails (Jetty's idle timeout), which gives its window back and ends the
 * answer: a reader that stops reading holds one window for at most that long. A file that shrinks
 * while it is sent ends the answer with a failure (the client sees fewer bytes than announced);
 * one that grows is sent at its opening size. The channel is closed when the answer ends, however
 * it ends. Driven by Jetty's write completions, one write in flight; never recursive. Not reusable.
 */
final class FileAnswer extends IteratingCallback {
  static final int WINDOW_BYTES = 256 * 1024;
  static final int RETRY_MS = 100;

  private final ReadableByteChannel channel;
  private final long size;
  private final ByteBudget egress;
  private final Request request;
  private final Response response;
  private final Executor executor;
  private final Callback callback;
  private final long stallNanos;
  private long sent;
  private long firstReserved; // the first window's reservation, taken before the head
  private long waitingSince = -1;
  private boolean lastWritten;

  private FileAnswer(ReadableByteChannel channel, long size, ByteBudget egress, Request request, Response response,
      Executor executor, Duration stallCut, Callback callback) {
    this.channel = channel;
    this.size = size;
    this.egress = egress;
    this.request = request;
    this.response = response;
    this.executor = executor;
    this.stallNanos = stallCut.toNanos();
    this.callback = callback;
  }

  /**
   * Answers 200 with the {@code size} bytes of {@code channel} (positioned at its start) as
   * {@code contentType}, with whatever headers the caller already put; or 503 when the egress
   * budget has no room for the first window. Takes ownership of {@code channel}: it is closed when
   * the answer ends, also when it is refused.
   *
   * @param stallCut how long no window may fit before the answer is cut: the request idle timeout
   */
  static void write(ReadableByteChannel channel, long size, String contentType, ByteBudget egress, Request request,
      Response response, Executor executor, Duration stallCut, Callback callback) {
    long first = cost(Math.min(WINDOW_BYTES, size));
    if (first > 0 && !egress.tryReserve(first)) {
      closeQuietly(channel);
      response.getHeaders().put(HttpHeader.RETRY_AFTER, "1");
      byte[] body = ErrorBody.of(ErrorCode.UNAVAILABLE,
          "the server is writing too many large answers at once; retry shortly");
      response.setStatus(ErrorCode.UNAVAILABLE.httpStatus());
      response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/json");
      response.getHeaders().put(HttpHeader.CONTENT_LENGTH, body.length);
      response.write(true, ByteBuffer.wrap(body), callback);
      return;
    }
    response.setStatus(200);
    response.getHeaders().put(HttpHeader.CONTENT_TYPE, contentType);
    response.getHeaders().put(HttpHeader.CONTENT_LENGTH, size);
    FileAnswer answer = new FileAnswer(channel, size, egress, request, response, executor, stallCut, callback);
    answer.firstReserved = first;
    answer.iterate();
  }

  /** What a window of {@code bytes} reserves: nothing for a small one (bounded by the connection cap), as {@link EgressWrite}. */
  private static long cost(long bytes) {
    return bytes <= EgressWrite.SMALL_ANSWER_BYTES ? 0 : bytes;
  }

  @Override
  protected Action process() throws Throwable {
    if (lastWritten) {
      return Action.SUCCEEDED;
    }
    int n = (int) Math.min(WINDOW_BYTES, size - sent);
    long reserved = firstReserved;
    firstReserved = 0;
    if (reserved == 0 && cost(n) > 0) {
      if (!egress.tryReserve(cost(n))) {
        return retryLater();
      }
      reserved = cost(n);
    }
    waitingSince = -1;
    Callback written = reserved == 0 ? this : EgressWrite.holding(egress, reserved, this);
    ByteBuffer window;
    try {
      window = ByteBuffer.allocate(n);
      while (window.hasRemaining()) {
        if (channel.read(window) < 0) {
          throw new EOFException("the file shrank to " + (sent + window.position()) + " bytes while it was sent; "
              + size + " were announced");
        }
      }
    } catch (Throwable t) { // an I/O error or out of memory: give the window back, end the answer
      written.failed(t);
      return Action.SCHEDULED;
    }
    window.flip();
    sent += n;
    lastWritten = sent == size;
    response.write(lastWritten, window, written);
    return Action.SCHEDULED;
  }

  /** The budget is spent: try this window again shortly, or cut the answer after the stall timeout. */
  private Action retryLater() throws IOException {
    long now = System.nanoTime();
    if (waitingSince < 0) {
      waitingSince = now;
    } else if (now - waitingSince > stallNanos) {
      throw new IOException("no egress budget for " + (stallNanos / 1_000_000_000L) + " s; the answer was cut after "
          + sent + " of " + size + " bytes");
    }
    request.getComponents().getScheduler().schedule(() -> executor.execute(this::succeeded), RETRY_MS,
        TimeUnit.MILLISECONDS);
    return Action.SCHEDULED;
  }

  @Override
  protected void onCompleteSuccess() {
    callback.succeeded();
  }

  @Override
  protected void onCompleteFailure(Throwable cause) {
    callback.failed(cause);
  }

  /** Once the iteration and its last write are both done: the file is closed before the caller hears of it. */
  @Override
  protected void onCompleted(Throwable causeOrNull) {
    if (firstReserved > 0) { // never used: the answer failed before its first window
      egress.release(firstReserved);
      firstReserved = 0;
    }
    closeQuietly(channel);
    super.onCompleted(causeOrNull); // calls onCompleteSuccess or onCompleteFailure
  }

  private static void closeQuietly(ReadableByteChannel channel) {
    try {
      channel.close();
    } catch (IOException e) {
      // a read-only file: nothing to lose
    }
  }
}
