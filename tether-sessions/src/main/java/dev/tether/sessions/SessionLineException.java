package dev.tether.sessions;

/** A session file line that is not a turn this SDK can read. Never escapes the package: the loader skips the line and logs why. */
final class SessionLineException extends Exception {
  private static final long serialVersionUID = 1L;

  SessionLineException(String message) {
    super(message);
  }

  SessionLineException(String message, Throwable cause) {
    super(message, cause);
  }
}
