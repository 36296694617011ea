package dev.tether.coven;

import java.util.Objects;

/**
 * Why a {@link CovenAgent} stopped for good.
 *
 * @param reason the kind of ending
 * @param detail the gateway's or the transport's words, for the log
 */
public record CovenTermination(Reason reason, String detail) {
  public CovenTermination {
    Objects.requireNonNull(reason, "reason");
    Objects.requireNonNull(detail, "detail");
  }

  /** The kinds of ending. */
  public enum Reason {
    /** The gateway sent {@code Shutdown}; the agent finished its request and left. */
    SHUTDOWN,
    /** The gateway answered the registration with {@code RegistrationError}. */
    REGISTRATION_REJECTED,
    /** The gateway refused the stream in a way retrying cannot fix (bad credentials, not approved). */
    REFUSED,
    /** {@link CovenAgent#close()} was called. */
    CLOSED
  }

  /** Whether this is a clean ending (exit status 0 for a command). */
  public boolean clean() {
    return reason == Reason.SHUTDOWN || reason == Reason.CLOSED;
  }
}
