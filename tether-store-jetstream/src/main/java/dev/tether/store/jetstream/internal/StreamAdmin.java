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
import java.lang.System.Logger.Level;
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
  private static final System.Logger LOG = System.getLogger(StreamAdmin.class.getName());
  /** Per-message allowance for envelope, subject and headers in the stream's byte limit. */
  static final long MESSAGE_OVERHEAD_BYTES = 1024;
  /**
   * Transient deltas rotate over this many subjects, each rolled up to its newest delta, so a
   * stream holds at most this many of them: a reader that falls a little behind still gets them.
   */
  public static final int DELTA_SLOTS = 32;
  /**
   * Bytes allowed per delta slot in the stream's byte limit. Deltas are a few words each; a
   * window of deltas averaging more than this can push out stored frames under the byte cap.
   * Kept small because JetStream reserves a stream's {@code MaxBytes} on every replica's server
   * ({@code max_file_store}) when the stream is created.
   */
  static final long DELTA_SLOT_BYTES = 64 * 1024;
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
   * The instance's stream, opened as {@link #reconcile} does; when it does not exist, created
   * when {@code create}, else null.
   */
  public StreamInfo open(String instance, boolean create) {
    StreamInfo info = info(instance);
    if (info == null) {
      return create ? create(instance) : null;
    }
    return reconcile(instance, info, config(names, instance, retention, replicas, maxPayload));
  }

  /**
   * Creates the instance's stream with the limits of the retention; when another host created it
   * first returns that one's info. A stream made by an older version of this store (no count
   * bound, no rollup) is brought up to the current limits; one made by a host with other
   * retention settings is used as it is, with a warning (every host of a cluster should use the
   * same settings).
   */
  public StreamInfo create(String instance) {
    StreamConfiguration config = config(names, instance, retention, replicas, maxPayload);
    long deadline = System.nanoTime() + timeout.toNanos();
    for (int attempt = 0; ; attempt++) {
      try {
        return jsm.addStream(config);
      } catch (JetStreamApiException e) {
        if (e.getApiErrorCode() == STREAM_NAME_IN_USE) {
          return reconcile(instance, info(instance), config);
        }
        pauseOrGiveUp(instance, e, deadline, attempt);
      } catch (IOException e) {
        pauseOrGiveUp(instance, e, deadline, attempt);
      }
    }
  }

  /** Opens an existing stream: upgrades a legacy layout, warns about other settings. */
  public StreamInfo reconcile(String instance, StreamInfo info, StreamConfiguration wanted) {
    if (info == null) {
      return null;
    }
    StreamConfiguration have = info.getConfiguration();
    boolean legacy = have.getMaxMsgs() < 0 || (wanted.getAllowRollup() && !have.getAllowRollup());
    boolean same = have.getMaxMsgs() == wanted.getMaxMsgs() && have.getMaxBytes() == wanted.getMaxBytes()
        && have.getAllowRollup() == wanted.getAllowRollup();
    if (same) {
      return info;
    }
    if (!legacy) {
      LOG.log(Level.WARNING, "instance {0}: its stream keeps MaxMsgs={1}, MaxBytes={2} (set by another host);"
          + " this host would set {3} and {4}. Use the same retention on every host.",
          instance, have.getMaxMsgs(), have.getMaxBytes(), wanted.getMaxMsgs(), wanted.getMaxBytes());
      return info;
    }
    StreamConfiguration upgraded = StreamConfiguration.builder(have)
        .maxMessages(wanted.getMaxMsgs()).maxBytes(wanted.getMaxBytes()).allowRollup(wanted.getAllowRollup()).build();
    long deadline = System.nanoTime() + timeout.toNanos();
    for (int attempt = 0; ; attempt++) {
      try {
        LOG.log(Level.INFO, "instance {0}: bounding its stream to MaxMsgs={1}, MaxBytes={2}", instance,
            wanted.getMaxMsgs(), wanted.getMaxBytes());
        return jsm.updateStream(upgraded);
      } catch (JetStreamApiException | IOException e) {
        pauseOrGiveUp(instance, e, deadline, attempt);
      }
    }
  }

  /**
   * The stream of one instance under {@code retention}; see the design comment of
   * {@code JetStreamTetherStore} for why these limits bound it exactly.
   */
  public static StreamConfiguration config(Names names, String instance, Retention retention, int replicas,
      long maxPayload) {
    boolean transientDeltas = !retention.deltasInRing();
    // One slot more than there are: the server applies MaxMsgs to a new delta before its rollup
    // removes the slot's previous one, so for a moment a full window holds slots + 1 deltas.
    int slots = transientDeltas ? DELTA_SLOTS + 1 : 0;
    long maxMsgs = (long) retention.maxFrames() + slots;
    long maxBytes = retention.maxBytes() > Long.MAX_VALUE / 4 ? -1
        : retention.maxBytes() + maxMsgs * MESSAGE_OVERHEAD_BYTES + slots * Math.min(maxPayload, DELTA_SLOT_BYTES);
    return StreamConfiguration.builder()
        .name(names.stream(instance))
        .description("tether instance " + instance)
        .subjects(names.streamSubjects(instance))
        .storageType(StorageType.File)
        .replicas(replicas)
        .maxMessages(maxMsgs)
        .maxBytes(maxBytes)
        .allowRollup(transientDeltas)
        .discardPolicy(DiscardPolicy.Old)
        .maxMsgSize(maxPayload)
        .duplicateWindow(Duration.ofMinutes(2))
        .build();
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
