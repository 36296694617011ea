package dev.tether.server.internal;

import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * Sends each request to what its listener serves: requests that came in on the console's
 * connector to {@link ConsoleRoutes}, all others to the API handler it wraps. One Jetty server
 * runs both listeners, so they share the thread pool, graceful shutdown and the API's waits.
 * Thread-safe (immutable after construction).
 */
final class ConsoleRouter extends Handler.Wrapper {
  private final Connector console;
  private final ConsoleRoutes routes;

  ConsoleRouter(Handler api, Connector console, ConsoleRoutes routes) {
    super(api);
    this.console = console;
    this.routes = routes;
  }

  @Override
  public boolean handle(Request request, Response response, Callback callback) throws Exception {
    if (request.getConnectionMetaData().getConnector() == console) {
      return routes.handle(request, response, callback);
    }
    return super.handle(request, response, callback);
  }
}
