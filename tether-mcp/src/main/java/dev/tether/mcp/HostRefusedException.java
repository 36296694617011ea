package dev.tether.mcp;

import java.util.Objects;

/**
 * The host refused a request for a reason other than the frame's contents (those are
 * {@link dev.tether.api.TetherException}s) or an unknown instance ({@link UnknownInstanceException}):
 * an argument it does not accept, missing or wrong credentials, a resource it does not have.
 * Retrying the same call cannot succeed, so tools report it as a definite tool error, never as
 * {@code UNAVAILABLE}.
 */
public final class HostRefusedException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** Why the host refused; each maps to one tool error code. */
  public enum Reason {
    /** HTTP 400 and the other 4xx answers about the request itself: tool error {@code INVALID_ARGUMENTS}. */
    INVALID_ARGUMENTS,
    /** HTTP 401 or 403: tool error {@code UNAUTHORIZED}. */
    UNAUTHORIZED,
    /** HTTP 404 for something other than an instance: tool error {@code NOT_FOUND}. */
    NOT_FOUND
  }

  private final Reason reason;

  /** @param message what the host said, as a sentence a user can act on */
  public HostRefusedException(Reason reason, String message) {
    super(Objects.requireNonNull(message, "message"));
    this.reason = Objects.requireNonNull(reason, "reason");
  }

  public Reason reason() {
    return reason;
  }
}
