package dev.tether.store.jetstream;

/**
 * JetStream did not acknowledge an append, or answer a request, before the store's timeout: the
 * servers are unreachable, the stream has no leader (a new one takes a few seconds after the old
 * one fails) or no quorum. An append that fails this way may or may not have been stored; retrying
 * it stores it at most once more. HTTP servers answer it with 503 Service Unavailable, as every
 * {@link dev.tether.store.StoreUnavailableException}.
 */
public final class StoreUnavailableException extends dev.tether.store.StoreUnavailableException {
  private static final long serialVersionUID = 1L;

  public StoreUnavailableException(String message, Throwable cause) {
    super(message, cause);
  }
}
