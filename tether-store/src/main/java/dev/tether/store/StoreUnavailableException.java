package dev.tether.store;

import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * The store cannot answer now but may soon: its servers are unreachable, a leader election is
 * under way, or it is catching up after a reconnect. An append that fails this way may or may not
 * have been stored. Retrying later can succeed; HTTP servers answer it with 503 Service
 * Unavailable and {@code Retry-After}.
 */
public class StoreUnavailableException extends UncheckedIOException {
  private static final long serialVersionUID = 1L;

  public StoreUnavailableException(String message, Throwable cause) {
    super(message, cause instanceof IOException io ? io : new IOException(cause));
  }
}
