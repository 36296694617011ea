package dev.tether.server.internal;

import java.io.IOException;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpHeaderValue;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.util.Callback;

/**
 * Reads and discards the rest of a refused request body, so that the client, which is still
 * sending, gets to read the error answer (a lingering close): closing the connection with unread
 * bytes makes the kernel reset it, and most clients then lose the answer. Nothing is buffered.
 * After {@code capBytes} more bytes the connection is closed anyway. Not thread-safe: Jetty calls
 * {@link #run} serially.
 */
final class BodyDrainer implements Runnable {
  private final Request request;
  private final Callback callback;
  private final long capBytes;
  private long drained;

  private BodyDrainer(Request request, Callback callback, long capBytes) {
    this.request = request;
    this.callback = callback;
    this.capBytes = capBytes;
  }

  /**
   * Drains {@code request}, then completes {@code callback}. A client that sent
   * {@code Expect: 100-continue} never sends the body of a refused request, so nothing is read and
   * the connection closes.
   */
  static void drain(Request request, Callback callback, long capBytes) {
    if (HttpHeaderValue.CONTINUE.is(request.getHeaders().get(HttpHeader.EXPECT))) {
      callback.succeeded();
      return;
    }
    new BodyDrainer(request, callback, capBytes).run();
  }

  @Override
  public void run() {
    while (true) {
      Content.Chunk chunk = request.read();
      if (chunk == null) {
        request.demand(this);
        return;
      }
      if (Content.Chunk.isFailure(chunk)) {
        callback.failed(chunk.getFailure());
        return;
      }
      drained += chunk.remaining();
      boolean last = chunk.isLast();
      chunk.release();
      if (last) {
        callback.succeeded();
        return;
      }
      if (drained > capBytes) {
        callback.failed(new IOException("the refused body went on for more than " + capBytes + " bytes"));
        return;
      }
    }
  }
}
