package dev.tether.server.internal;

import java.nio.ByteBuffer;
import java.util.List;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.IteratingCallback;

/**
 * Writes one answer body (a poll page, a window of stream lines) to Jetty as its pieces, each cut
 * into views of at most {@value #SLICE_BYTES} bytes, one write after the other, then completes the
 * caller's callback once.
 *
 * <p>Why slices: a heap buffer handed to a socket channel is first copied into a temporary direct
 * buffer of its whole remaining size, on every partial write; a 28 MB payload written to a socket
 * that takes a few MB at a time would be copied about ten times over. Slices bound each copy to
 * one slice. Nothing is copied here: the slices are views of the pieces. Driven by Jetty's
 * completions, one write in flight at a time; never recursive.
 */
final class SlicedWrite extends IteratingCallback {
  static final int SLICE_BYTES = 1 << 20;

  private final Response response;
  private final boolean last;
  private final List<ByteBuffer> pieces;
  private final Callback callback;
  private int next;
  private ByteBuffer current;

  private SlicedWrite(Response response, boolean last, List<ByteBuffer> pieces, Callback callback) {
    this.response = response;
    this.last = last;
    this.pieces = pieces;
    this.callback = callback;
  }

  /** Writes {@code body}'s pieces (whose positions are not changed) and then completes {@code callback}. */
  static void write(Response response, boolean last, AnswerBody body, Callback callback) {
    List<ByteBuffer> pieces = body.buffers();
    if (pieces.isEmpty()) {
      response.write(last, ByteBuffer.allocate(0), callback);
    } else if (pieces.size() == 1 && pieces.get(0).remaining() <= SLICE_BYTES) {
      response.write(last, pieces.get(0), callback);
    } else {
      new SlicedWrite(response, last, pieces, callback).iterate();
    }
  }

  @Override
  protected Action process() {
    while (current == null || !current.hasRemaining()) {
      if (next == pieces.size()) {
        return Action.SUCCEEDED;
      }
      current = pieces.get(next++).slice();
    }
    int n = Math.min(SLICE_BYTES, current.remaining());
    ByteBuffer slice = current.slice(current.position(), n);
    current.position(current.position() + n);
    response.write(last && !current.hasRemaining() && next == pieces.size(), slice, this);
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
}
