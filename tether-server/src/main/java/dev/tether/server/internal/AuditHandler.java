package dev.tether.server.internal;

import dev.tether.server.AuditEvent;
import dev.tether.server.ServerListener;
import java.time.Instant;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * Tells a {@link ServerListener} of each host-agent interaction as an {@link AuditEvent}: every
 * request on an instance's routes ({@code /v1/instances/{id}} and below) or a mounted endpoint,
 * once its response completes. The routes fill in an {@link AuditNote} kept in a request attribute
 * (who, and for a send the frame); the byte counts come from Jetty's own counters. Wraps the API
 * only when a listener is bound ({@link #wrap}). The listener is called on the thread that
 * completes the response and must hand anything slow to its own thread. Thread-safe.
 */
final class AuditHandler extends Handler.Wrapper {
  private static final String INSTANCE_ROUTES = "/v1/instances/{id}";
  private final ServerListener listener;

  private AuditHandler(Handler next, ServerListener listener) {
    super(next);
    this.listener = listener;
  }

  /** {@code next} itself for {@link ServerListener#NONE}, else {@code next} audited. */
  static Handler wrap(Handler next, ServerListener listener) {
    return listener == ServerListener.NONE ? next : new AuditHandler(next, listener);
  }

  @Override
  public boolean handle(Request request, Response response, Callback callback) throws Exception {
    AuditNote note = new AuditNote();
    request.setAttribute(AuditNote.ATTRIBUTE, note);
    Callback audited = new Callback.Nested(callback) {
      @Override
      public void succeeded() {
        tell(request, response, note, response.getStatus());
        super.succeeded();
      }

      @Override
      public void failed(Throwable x) {
        int status = response.getStatus();
        tell(request, response, note, status == 0 || status == 200 ? 500 : status);
        super.failed(x);
      }
    };
    return super.handle(request, response, audited);
  }

  private void tell(Request request, Response response, AuditNote note, int status) {
    try {
      String route = note.route;
      String instance = note.instance;
      if (route == null) {
        RouteTable.Lookup at = ApiRoutes.TABLE.find(request.getHttpURI().getPath());
        route = at.metric();
        if (!route.startsWith(INSTANCE_ROUTES)) {
          return; // not a host-agent interaction: health, the registry, tokens, an unknown path
        }
        if (instance == null) {
          instance = at.instance();
        }
      }
      listener.audited(new AuditEvent(Instant.now(), note.tokenId, instance, note.channel, note.sessionId, note.msgId,
          note.type, route, RouteNames.method(request.getMethod()), status == 0 ? 200 : status,
          note.code == null ? null : note.code.name(), Request.getContentBytesRead(request),
          Response.getContentBytesWritten(response)));
    } catch (RuntimeException e) {
      // A faulty listener must not leave the response unfinished.
    }
  }
}
