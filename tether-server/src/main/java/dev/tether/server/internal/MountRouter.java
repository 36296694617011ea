package dev.tether.server.internal;

import static dev.tether.server.internal.Answers.send;

import dev.tether.api.ErrorCode;
import dev.tether.server.TetherServer;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.util.Callback;

/**
 * Sends requests below a mounted path ({@code TetherServer.Builder.mount}, e.g. {@code /mcp}) to
 * the handler mounted there, after the API's own checks: the bearer token (on TCP; a missing or
 * unknown one gets 401), shutdown (503) and path parameters (400). The instance an instance token
 * opens is put in the request attribute {@link dev.tether.server.TetherServer#INSTANCE_SCOPE_ATTRIBUTE}
 * (absent for the host token and the Unix socket), so the mounted handler can hold the caller to
 * it. Every other request goes to the API handler it wraps. A mounted handler that does not take a
 * request gets a JSON 404. A request an instance token let in ends when that token is revoked or
 * its instance deleted (see {@link #held}). The mounted handlers are managed beans: they start and stop with the
 * server. Thread-safe (immutable after construction).
 */
final class MountRouter extends Handler.Wrapper {
  /** One mounted handler and the path it answers at and below. */
  record Mount(String path, Handler handler) {}

  private final TetherHandler api;
  private final List<Mount> mounts;

  MountRouter(TetherHandler api, List<Mount> mounts) {
    super(api);
    this.api = api;
    this.mounts = List.copyOf(mounts);
    for (Mount m : this.mounts) {
      addBean(m.handler(), true);
    }
  }

  @Override
  public void setServer(Server server) {
    super.setServer(server);
    for (Mount m : mounts) {
      m.handler().setServer(server);
    }
  }

  @Override
  public boolean handle(Request request, Response response, Callback callback) throws Exception {
    Mount mount = find(request);
    if (mount == null) {
      return super.handle(request, response, callback);
    }
    AuditNote.route(request, mount.path());
    String raw = request.getHttpURI().getPath();
    if (request.getHttpURI().getParam() != null || (raw != null && raw.indexOf(';') >= 0)) {
      return send(response, callback, 400, ErrorBody.of(ErrorCode.INVALID_ARGUMENT, "path parameters (';') are not accepted"));
    }
    Optional<TetherHandler.Caller> caller = api.authenticate(request, response, callback);
    if (caller.isEmpty()) {
      return true; // answered
    }
    if (caller.get().scope() != null) {
      request.setAttribute(TetherServer.INSTANCE_SCOPE_ATTRIBUTE, caller.get().scope());
    } else {
      request.removeAttribute(TetherServer.INSTANCE_SCOPE_ATTRIBUTE);
    }
    Callback held = caller.get().grantId() == null ? callback : held(request, caller.get(), callback);
    if (!mount.handler().handle(request, response, held)) {
      return send(response, held, ErrorCode.NOT_FOUND.httpStatus(), ErrorBody.of(ErrorCode.NOT_FOUND,
          "no such endpoint below " + mount.path()));
    }
    return true;
  }

  /**
   * Files a request that an instance token let in with the API's {@link Grants}, as a long-poll or
   * stream of the API is, so that revoking the token or deleting its instance ends it at once: its
   * connection is closed (an SSE stream of {@code /mcp} ends, a tool call waiting in a POST is cut),
   * and what the client sends next with that token is 401. The hook only hands the close to the
   * server's pool (it runs on the revoking thread); a request already complete is left alone. The
   * hold is given back when the request completes.
   */
  private Callback held(Request request, TetherHandler.Caller caller, Callback callback) {
    AtomicBoolean done = new AtomicBoolean();
    EndPoint endPoint = request.getConnectionMetaData().getConnection().getEndPoint();
    Executor pool = request.getComponents().getThreadPool();
    Grants grants = api.grants();
    Grants.Hold hold = grants.hold(caller.grantId(), caller.scope(), why -> {
      if (!done.get()) {
        try {
          pool.execute(() -> endPoint.close(why));
        } catch (RejectedExecutionException stopping) {
          endPoint.close(why); // the pool is stopping: close here rather than leave the stream open
        }
      }
    });
    return Callback.from(() -> { // before the request's own completion, so a next request on the connection is never closed
      done.set(true);
      grants.release(hold);
    }, callback);
  }

  private Mount find(Request request) {
    String path;
    try {
      path = request.getHttpURI().getDecodedPath(); // dot segments resolved, as the API routes see it
    } catch (RuntimeException e) {
      return null; // a malformed encoding: the API handler answers 400
    }
    if (path == null) {
      return null;
    }
    for (Mount m : mounts) {
      if (path.equals(m.path()) || path.startsWith(m.path() + "/")) {
        return m;
      }
    }
    return null;
  }
}
