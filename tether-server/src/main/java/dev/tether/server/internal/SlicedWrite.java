package dev.tether.server.internal;

import java.nio.ByteBuffer;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.IteratingCallback;

/**
 * Writes one large body (a poll page, a window of stream lines) to Jetty as views of at most
 * {@value #SLICE_BYTES} bytes, one after the other, then completes the caller's callback once.
 *
 * <p>Why: a heap buffer handed to a socket channel is first copied into a temporary direct buffer
 * of its whole remaining size, on every partial write; a 28 MB page written to a socket that
 * takes a few MB at a time would be copied about ten times over. Slices bound each copy to one
 * slice. Nothing is copied here: the slices are views of {@code body}. Driven by Jetty's
 * completions, one write in flight at a time; never recursive.
 */
final class SlicedWrite extends IteratingCallback {
  static final int SLICE_BYTES = 1 << 20;

  private final Response response;
  private final boolean last;
  private final ByteBuffer body;
  private final Callback callback;

  private SlicedWrite(Response response, boolean last, ByteBuffer body, Callback callback) {
    this.response = response;
    this.last = last;
    this.body = body.slice();
    this.callback = callback;
  }

  /** Writes {@code body} (its remaining bytes, which are not changed) and then completes {@code callback}. */
  static void write(Response response, boolean last, ByteBuffer body, Callback callback) {
    if (body.remaining() <= SLICE_BYTES) {
      response.write(last, body, callback);
      return;
    }
    new SlicedWrite(response, last, body, callback).iterate();
  }

  @Override
  protected Action process() {
    if (!body.hasRemaining()) {
      return Action.SUCCEEDED;
    }
    int n = Math.min(SLICE_BYTES, body.remaining());
    ByteBuffer slice = body.slice(body.position(), n);
    body.position(body.position() + n);
    response.write(last && !body.hasRemaining(), slice, this);
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
