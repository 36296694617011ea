package dev.tether.server.internal;

import dev.tether.api.ErrorCode;
import dev.tether.api.Frame;
import org.eclipse.jetty.server.Request;

/**
 * What the routes learn about a request for its {@link dev.tether.server.AuditEvent}: who it was,
 * and for a send, the frame. Kept in a request attribute by {@link AuditHandler} (only when a
 * listener is bound; every setter is then a no-op on a request without one). Fields are volatile:
 * they are set on the request's thread or a body-completion thread and read when the response
 * completes.
 */
final class AuditNote {
  static final String ATTRIBUTE = "dev.tether.server.internal.audit";

  volatile String tokenId;
  volatile String instance;
  volatile String route; // set by the mount router; else the route table's template
  volatile String channel;
  volatile String sessionId;
  volatile String msgId;
  volatile String type;
  volatile ErrorCode code;

  /** The note of {@code request}, or null when nobody audits. */
  static AuditNote of(Request request) {
    return request.getAttribute(ATTRIBUTE) instanceof AuditNote n ? n : null;
  }

  static void caller(Request request, String tokenId, String instance) {
    AuditNote n = of(request);
    if (n != null) {
      n.tokenId = tokenId;
      n.instance = instance;
    }
  }

  static void frame(Request request, Frame stored) {
    AuditNote n = of(request);
    if (n != null) {
      n.msgId = stored.msgId().orElse(null);
      n.type = stored.type();
      stored.session().ifPresent(s -> {
        n.channel = s.channel();
        n.sessionId = s.id();
      });
    }
  }

  static void filters(Request request, String channel, String sessionId) {
    AuditNote n = of(request);
    if (n != null) {
      n.channel = channel;
      n.sessionId = sessionId;
    }
  }

  static void refused(Request request, ErrorCode code) {
    AuditNote n = of(request);
    if (n != null) {
      n.code = code;
    }
  }

  static void route(Request request, String route) {
    AuditNote n = of(request);
    if (n != null) {
      n.route = route;
    }
  }
}
