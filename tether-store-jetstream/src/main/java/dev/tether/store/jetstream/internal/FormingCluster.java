package dev.tether.store.jetstream.internal;

import io.nats.client.JetStreamApiException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * Start-up calls retried while a JetStream cluster is still forming or re-forming (nodes and
 * hosts started together, or a node just restarted): a JetStream request that times out, or the
 * API answering 10005 "no suitable peers for placement" or 10008 "temporarily unavailable".
 * Anything else fails at once. Stateless.
 */
public final class FormingCluster {
  private static final System.Logger LOG = System.getLogger(FormingCluster.class.getName());
  private static final Set<Integer> FORMING_CODES = Set.of(10005, 10008);

  /** A start-up call. */
  @FunctionalInterface
  public interface Call<T> {
    T call() throws IOException, JetStreamApiException;
  }

  private FormingCluster() {}

  /**
   * {@code call}'s result, retrying with growing pauses (100 ms to 1 s) the failures of a forming
   * cluster until {@code timeout}; then, or for any other failure, the call's exception.
   */
  public static <T> T retry(String what, Duration timeout, Call<T> call) throws IOException, JetStreamApiException {
    long deadline = System.nanoTime() + timeout.toNanos();
    for (int attempt = 0; ; attempt++) {
      try {
        return call.call();
      } catch (IOException | JetStreamApiException e) {
        long pauseMillis = Math.min(1000, 100L << Math.min(attempt, 4));
        if (!forming(e) || System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(pauseMillis) - deadline > 0) {
          throw e;
        }
        LOG.log(System.Logger.Level.INFO, "{0}: JetStream not ready yet ({1}); retrying", what, e.getMessage());
        try {
          Thread.sleep(pauseMillis);
        } catch (InterruptedException ie) {
          Thread.currentThread().interrupt();
          throw new InterruptedIOException("interrupted while waiting for JetStream: " + what);
        }
      }
    }
  }

  /** Whether {@code e} is what a forming cluster answers (a timeout, 10005, 10008). */
  static boolean forming(Exception e) {
    if (e instanceof JetStreamApiException api) {
      return FORMING_CODES.contains(api.getApiErrorCode());
    }
    return !(e instanceof InterruptedIOException) || e instanceof SocketTimeoutException;
  }
}
