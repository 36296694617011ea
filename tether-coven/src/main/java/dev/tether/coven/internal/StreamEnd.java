package dev.tether.coven.internal;

import io.grpc.Status;
import java.util.Objects;

/**
 * How one stream to the gateway ended.
 *
 * @param kind the kind of ending
 * @param detail the gateway's or the transport's words
 * @param welcomed whether the gateway had accepted the registration on this stream
 * @param status the gRPC status for {@link Kind#FAILED}, else {@link Status#OK}
 */
record StreamEnd(Kind kind, String detail, boolean welcomed, Status status) {
  StreamEnd {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(detail, "detail");
    Objects.requireNonNull(status, "status");
  }

  enum Kind {
    /** The gateway sent Shutdown. */
    SHUTDOWN,
    /** The gateway sent RegistrationError. */
    REJECTED,
    /** The stream failed or was closed by the gateway without Shutdown. */
    FAILED,
    /** We closed it. */
    CLOSED
  }
}
