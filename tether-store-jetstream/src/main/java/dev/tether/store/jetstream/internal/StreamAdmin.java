package dev.tether.store.jetstream.internal;

import dev.tether.store.Retention;
import dev.tether.store.jetstream.StoreUnavailableException;
import io.nats.client.JetStreamApiException;
import io.nats.client.JetStreamManagement;
import io.nats.client.api.DiscardPolicy;
import io.nats.client.api.StorageType;
import io.nats.client.api.StreamConfiguration;
import io.nats.client.api.StreamInfo;
import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * Looks up and creates instance streams, retrying through leader changes and reconnects.
 *
 * <p>A new stream leader takes a few seconds after a node fails, and a connection may be moving
 * to another server; JetStream API requests fail meanwhile. Every request here is retried with a
 * short, growing pause until the store's timeout, then fails with
 * {@link StoreUnavailableException}: callers wait or get a clear error, never hang. Thread-safe.
 */
public final class StreamAdmin {
  /** Per-message allowance for envelope, subject and headers in the stream's byte limit. */
  static final long MESSAGE_OVERHEAD_BYTES = 1024;
  private static final int STREAM_NOT_FOUND = 10059;
  private static final int STREAM_NAME_IN_USE = 10058;

  private final JetStreamManagement jsm;
  private final Names names;
  private final Retention retention;
  private final int replicas;
  private final long maxPayload;
  private final Duration timeout;
  private final BooleanSupplier closed;

  public StreamAdmin(JetStreamManagement jsm, Names names, Retention retention, int replicas, long maxPayload,
      Duration timeout, BooleanSupplier closed) {
    this.jsm = jsm;
    this.names = names;
    this.retention = retention;
    this.replicas = replicas;
    this.maxPayload = maxPayload;
    this.timeout = timeout;
    this.closed = closed;
  }

  /** The instance stream's info, or null when it does not exist. */
  public StreamInfo info(String instance) {
    long deadline = System.nanoTime() + timeout.toNanos();
    for (int attempt = 0; ; attempt++) {
      try {
        return jsm.getStreamInfo(names.stream(instance));
      } catch (JetStreamApiException e) {
        if (e.getApiErrorCode() == STREAM_NOT_FOUND) {
          return null;
        }
        pauseOrGiveUp(instance, e, deadline, attempt);
      } catch (IOException e) {
        pauseOrGiveUp(instance, e, deadline, attempt);
      }
    }
  }

  /**
   * Creates the instance's stream with the limits of the retention; when another host created it
   * first (with the same or other settings) returns that one's info.
   */
  public StreamInfo create(String instance) {
    long maxBytes = retention.maxBytes() > Long.MAX_VALUE / 2 ? -1
        : retention.maxBytes() + retention.maxFrames() * MESSAGE_OVERHEAD_BYTES;
    StreamConfiguration config = StreamConfiguration.builder()
        .name(names.stream(instance))
        .description("tether instance " + instance)
        .subjects(names.streamSubjects(instance))
        .storageType(StorageType.File)
        .replicas(replicas)
        .maxMessages(retention.deltasInRing() ? retention.maxFrames() : -1)
        .maxBytes(maxBytes)
        .discardPolicy(DiscardPolicy.Old)
        .maxMsgSize(maxPayload)
        .duplicateWindow(Duration.ofMinutes(2))
        .build();
    long deadline = System.nanoTime() + timeout.toNanos();
    for (int attempt = 0; ; attempt++) {
      try {
        return jsm.addStream(config);
      } catch (JetStreamApiException e) {
        if (e.getApiErrorCode() == STREAM_NAME_IN_USE) {
          return info(instance);
        }
        pauseOrGiveUp(instance, e, deadline, attempt);
      } catch (IOException e) {
        pauseOrGiveUp(instance, e, deadline, attempt);
      }
    }
  }

  /** A JetStream call that may fail while a stream leader is elected or a server reconnects. */
  @FunctionalInterface
  public interface Call<T> {
    T call() throws IOException, JetStreamApiException;
  }

  /**
   * Runs {@code call}, retrying its IO and JetStream API failures with the same short, growing
   * pauses as the stream lookups until the store's timeout, then fails with
   * {@link StoreUnavailableException}. For calls that are safe to repeat, such as creating an
   * ordered consumer (a failed attempt leaves no subscription behind).
   */
  public <T> T retrying(String instance, Call<T> call) {
    long deadline = System.nanoTime() + timeout.toNanos();
    for (int attempt = 0; ; attempt++) {
      try {
        return call.call();
      } catch (JetStreamApiException | IOException e) {
        pauseOrGiveUp(instance, e, deadline, attempt);
      }
    }
  }

  private void pauseOrGiveUp(String instance, Exception e, long deadline, int attempt) {
    long pauseMillis = Math.min(500, 50L << Math.min(attempt, 4));
    if (closed.getAsBoolean() || System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(pauseMillis) - deadline > 0) {
      throw unavailable(instance, timeout, e);
    }
    try {
      Thread.sleep(pauseMillis);
    } catch (InterruptedException ie) {
      Thread.currentThread().interrupt();
      throw unavailable(instance, timeout, ie);
    }
  }

  /** The one wording of "JetStream did not answer" (unwrapping futures' wrappers). */
  public static StoreUnavailableException unavailable(String instance, Duration timeout, Throwable e) {
    Throwable cause = e instanceof CompletionException && e.getCause() != null ? e.getCause() : e;
    if (cause instanceof StoreUnavailableException s) {
      return s;
    }
    return new StoreUnavailableException("NATS JetStream did not answer for instance " + instance
        + " within " + timeout.toMillis() + " ms (servers unreachable, or the stream has no leader"
        + " or quorum); an append may or may not be stored. Retry later. Cause: " + cause, cause);
  }
}
