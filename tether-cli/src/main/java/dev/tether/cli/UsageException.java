package dev.tether.cli;

/**
 * A command-line argument or local setup the user must fix (a bad {@code --listen}, an unsafe
 * token file). {@link Main} prints its message as one line on stderr and exits with status 2; no
 * stack trace, because there is nothing in it for the user.
 */
final class UsageException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  UsageException(String message) {
    super(message, null, false, false);
  }
}
