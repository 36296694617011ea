package dev.tether.server.internal;

import dev.tether.server.ServerListener;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * Tells a {@link ServerListener} of every answered request: its route template ({@link RouteNames}),
 * method, status and the time from arrival to the end of the response. Wraps the API handler only
 * when a listener is bound ({@link #wrap}), so an unbound server reads no clock per request.
 * Thread-safe.
 */
final class MeteredHandler extends Handler.Wrapper {
  private final ServerListener listener;
  private final Connector console; // requests on it are the console's: route "console"

  private MeteredHandler(Handler next, ServerListener listener, Connector console) {
    super(next);
    this.listener = listener;
    this.console = console;
  }

  /** {@code next} itself for {@link ServerListener#NONE}, else {@code next} metered. */
  static Handler wrap(Handler next, ServerListener listener, Connector console) {
    return listener == ServerListener.NONE ? next : new MeteredHandler(next, listener, console);
  }

  @Override
  public boolean handle(Request request, Response response, Callback callback) throws Exception {
    long start = System.nanoTime();
    String route = console != null && request.getConnectionMetaData().getConnector() == console
        ? "console" : RouteNames.of(request.getHttpURI().getPath());
    String method = RouteNames.method(request.getMethod());
    Callback timed = new Callback.Nested(callback) {
      @Override
      public void succeeded() {
        tell(response.getStatus());
        super.succeeded();
      }

      @Override
      public void failed(Throwable x) {
        int status = response.getStatus();
        tell(status == 0 || status == 200 ? 500 : status);
        super.failed(x);
      }

      private void tell(int status) {
        try {
          listener.requested(route, method, status == 0 ? 200 : status, System.nanoTime() - start);
        } catch (RuntimeException e) {
          // A faulty listener must not leave the response unfinished.
        }
      }
    };
    return super.handle(request, response, timed);
  }
}
