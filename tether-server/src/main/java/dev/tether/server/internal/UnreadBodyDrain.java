package dev.tether.server.internal;

import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * Before a request completes, reads and discards what is left of its body (up to {@code capBytes};
 * see {@link BodyDrainer}), so that every answer leaves the connection usable.
 *
 * <p>Why: a route that answers before it reads the body (401, 403, 404, 405, 400 on the path) has
 * already committed its response when it completes. If the rest of the body has not arrived by
 * then, Jetty can no longer add {@code Connection: close} and closes the connection after the
 * answer; a client that pooled the connection sends its next request into the closed socket
 * ("header parser received no bytes"). Draining first keeps the connection persistent. A body that
 * was read to its end costs one read of the end-of-content marker. Thread-safe (stateless).
 */
final class UnreadBodyDrain extends Handler.Wrapper {
  private final long capBytes;

  UnreadBodyDrain(Handler next, long capBytes) {
    super(next);
    this.capBytes = capBytes;
  }

  @Override
  public boolean handle(Request request, Response response, Callback callback) throws Exception {
    return super.handle(request, response,
        Callback.from(() -> BodyDrainer.drain(request, callback, capBytes), callback::failed));
  }
}
