package dev.tether.server.internal;

import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * Sends requests that came in on the owner-only Unix socket a TCP server keeps as well to the API
 * as the host's ({@link TetherHandler#handleOwner}), all others to the handler it wraps, so that
 * {@code tether token} and the other local commands reach a server started with {@code --listen}
 * by the default socket. Thread-safe (immutable after construction).
 */
final class LocalSocketRouter extends Handler.Wrapper {
  private final Connector local;
  private final TetherHandler api;

  LocalSocketRouter(Handler next, Connector local, TetherHandler api) {
    super(next);
    this.local = local;
    this.api = api;
  }

  @Override
  public boolean handle(Request request, Response response, Callback callback) throws Exception {
    if (request.getConnectionMetaData().getConnector() == local) {
      return api.handleOwner(request, response, callback);
    }
    return super.handle(request, response, callback);
  }
}
