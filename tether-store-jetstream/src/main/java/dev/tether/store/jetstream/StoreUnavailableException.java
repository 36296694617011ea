package dev.tether.store.jetstream;

import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * JetStream did not acknowledge an append, or answer a request, before the store's timeout: the
 * servers are unreachable, the stream has no leader (a new one takes a few seconds after the old
 * one fails) or no quorum. An append that fails this way may or may not have been stored; retrying
 * it stores it at most once more. HTTP servers answer it with 503 Service Unavailable.
 */
public final class StoreUnavailableException extends UncheckedIOException {
  private static final long serialVersionUID = 1L;

  public StoreUnavailableException(String message, Throwable cause) {
    super(message, cause instanceof IOException io ? io : new IOException(cause));
  }
}
