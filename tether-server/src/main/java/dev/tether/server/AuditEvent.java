package dev.tether.server;

import java.time.Instant;
import java.util.Objects;

/**
 * One host-agent interaction with the API, as {@link ServerListener#audited} is told of it and
 * {@link AuditLogFile} writes it: a request on an instance's routes ({@code /v1/instances/{id}}
 * and below) or on a {@link TetherServer.Builder#mount mounted} endpoint ({@code /mcp}), told once,
 * when its response has completed (a stream when it ends), whatever its status (a 401 too).
 *
 * <p>It never carries a token's value: {@code tokenId} is the id of the instance token that let the
 * request in ({@code tok-...}, as {@code tether token list} shows), or one of {@code host} (the host
 * token on TCP), {@code socket} (the owner-only Unix socket, which needs no token), {@code console}
 * (the web console's token), or null when no valid token was presented. No raw path either: the
 * route is a template. Immutable.
 *
 * @param time when the response completed
 * @param tokenId which credential let the request in (see above), or null
 * @param instance the instance the path names, or null (a mounted endpoint)
 * @param channel the session's channel: the frame's for a send, the {@code channel} filter of a
 *     poll or stream when given; else null
 * @param sessionId the session's id: the frame's for a send, the {@code session_id} filter of a
 *     poll or stream when given; else null
 * @param msgId the stored frame's {@code msg_id} (a send), or null
 * @param type the sent frame's type (a send), or null
 * @param route the route template ({@code /v1/instances/{id}/tether}, ...), or the mount path
 * @param method the HTTP method, or {@code OTHER}
 * @param status the HTTP status sent (500 when the response failed before one was set)
 * @param code the error code of a refused frame ({@code MALFORMED_FRAME}, ...) or of a refused
 *     credential ({@code UNAUTHORIZED}), when the server knows it; else null
 * @param bytesIn request body bytes read
 * @param bytesOut response body bytes written
 */
public record AuditEvent(Instant time, String tokenId, String instance, String channel, String sessionId, String msgId,
    String type, String route, String method, int status, String code, long bytesIn, long bytesOut) {
  public AuditEvent {
    Objects.requireNonNull(time, "time");
    Objects.requireNonNull(route, "route");
    Objects.requireNonNull(method, "method");
  }
}
