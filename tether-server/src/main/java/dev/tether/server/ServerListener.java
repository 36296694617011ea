package dev.tether.server;

import dev.tether.api.ErrorCode;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * What a {@link TetherServer} counts as it happens, for a metrics binder (the
 * {@code tether-micrometer} module) or a test; the gauges (waits, streams, budgets in use) are read
 * from {@link TetherServer#stats()} instead. Every method has an empty default; {@link #NONE},
 * the builder's default, records nothing, and with it the server does not even wrap its handler.
 *
 * <p>Called on Jetty's threads when a response completes, never under the server's locks. Calls
 * must be quick and must not throw: a listener that does I/O (as {@link AuditLogFile}) hands the
 * event to its own thread. {@link #all} tells several listeners.
 */
public interface ServerListener {
  /** Records nothing. */
  ServerListener NONE = new ServerListener() {
    @Override
    public String toString() {
      return "ServerListener.NONE";
    }
  };

  /**
   * A request was answered (its response completed or failed).
   *
   * @param route the route template, one of a fixed set: {@code /v1/health}, {@code /v1/ready},
   *     {@code /v1/instances}, {@code /v1/instances/{id}}, {@code /v1/instances/{id}/tether},
   *     {@code .../tether/poll}, {@code .../tether/stream}, {@code .../tether/watermark},
   *     {@code .../blob}, {@code .../blob/{key}}, {@code /v1/tokens}, {@code /v1/tokens/{id}},
   *     {@code console} (the console's page and API) or {@code other}; never a raw path
   * @param method the HTTP method, or {@code OTHER} for one the API does not use
   * @param status the HTTP status sent (500 when the response failed before one was set)
   * @param nanos from the request's arrival to the end of its response (for a stream: its life)
   */
  default void requested(String route, String method, int status, long nanos) {}

  /** A frame POSTed to {@code instance} was refused with {@code code} (validation, budget, store full). */
  default void frameRefused(String instance, ErrorCode code) {}

  /**
   * A host-agent interaction completed: one event per request on an instance's routes or a mounted
   * endpoint (see {@link AuditEvent} for what it holds and never holds). Told after
   * {@link #requested} for the same request.
   */
  default void audited(AuditEvent event) {}

  /**
   * A listener that tells each of {@code listeners} in order; one that throws does not keep the
   * others from being told. {@link #NONE} for none.
   */
  static ServerListener all(ServerListener... listeners) {
    List<ServerListener> list = Arrays.stream(listeners).map(l -> Objects.requireNonNull(l, "listener"))
        .filter(l -> l != NONE).toList();
    if (list.isEmpty()) {
      return NONE;
    }
    return list.size() == 1 ? list.get(0) : new AllListeners(list);
  }
}
