package dev.tether.store.jetstream;

import dev.tether.api.ErrorCode;

/**
 * JetStream did not acknowledge an append, or answer a request, before the store's timeout: the
 * servers are unreachable, the stream has no leader (a new one takes a few seconds after the old
 * one fails) or no quorum. An append that fails this way may or may not have been stored; retrying
 * it stores it at most once more.
 *
 * <p>Reads fail this way too when this host cannot show that its view of an instance holds every
 * acknowledged frame (after its connection moved to another server, or while the stream has no
 * leader): the store never answers a read with less than it acknowledged. HTTP servers answer it,
 * as every {@link dev.tether.store.StoreUnavailableException}, with {@link ErrorCode#UNAVAILABLE}
 * (503 Service Unavailable, {@code Retry-After: 1}).
 */
public final class StoreUnavailableException extends dev.tether.store.StoreUnavailableException {
  private static final long serialVersionUID = 1L;

  public StoreUnavailableException(String message, Throwable cause) {
    super(message, cause);
  }

  /** {@link ErrorCode#UNAVAILABLE}: the code a transport answers this with (HTTP 503). */
  public ErrorCode code() {
    return ErrorCode.UNAVAILABLE;
  }
}
