package dev.tether.store.jetstream;

import dev.tether.api.ErrorCode;
import dev.tether.api.TetherException;
import dev.tether.store.jetstream.internal.FormingCluster;
import dev.tether.store.jetstream.internal.Names;
import dev.tether.store.jetstream.internal.RegistryCodec;
import io.nats.client.Connection;
import io.nats.client.JetStreamApiException;
import io.nats.client.JetStreamOptions;
import io.nats.client.KeyValue;
import io.nats.client.KeyValueOptions;
import io.nats.client.api.KeyValueConfiguration;
import io.nats.client.api.KeyValueEntry;
import io.nats.client.api.KeyValueOperation;
import io.nats.client.api.KeyValueWatcher;
import io.nats.client.api.StorageType;
import io.nats.client.impl.NatsKeyValueWatchSubscription;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The instance registry shared by every host on the same NATS servers (and subject prefix): which
 * instances exist, with their creation time, workspace and attributes, and each instance's
 * per-channel watermarks. What {@code tether serve --nats} keeps instead of a local
 * {@code instances.json}, so a {@code PUT} or {@code DELETE} on one host holds on all.
 *
 * <p><b>Storage.</b> One JetStream KV bucket ({@code TETHER_REGISTRY}, history 1, file storage,
 * the store's replicas): key {@code i.<id>} holds an instance as JSON, {@code w.<id>.<channel>}
 * one watermark (names escaped as stream names are). {@link #create} is create-if-absent by KV
 * revision (the server's compare-and-set), so two hosts creating one id at once end with one
 * instance and one of them told {@code created}. A watermark carries the revision of the instance
 * it was set on, so one left over from a deleted instance of the same id is never read back.
 *
 * <p><b>Reads and visibility.</b> Each registry watches the instance keys and keeps them in memory
 * (a few hundred bytes per instance), so {@link #get} and {@link #list} cost no request. A
 * {@link #get} that misses asks the bucket once (an instance another host created a moment ago is
 * found at once); a delete on another host reaches this one's view through the watch, within
 * milliseconds when the servers are reachable. Watermarks are read from the bucket on each call.
 *
 * <p><b>Bounds.</b> At most {@link Builder#maxInstances} instances (a create beyond it fails with
 * {@link ErrorCode#TOO_MANY_INSTANCES}; two hosts creating at the very same moment may pass it by
 * one each) and {@link Builder#maxChannels} watermark channels per instance
 * ({@link ErrorCode#INVALID_ARGUMENT}); values are at most 16 KiB. A delete removes the instance's
 * watermarks too.
 *
 * <p><b>Failures.</b> When JetStream does not answer within the request timeout, calls that need
 * it throw {@link StoreUnavailableException} (HTTP 503); {@link #get} of a known instance and
 * {@link #list} answer from memory.
 *
 * <p>Thread-safe. It runs no caller code: the watch only updates its map.
 */
public final class JetStreamRegistry implements AutoCloseable {
  private static final System.Logger LOG = System.getLogger(JetStreamRegistry.class.getName());
  private static final int WRONG_LAST_SEQUENCE = 10071;
  static final int MAX_VALUE_BYTES = 16 * 1024;

  /** What this host knows of one key: the instance (null once deleted) and the newest revision seen. */
  private record Known(RegisteredInstance instance, long revision) {}

  private final Connection nc;
  private final KeyValue kv;
  private final Names names;
  private final int maxInstances;
  private final int maxChannels;
  private final ConcurrentHashMap<String, Known> known = new ConcurrentHashMap<>(); // by KV key
  private final AtomicInteger deletes = new AtomicInteger();
  private final NatsKeyValueWatchSubscription watch;
  private final Duration conflictTimeout;

  private JetStreamRegistry(Builder b, KeyValue kv) throws IOException {
    this.nc = b.connection;
    this.conflictTimeout = b.openTimeout;
    this.kv = kv;
    this.names = new Names(b.subjectPrefix);
    this.maxInstances = b.maxInstances;
    this.maxChannels = b.maxChannels;
    CountDownLatch loaded = new CountDownLatch(1);
    try {
      this.watch = kv.watch("i.>", new KeyValueWatcher() {
        @Override
        public void watch(KeyValueEntry e) {
          apply(e);
        }

        @Override
        public void endOfData() {
          loaded.countDown();
        }
      });
      if (!loaded.await(b.requestTimeout.toMillis() * 10, TimeUnit.MILLISECONDS)) {
        LOG.log(System.Logger.Level.WARNING, "the registry did not load within {0}; starting with what it has",
            b.requestTimeout.multipliedBy(10));
      }
    } catch (JetStreamApiException e) {
      throw new IOException("cannot watch the registry bucket: " + e.getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while loading the registry");
    }
  }

  public static Builder builder() {
    return new Builder();
  }

  // --- instances ---------------------------------------------------------------------------------

  /** The outcome of {@link #create}: the instance as registered, and whether this call made it. */
  public record Created(RegisteredInstance instance, boolean created) {}

  /**
   * Registers {@code id} unless it exists. When it exists (created by any host, at any time before
   * or concurrently), returns that entry unchanged with {@code created} false: the caller decides
   * whether a different workspace is a conflict.
   *
   * @param workspace the workspace to record, or null for none
   * @param attributes anything else to keep (copied; empty for none)
   * @throws TetherException {@link ErrorCode#TOO_MANY_INSTANCES} when the registry is full,
   *     {@link ErrorCode#INVALID_ARGUMENT} when the entry is larger than 16 KiB
   * @throws StoreUnavailableException when JetStream does not answer
   */
  public Created create(String id, String workspace, Map<String, String> attributes) {
    requireId(id);
    Objects.requireNonNull(attributes, "attributes");
    for (int attempt = 0; ; attempt++) {
      // The bucket decides, not this host's memory: another host may have deleted the id a moment
      // ago, and the watch may not have told this host yet.
      Instant now = Instant.now();
      byte[] value = RegistryCodec.instance(id, now, workspace, attributes);
      if (value.length > MAX_VALUE_BYTES) {
        throw TetherException.of(ErrorCode.INVALID_ARGUMENT, "the registry entry of instance '" + shorten(id) + "' is "
            + value.length + " bytes; at most " + MAX_VALUE_BYTES + " bytes of workspace and attributes are kept");
      }
      if (size() >= maxInstances && !isKnown(id)) {
        throw TetherException.of(ErrorCode.TOO_MANY_INSTANCES, "the registry holds its maximum of " + maxInstances
            + " instances; delete one first");
      }
      try {
        long rev = kv.create(names.registryKey(id), value);
        RegisteredInstance made = new RegisteredInstance(id, now, workspace, attributes, rev);
        remember(names.registryKey(id), made, rev);
        return new Created(made, true);
      } catch (JetStreamApiException e) {
        if (e.getApiErrorCode() != WRONG_LAST_SEQUENCE || attempt >= 5) {
          throw unavailable("create instance " + shorten(id), e);
        }
        // It exists (created by any host, now or before): answer what the bucket holds.
        RegisteredInstance existing = afterConflict(id);
        if (existing != null) {
          return new Created(existing, false);
        }
        // deleted in between: try again
      } catch (IOException e) {
        throw unavailable("create instance " + shorten(id), e);
      }
    }
  }

  /**
   * The entry another host made of {@code id} a moment before this host's create: from the bucket,
   * or, while a forming cluster leaves the look-up unanswered (two hosts registering one id as they
   * start, on a bucket just made), from the watch, which brings that entry too. Retried until
   * {@link Builder#openTimeout}; then {@link StoreUnavailableException}.
   */
  private RegisteredInstance afterConflict(String id) {
    long deadline = System.nanoTime() + conflictTimeout.toNanos();
    for (int attempt = 0; ; attempt++) {
      try {
        return fromBucket(id);
      } catch (StoreUnavailableException e) {
        Known k = known.get(names.registryKey(id));
        if (k != null && k.instance() != null) {
          return k.instance(); // the watch saw the other host's create
        }
        long pauseMillis = Math.min(1000, 100L << Math.min(attempt, 4));
        if (System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(pauseMillis) - deadline > 0) {
          throw e;
        }
        LOG.log(System.Logger.Level.INFO, "instance {0} exists but the registry did not answer its look-up yet; retrying",
            shorten(id));
        try {
          Thread.sleep(pauseMillis);
        } catch (InterruptedException ie) {
          Thread.currentThread().interrupt();
          throw e;
        }
      }
    }
  }

  private boolean isKnown(String id) {
    Known k = known.get(names.registryKey(id));
    return k != null && k.instance() != null;
  }

  /** What the bucket holds for {@code id} now (null when absent or deleted), also noted in memory. */
  private RegisteredInstance fromBucket(String id) {
    KeyValueEntry e;
    try {
      e = kv.get(names.registryKey(id));
    } catch (IOException | JetStreamApiException ex) {
      throw unavailable("look up instance " + shorten(id), ex);
    }
    if (e == null || e.getOperation() != KeyValueOperation.PUT) {
      return null;
    }
    apply(e);
    RegistryCodec.InstanceValue v = RegistryCodec.readInstance(e.getValue());
    return v == null ? null : new RegisteredInstance(v.id(), v.createdAt(), v.workspace(), v.attributes(), e.getRevision());
  }

  /**
   * The instance {@code id}, from memory; an id not in memory is looked up in the bucket once, so
   * an instance another host just created is found.
   *
   * @throws StoreUnavailableException when the lookup of an unknown id gets no answer
   */
  public Optional<RegisteredInstance> get(String id) {
    requireId(id);
    Known k = known.get(names.registryKey(id));
    if (k != null && k.instance() != null) {
      return Optional.of(k.instance());
    }
    return Optional.ofNullable(readThrough(id));
  }

  /** Every instance this host knows, oldest first (a copy). Answers from memory. */
  public List<RegisteredInstance> list() {
    return known.values().stream().map(Known::instance).filter(Objects::nonNull)
        .sorted(Comparator.comparing(RegisteredInstance::createdAt).thenComparing(RegisteredInstance::id)).toList();
  }

  /** How many instances this host knows. */
  public int size() {
    int n = 0;
    for (Known k : known.values()) {
      if (k.instance() != null) {
        n++;
      }
    }
    return n;
  }

  /**
   * Deletes {@code id} and its watermarks on every host. Returns false when it did not exist (or
   * another host deleted it first).
   *
   * @throws StoreUnavailableException when JetStream does not answer
   */
  public boolean delete(String id) {
    requireId(id);
    RegisteredInstance current = readThrough(id);
    if (current == null) {
      return false;
    }
    try {
      try {
        kv.purge(names.registryKey(id), current.revision());
      } catch (JetStreamApiException e) {
        if (e.getApiErrorCode() != WRONG_LAST_SEQUENCE) {
          throw e;
        }
        return false; // deleted (or deleted and created again) by another host meanwhile
      }
      remember(names.registryKey(id), null, current.revision());
      for (String key : kv.keys(names.watermarkKeys(id))) {
        kv.purge(key);
      }
      if (deletes.incrementAndGet() % 256 == 0) {
        kv.purgeDeletes(); // drops delete markers older than 30 minutes, so churn does not grow the bucket
      }
      return true;
    } catch (IOException | JetStreamApiException e) {
      throw unavailable("delete instance " + shorten(id), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw unavailable("delete instance " + shorten(id), e);
    }
  }

  // --- watermarks --------------------------------------------------------------------------------

  /**
   * The watermark of {@code channel} on instance {@code id}, 0 when never set.
   *
   * @throws TetherException {@link ErrorCode#INSTANCE_NOT_FOUND} when the instance does not exist
   * @throws StoreUnavailableException when JetStream does not answer
   */
  public long watermark(String id, String channel) {
    RegisteredInstance instance = require(id);
    Objects.requireNonNull(channel, "channel");
    try {
      KeyValueEntry e = kv.get(names.watermarkKey(id, channel));
      RegistryCodec.WatermarkValue w = e == null ? null : RegistryCodec.readWatermark(e.getValue());
      return w != null && w.instanceRevision() == instance.revision() && w.channel().equals(channel) ? w.seq() : 0;
    } catch (IOException | JetStreamApiException e) {
      throw unavailable("read a watermark of " + shorten(id), e);
    }
  }

  /**
   * Every watermark of instance {@code id}, by channel (a copy).
   *
   * @throws TetherException {@link ErrorCode#INSTANCE_NOT_FOUND} when the instance does not exist
   * @throws StoreUnavailableException when JetStream does not answer
   */
  public Map<String, Long> watermarks(String id) {
    RegisteredInstance instance = require(id);
    Map<String, Long> out = new TreeMap<>();
    try {
      for (String key : kv.keys(names.watermarkKeys(id))) {
        KeyValueEntry e = kv.get(key);
        RegistryCodec.WatermarkValue w = e == null ? null : RegistryCodec.readWatermark(e.getValue());
        if (w != null && w.instanceRevision() == instance.revision()) {
          out.put(w.channel(), w.seq());
        }
      }
      return out;
    } catch (IOException | JetStreamApiException e) {
      throw unavailable("read the watermarks of " + shorten(id), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw unavailable("read the watermarks of " + shorten(id), e);
    }
  }

  /**
   * Sets the watermark of {@code channel} on instance {@code id} to {@code seq}, as given (a client
   * may move its own cursor back); durable on the servers (a quorum of them) when this returns.
   *
   * @throws IllegalArgumentException when {@code seq < 0}
   * @throws TetherException {@link ErrorCode#INSTANCE_NOT_FOUND} when the instance does not exist,
   *     {@link ErrorCode#INVALID_ARGUMENT} when it already has the maximum of channels
   * @throws StoreUnavailableException when JetStream does not answer
   */
  public void setWatermark(String id, String channel, long seq) {
    if (seq < 0) {
      throw new IllegalArgumentException("seq must be >= 0 but was " + seq);
    }
    Objects.requireNonNull(channel, "channel");
    RegisteredInstance instance = require(id);
    String key = names.watermarkKey(id, channel);
    byte[] value = RegistryCodec.watermark(channel, seq, instance.revision());
    if (value.length > MAX_VALUE_BYTES) {
      throw TetherException.of(ErrorCode.INVALID_ARGUMENT, "a watermark channel name is at most about 16 KiB");
    }
    try {
      KeyValueEntry existing = kv.get(key);
      if (existing == null && kv.keys(names.watermarkKeys(id)).size() >= maxChannels) {
        throw TetherException.of(ErrorCode.INVALID_ARGUMENT, "instance '" + shorten(id) + "' already has watermarks on "
            + maxChannels + " channels, the maximum");
      }
      kv.put(key, value);
    } catch (IOException | JetStreamApiException e) {
      throw unavailable("set a watermark of " + shorten(id), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw unavailable("set a watermark of " + shorten(id), e);
    }
  }

  // --- internals ---------------------------------------------------------------------------------

  private RegisteredInstance require(String id) {
    return get(id).orElseThrow(() -> TetherException.of(ErrorCode.INSTANCE_NOT_FOUND, "instance '" + shorten(id)
        + "' is not registered; create it with PUT /v1/instances/" + shorten(id)));
  }

  /** Asks the bucket for {@code id}, remembers the answer and returns the instance (null: none). */
  private RegisteredInstance readThrough(String id) {
    KeyValueEntry e;
    try {
      e = kv.get(names.registryKey(id));
    } catch (IOException | JetStreamApiException ex) {
      throw unavailable("look up instance " + shorten(id), ex);
    }
    if (e != null) {
      apply(e);
    }
    Known k = known.get(names.registryKey(id));
    return k == null ? null : k.instance(); // an absent key that this host still holds: the watch brings the delete
  }

  /** Applies a KV entry of an instance key, unless this host already saw a newer revision of it. */
  private void apply(KeyValueEntry e) {
    if (e == null || !e.getKey().startsWith("i.")) {
      return;
    }
    if (e.getOperation() == KeyValueOperation.PUT) {
      RegistryCodec.InstanceValue v = RegistryCodec.readInstance(e.getValue());
      if (v == null) {
        LOG.log(System.Logger.Level.WARNING, "registry key {0} holds no instance; ignored", e.getKey());
        return;
      }
      remember(e.getKey(), new RegisteredInstance(v.id(), v.createdAt(), v.workspace(), v.attributes(), e.getRevision()),
          e.getRevision());
    } else {
      remember(e.getKey(), null, e.getRevision()); // a delete or purge marker
    }
  }

  /**
   * Records what a key holds at {@code revision}, unless a newer revision of it was seen (a local
   * write and the watch's echo of an older one may arrive in either order). A deleted key keeps
   * its revision as a tombstone, so an older event cannot bring it back; tombstones are dropped
   * when they outnumber the instances bound.
   */
  private void remember(String key, RegisteredInstance instance, long revision) {
    known.compute(key, (k, old) -> old != null && old.revision() > revision ? old : new Known(instance, revision));
    if (instance == null && known.size() > 2 * maxInstances) {
      known.values().removeIf(v -> v.instance() == null);
    }
  }

  private static void requireId(String id) {
    Objects.requireNonNull(id, "id");
    if (id.isEmpty()) {
      throw new IllegalArgumentException("id must not be empty");
    }
  }

  private static String shorten(String id) {
    return id.length() > 64 ? id.substring(0, 64) + "..." : id;
  }

  private static StoreUnavailableException unavailable(String what, Throwable cause) {
    return new StoreUnavailableException("the instance registry on NATS JetStream could not " + what
        + " (servers unreachable, or the bucket has no leader); retry later. Cause: " + cause, cause);
  }

  /** Stops watching. The connection stays open (it is the caller's). Idempotent. */
  @Override
  public void close() {
    try {
      watch.unsubscribe();
    } catch (RuntimeException e) {
      LOG.log(System.Logger.Level.DEBUG, "closing the registry watch: {0}", e.getMessage());
    }
  }

  @Override
  public String toString() {
    return "JetStreamRegistry[" + kv.getBucketName() + ", " + size() + " instances]";
  }

  /** Configures and opens a {@link JetStreamRegistry}. Setters fail fast. Not thread-safe. */
  public static final class Builder {
    private Connection connection;
    private String subjectPrefix = "tether";
    private int replicas;
    private int maxInstances = 10_000;
    private int maxChannels = 64;
    private Duration requestTimeout = Duration.ofSeconds(5);
    private Duration openTimeout = Duration.ofSeconds(30);

    private Builder() {}

    /** The connection to use, e.g. {@link JetStreamTetherStore#connection()}; not closed by the registry. */
    public Builder connection(Connection connection) {
      this.connection = Objects.requireNonNull(connection, "connection");
      return this;
    }

    /** The connection, subject prefix and replicas of {@code store}: the registry of its instances. */
    public Builder store(JetStreamTetherStore store) {
      this.connection = store.connection();
      this.subjectPrefix = store.subjectPrefix();
      this.replicas = store.replicas();
      return this;
    }

    /** Hosts sharing a prefix share the registry; default {@code tether}. */
    public Builder subjectPrefix(String prefix) {
      new Names(prefix); // validates
      this.subjectPrefix = prefix;
      return this;
    }

    /** Replicas of the bucket when this registry creates it: 1, 3 or 5; default from the cluster size. */
    public Builder replicas(int replicas) {
      if (replicas < 1 || replicas > 5) {
        throw new IllegalArgumentException("replicas must be 1..5 but was " + replicas);
      }
      this.replicas = replicas;
      return this;
    }

    /** The most instances the registry holds; default 10,000. */
    public Builder maxInstances(int max) {
      if (max < 1) {
        throw new IllegalArgumentException("maxInstances must be >= 1 but was " + max);
      }
      this.maxInstances = max;
      return this;
    }

    /** The most watermark channels per instance; default 64. */
    public Builder maxChannels(int max) {
      if (max < 1) {
        throw new IllegalArgumentException("maxChannels must be >= 1 but was " + max);
      }
      this.maxChannels = max;
      return this;
    }

    /** How long one KV request may take before {@link StoreUnavailableException}; default 5 s. */
    public Builder requestTimeout(Duration timeout) {
      if (timeout.isNegative() || timeout.isZero()) {
        throw new IllegalArgumentException("requestTimeout must be > 0 but was " + timeout);
      }
      this.requestTimeout = timeout;
      return this;
    }

    /**
     * How long {@link #open()} keeps retrying while the cluster is still forming (no JetStream
     * leader yet, too few peers known to place the bucket's replicas, requests timing out), as
     * when hosts and NATS nodes start together; default 30 s.
     */
    public Builder openTimeout(Duration timeout) {
      if (timeout.isNegative()) {
        throw new IllegalArgumentException("openTimeout must be >= 0 but was " + timeout);
      }
      this.openTimeout = timeout;
      return this;
    }

    /**
     * Opens (creating when absent) the bucket and loads the instances. Failures that a forming
     * cluster gives (JetStream API codes 10005 "no suitable peers for placement" and 10008
     * "temporarily unavailable", timeouts) are retried until {@link #openTimeout}.
     *
     * @throws IOException when JetStream cannot be reached or the bucket cannot be made
     * @throws IllegalStateException when no connection was set
     */
    public JetStreamRegistry open() throws IOException {
      if (connection == null) {
        throw new IllegalStateException("set a connection (or a store) first");
      }
      Names n = new Names(subjectPrefix);
      int r = replicas > 0 ? replicas
          : JetStreamTetherStore.replicasForClusterOf(connection.getServerInfo().getConnectURLs().size());
      KeyValueOptions options = KeyValueOptions.builder()
          .jetStreamOptions(JetStreamOptions.builder().requestTimeout(requestTimeout).build()).build();
      try {
        FormingCluster.retry("opening the registry bucket " + n.registryBucket(), openTimeout, () -> {
          try {
            return connection.keyValueManagement(options).create(KeyValueConfiguration.builder(n.registryBucket())
                .description("tether instance registry").maxHistoryPerKey(1).storageType(StorageType.File)
                .replicas(r).maxValueSize(MAX_VALUE_BYTES + 1024).build());
          } catch (JetStreamApiException e) {
            if (e.getApiErrorCode() != 10058) { // exists with another configuration: use it
              throw e;
            }
            return null;
          }
        });
        return new JetStreamRegistry(this, connection.keyValue(n.registryBucket(), options));
      } catch (JetStreamApiException e) {
        throw new IOException("cannot open the registry bucket " + n.registryBucket() + ": " + e.getMessage(), e);
      }
    }
  }
}
