package dev.tether.store.jetstream;

import dev.tether.api.ErrorCode;
import dev.tether.api.Frame;
import dev.tether.api.MediaType;
import dev.tether.api.TetherException;
import dev.tether.api.blobs.BlobCorruptedException;
import dev.tether.api.blobs.BlobKey;
import dev.tether.api.blobs.BlobStore;
import dev.tether.store.FrameCounts;
import dev.tether.store.FrameQuery;
import dev.tether.store.QueryResult;
import dev.tether.store.Readiness;
import dev.tether.store.Retention;
import dev.tether.store.internal.SequencedFrameIndex;
import dev.tether.store.StoreListener;
import dev.tether.store.Subscription;
import dev.tether.store.TetherStore;
import dev.tether.store.jetstream.internal.Appender;
import dev.tether.store.jetstream.internal.InstanceMirror;
import dev.tether.store.jetstream.internal.Names;
import dev.tether.store.jetstream.internal.StreamAdmin;
import dev.tether.store.jetstream.internal.ViewListener;
import io.nats.client.Connection;
import io.nats.client.Dispatcher;
import io.nats.client.JetStream;
import io.nats.client.JetStreamApiException;
import io.nats.client.JetStreamManagement;
import io.nats.client.JetStreamOptions;
import io.nats.client.api.StreamInfo;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import javax.net.ssl.SSLContext;

/**
 * A {@link TetherStore} on NATS JetStream: every host connected to the same NATS servers (with the
 * same subject prefix) reads, writes and waits on the same instances, with the same seqs.
 *
 * <p><b>Layout.</b> One stream per instance ({@code TETHER_F_<instance>}) holds its frames on the
 * subjects {@code tether.f.<instance>.s.<channel>.<session>} (frames of a session),
 * {@code tether.f.<instance>.n} (frames without one) and {@code tether.f.<instance>.d.<slot>}
 * (transient deltas, below); names are escaped by {@link Names}. The frame's seq is the stream
 * sequence: assigned by the stream leader, strictly increasing, never reused (removal purges the
 * stream but keeps its sequence).
 *
 * <p><b>Retention.</b> The stream is always bounded in count and, unless the byte cap is
 * effectively unlimited, in bytes; the limits come from the {@link Retention} (N =
 * {@code maxFrames}, B = {@code maxBytes}), with {@code DiscardOld} and {@code MaxMsgSize} = the
 * server's {@code max_payload}. Every host also keeps N and B in its local view (the ring of the
 * memory store), so a query from 0 after N + k stored frames answers exactly as the memory store:
 * N frames, {@code gap} true, {@code oldest_seq} = first + k, on every host.
 * <ul>
 *   <li>With {@code deltasInRing} true deltas are ordinary frames: {@code MaxMsgs} = N and
 *       {@code MaxBytes} = B + N KiB (an allowance for envelope, subject and headers).
 *   <li>With {@code deltasInRing} false (the default) {@code assistant.delta} and
 *       {@code reasoning.delta} are transient, as in the other stores: they get a seq, reach
 *       waiters and subscribers, sit in each host's small live window, and never count against
 *       stored frames. A seq must be the stream sequence, which JetStream assigns only to a
 *       message it stores, so deltas are still written to the stream, but so that at most
 *       32 of them are ever in it: a host publishes each delta on
 *       the next of 32 delta subjects with the header
 *       {@code Nats-Rollup: sub} (stream setting {@code AllowRollup}, nats-server 2.6.2+), which
 *       replaces the slot's previous delta. The stream then has {@code MaxMsgs} = N + slots + 1
 *       (the server applies the limit to a new delta just before its rollup removes the old one)
 *       and {@code MaxBytes} = B + (N + slots + 1) KiB + (slots + 1) x 64 KiB: since deltas never take more
 *       than their slots, the newest N stored frames (within B) are always in the stream (unless
 *       the deltas of the window average more than 64 KiB each), and the stream never holds more
 *       than N + slots + 1 messages. JetStream reserves {@code MaxBytes} on each replica's server when
 *       it creates the stream, so B times the number of instances must fit the servers'
 *       {@code max_file_store}; see docs/jetstream-scale.md. A host whose
 *       consumer falls more than a few deltas behind may miss some of them; a delta is a piece of
 *       the {@code assistant.done} that follows it, so that is not a gap. (Per-message TTLs, the
 *       other way, need nats-server 2.11.)
 * </ul>
 * A stream created by an earlier version of this store (no {@code MaxMsgs}) is given these limits
 * when a host opens it. Hosts sharing instances should use the same retention: the first host to
 * create a stream sets its limits, and a host with other settings logs a warning.
 *
 * <p><b>Appends</b> return once the stream acknowledged the frame (a quorum of replicas has it),
 * never before. Each append is published with a {@code Nats-Msg-Id} and retried with the same id
 * until {@link Builder#appendTimeout}, so an append retried across a leader change is stored once;
 * after the timeout it fails with {@link StoreUnavailableException}, never hanging longer. A frame
 * whose payload exceeds {@link Builder#inlineImageBytes} has its inline images moved to the
 * instance's Object Store bucket ({@link #blobStore}) and replaced by blob refs
 * {@code {media_type, blob, size}}; readers get that form, and {@link #inlineImages} turns it back.
 *
 * <p><b>Reads and waits.</b> Each process keeps, per instance it reads, a view: one ordered push
 * consumer feeding a {@link SequencedFrameIndex} (the ring and waiter index of the memory store);
 * queries, waits and subscriptions are answered from it, so a long-poll costs no thread and no
 * server request and wakes when any host appends. Views are made on demand and released after
 * {@link Builder#idleTimeout} without a read, append, wait or subscription, so a host holds
 * consumers and frames only for instances someone uses on it; appends need no view (a host that
 * only writes to an instance holds nothing for it but a cached "the stream exists"). At most
 * {@link Builder#maxViews} views exist at once: a new one releases the least recently used views
 * without a wait or subscription, or is refused ({@code TOO_MANY_INSTANCES}) when all are in use.
 * Each view's ring keeps the retention's caps, and {@link Builder#maxTotalBytes} bounds the bytes of
 * all views together (the memory store's budget, across views).
 *
 * <p><b>The read guarantee.</b> Before {@link #query} answers and before a
 * {@link #subscribe subscription} starts, a read barrier asks the stream for its last sequence and
 * lets the local view catch up to it and to the newest seq this process appended. So a read sees
 * every frame acknowledged before it began, on this host (read-your-writes) and on any other. A
 * {@link #waitForFrames wait} holds no thread: one that wakes with frames answers at once (the view
 * holds every seq up to the answer's {@code nextSeq}, so a poll from there misses nothing, and a
 * wake costs no round trip); one still pending after the barrier timeout sends the barrier's
 * request then (a stuck view is caught up, which wakes it), and one that ends empty answers only
 * once the barrier passed. A view that does not catch up within
 * {@link Builder#readBarrierTimeout} (its consumer's server died, or the connection moved before
 * jnats noticed) reads what it lacks from the stream's leader, the node appends need too, and gets
 * a new consumer in the background; a new view whose consumer cannot be placed (right after a node
 * died the server may place it on that node) is read from the leader the same way. So once appends
 * are acknowledged again after a node loss, reads answer too, within about the barrier timeout. A
 * view that still cannot catch up waits {@link Builder#catchUpTimeout} more for new consumers, and
 * a read that cannot be shown complete fails with {@link StoreUnavailableException} (HTTP 503)
 * instead of answering with less. When JetStream does not answer at all, the local view is served
 * only if it holds every frame this process appended and the connection has not reconnected since
 * the view was last caught up. Removal is announced to the other processes on a core NATS subject.
 *
 * <p><b>Durability.</b> JetStream acknowledges once a quorum has the frame in memory and its file
 * store's write buffer, and fsyncs later (2 minutes by default; {@code sync_interval} of
 * nats-server 2.10+ tunes it, {@code always} fsyncs each write). See the README's "Run several
 * hosts on NATS JetStream" for what each setting guarantees.
 *
 * <p>Thread-safe. Futures handed to callers complete through the {@link Builder#executor executor}
 * (default {@link ForkJoinPool#commonPool()}), never on a jnats thread, {@link Subscription#next()}
 * included.
 */
public final class JetStreamTetherStore implements TetherStore {
  // The store is the public face and the owner of the connection and threads; the work is done by
  // its parts, each with one job: FramePublisher (appends), Views (the local views and their
  // release), ReadBarrier (catch-up before a read answers), InstanceBlobs (image buckets),
  // CallerFutures (completing callers' futures on the executor), NatsConnector (the connection);
  // Lifecycle is the closed flag they all check.
  private static final System.Logger LOG = System.getLogger(JetStreamTetherStore.class.getName());

  private final Connection nc;
  private final boolean ownsConnection;
  private final Names names;
  private final Retention retention;
  private final int replicas;
  private final Duration appendTimeout;
  /** This process among the hosts: the prefix of its message ids and the sender of its removal notices. */
  private final String origin;
  private final Lifecycle lifecycle = new Lifecycle();
  private final CallerFutures callers;
  private final JetStreamManagement jsm;
  private final StreamAdmin admin;
  private final ReadBarrier barrier;
  private final Views views;
  private final InstanceBlobs blobs;
  private final FramePublisher publisher;
  private final ScheduledThreadPoolExecutor retries;
  private final Dispatcher delivery;
  private final Dispatcher control;

  private JetStreamTetherStore(Builder b, Connection nc, boolean ownsConnection) throws IOException {
    this.nc = nc;
    this.ownsConnection = ownsConnection;
    this.names = new Names(b.subjectPrefix);
    this.retention = b.retention;
    long maxPayload = nc.getServerInfo().getMaxPayload();
    this.replicas = b.replicas > 0 ? b.replicas : replicasForClusterOf(nc.getServerInfo().getConnectURLs().size());
    this.appendTimeout = b.appendTimeout;
    this.callers = new CallerFutures(b.executor);
    this.barrier = new ReadBarrier(nc, names, b.readBarrierTimeout, b.catchUpTimeout, callers, lifecycle);
    this.blobs = new InstanceBlobs(nc, names, replicas, appendTimeout, lifecycle);
    this.retries = new ScheduledThreadPoolExecutor(1, r -> {
      Thread t = new Thread(r, "tether-jetstream-retry");
      t.setDaemon(true);
      return t;
    });
    retries.setRemoveOnCancelPolicy(true);
    this.jsm = nc.jetStreamManagement();
    this.admin = new StreamAdmin(jsm, names, retention, replicas, maxPayload, appendTimeout, lifecycle::closed);
    JetStream js = nc.jetStream();
    this.delivery = nc.createDispatcher();
    // The views' consumers are made with the barrier's timeout: right after a node died the server
    // may place a new consumer on it and never answer, and a read then reads from the stream's
    // leader instead of waiting for jnats' default timeout (seconds) per attempt.
    JetStream consumers = nc.jetStream(JetStreamOptions.builder().requestTimeout(b.readBarrierTimeout).build());
    this.views = new Views(admin, names, retention, consumers, barrier.management(), delivery, b.executor, ViewListener.of(b.listener),
        appendTimeout, b.idleTimeout, b.maxViews, b.maxTotalBytes, barrier::epoch, lifecycle);
    views.sweepOn(retries);
    byte[] r = new byte[8];
    new SecureRandom().nextBytes(r);
    this.origin = HexFormat.of().formatHex(r);
    Appender appender = new Appender(js, retries, Duration.ofMillis(Math.min(2000, appendTimeout.toMillis())));
    this.publisher = new FramePublisher(appender, admin, names, retention, blobs, views, b.listener, maxPayload,
        b.inlineImageBytes, appendTimeout, origin, lifecycle);
    this.control = nc.createDispatcher(msg -> onRemoved(new String(msg.getData(), StandardCharsets.UTF_8)));
    control.subscribe(names.removals());
  }

  public static Builder builder() {
    return new Builder();
  }

  /** 3 replicas on a cluster of 3 or more servers (JetStream's usual quorum size), else 1. */
  static int replicasForClusterOf(int servers) {
    return servers >= 3 ? 3 : 1;
  }

  /** The retention every instance's stream and local view keep. */
  public Retention retention() {
    return retention;
  }

  /**
   * The NATS connection this store uses (its own, or the one given to the builder): for the
   * {@link JetStreamRegistry} of the same host, and for monitoring. Closing it closes the store's
   * access to JetStream; leave that to {@link #close()}.
   */
  public Connection connection() {
    return nc;
  }

  /** The first subject token and stream name prefix: stores (and registries) sharing it share instances. */
  public String subjectPrefix() {
    return names.prefix();
  }

  /** The stream replicas of new instances. */
  public int replicas() {
    return replicas;
  }

  // --- appends ---------------------------------------------------------------------------------

  @Override
  public long append(String instance, Frame frame) {
    CompletableFuture<Long> f = publisher.publish(instance, frame);
    try {
      // The appender gives up at its deadline; the margin only guards against a lost callback.
      return f.get(appendTimeout.toMillis() + 5000, TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new StoreUnavailableException("interrupted while appending to instance " + instance
          + "; the frame may or may not be stored", e);
    } catch (TimeoutException e) {
      throw StreamAdmin.unavailable(instance, appendTimeout, e);
    } catch (ExecutionException e) {
      throw CallerFutures.asRuntime(e.getCause());
    }
  }

  /**
   * See {@link TetherStore#appendAsync}. The first append to an instance in this process creates
   * or opens its stream on the calling thread, and a frame with images over the inline size
   * stores them in the Object Store on the calling thread; the acknowledgement is awaited without
   * a thread and delivered through the executor.
   */
  @Override
  public CompletableFuture<Long> appendAsync(String instance, Frame frame) {
    TetherStore.requireInstance(instance);
    Objects.requireNonNull(frame, "frame");
    CompletableFuture<Long> inner;
    try {
      inner = publisher.publish(instance, frame);
    } catch (StoreUnavailableException | TetherException e) {
      inner = CompletableFuture.failedFuture(e);
    }
    return callers.relay(inner);
  }

  // --- reads -----------------------------------------------------------------------------------

  @Override
  public QueryResult query(String instance, FrameQuery query) {
    Objects.requireNonNull(query, "query");
    TetherStore.requireInstance(instance);
    lifecycle.checkOpen();
    while (true) {
      InstanceMirror m = views.get(instance, false);
      if (m == null) {
        return new QueryResult(List.of(), query.backward() ? 0 : query.afterSeq(), false, false, 0);
      }
      barrier.catchUp(m, instance);
      QueryResult r = ReadBarrier.withFloorGap(m, query, m.index().query(query));
      if (!m.stopped()) {
        return r;
      }
      lifecycle.checkOpen(); // released as idle (or removed) while reading: read the instance's current view
    }
  }

  @Override
  public CompletableFuture<QueryResult> waitForFrames(String instance, FrameQuery query, Duration timeout) {
    Objects.requireNonNull(query, "query");
    Objects.requireNonNull(timeout, "timeout");
    TetherStore.requireInstance(instance);
    long nanos;
    try {
      nanos = timeout.toNanos();
    } catch (ArithmeticException e) {
      nanos = Long.MAX_VALUE;
    }
    if (nanos <= 0 || query.backward()) {
      return CompletableFuture.completedFuture(query(instance, query));
    }
    while (true) {
      lifecycle.checkOpen();
      InstanceMirror m = views.get(instance, true);
      if (query.afterSeq() < m.floor()) {
        return CompletableFuture.completedFuture(query(instance, query));
      }
      CompletableFuture<QueryResult> answer = barrier.waitForFrames(m, instance, query, nanos);
      if (answer != null) {
        return answer;
      }
      // removed meanwhile: wait on the instance's next history
    }
  }

  @Override
  public Subscription subscribe(String instance, int bufferFrames) {
    if (bufferFrames < 1) {
      throw new IllegalArgumentException("bufferFrames must be >= 1 but was " + bufferFrames);
    }
    TetherStore.requireInstance(instance);
    while (true) {
      lifecycle.checkOpen();
      InstanceMirror m = views.get(instance, true);
      barrier.catchUp(m, instance); // "from now on": not the frames acknowledged before this call
      Subscription s = m.index().subscribe(bufferFrames);
      if (s != null) {
        return s;
      }
    }
  }

  @Override
  public long lastSeq(String instance) {
    TetherStore.requireInstance(instance);
    lifecycle.checkOpen();
    InstanceMirror m = views.get(instance, false);
    return m == null ? 0 : barrier.lastSeq(m, instance);
  }

  /** This process's retained frames of {@code instance}, oldest first (a copy); for tests and tools. */
  public List<Frame> retained(String instance) {
    InstanceMirror m = views.current(TetherStore.requireInstance(instance));
    return m == null ? List.of() : m.index().retained();
  }

  /** Views (one consumer each) this process holds now. */
  public int openViews() {
    return views.open();
  }

  /** Payload bytes this host's views hold now, counted when {@link Builder#maxTotalBytes} is set (else 0). */
  public long viewBytes() {
    return views.budget().used();
  }

  /** Views released as idle since the store started. */
  public long releasedViews() {
    return views.released();
  }

  /**
   * Purges the instance's stream (its sequence stays, so seqs continue), deletes its image bucket,
   * ends this process's waits and subscriptions on it and tells the other processes to do the
   * same. Returns whether the instance had frames or was open here.
   */
  @Override
  public boolean remove(String instance) {
    TetherStore.requireInstance(instance);
    lifecycle.checkOpen();
    boolean open = views.current(instance) != null;
    StreamInfo info = admin.info(instance);
    boolean existed = open || (info != null && info.getStreamState().getMsgCount() > 0);
    if (info != null) {
      try {
        jsm.purgeStream(names.stream(instance));
        blobs.delete(instance);
        nc.publish(names.removals(), (origin + "\n" + instance).getBytes(StandardCharsets.UTF_8));
      } catch (IOException | JetStreamApiException e) {
        throw StreamAdmin.unavailable(instance, appendTimeout, e);
      }
    }
    forget(instance);
    return existed;
  }

  /** A removal announced by another process: drop what this one holds of the instance. */
  private void onRemoved(String notice) {
    int nl = notice.indexOf('\n');
    if (nl < 0 || notice.substring(0, nl).equals(origin)) {
      return; // ours: already dropped, and a later append here may have opened a new view
    }
    forget(notice.substring(nl + 1));
  }

  private void forget(String instance) {
    views.drop(instance, "was removed");
    blobs.forget(instance);
    publisher.releaseCounts(instance);
  }

  // --- images ------------------------------------------------------------------------------------

  /**
   * The Object Store bucket of {@code instance}'s image bytes as a {@link BlobStore}, created on
   * first use with the store's replicas.
   *
   * @throws StoreUnavailableException when the bucket cannot be created or opened
   */
  public ObjectStoreBlobStore blobStore(String instance) {
    return blobs.bucket(instance);
  }

  /**
   * {@code instance}'s blobs as every host on the same NATS servers shares them, for a server's
   * {@code sharedBlobs}: {@code get} and {@code exists} are {@link #readBlob} and {@link #hasBlob}
   * (they never create the bucket), {@code put} of bytes is {@link #putBlob(String, byte[], MediaType)};
   * the rest goes to the bucket. JetStream not answering is a {@link StoreUnavailableException}.
   */
  public BlobStore hostBlobs(String instance) {
    TetherStore.requireInstance(instance);
    return new HostBlobStore(blobs, instance);
  }

  // The blob routes of a host (GET/POST .../blob, refs accepted at ingress) use these three, so
  // that a blob stored on one host is served and accepted by every host.

  /**
   * The bytes of blob {@code key} of {@code instance}, read whole from its Object Store bucket and
   * verified against the key's SHA-256. Never creates the bucket.
   *
   * @throws NoSuchFileException when the instance has no such blob (or no bucket): HTTP 404
   * @throws BlobCorruptedException when the stored bytes do not hash to the key
   * @throws StoreUnavailableException when JetStream does not answer: HTTP 503
   */
  public byte[] readBlob(String instance, BlobKey key) throws IOException {
    return blobs.read(instance, key);
  }

  /**
   * Whether {@code instance}'s bucket holds blob {@code key} (a metadata lookup, no bytes read).
   * Never creates the bucket. A host accepting a frame that refers to a blob checks this (and the
   * ref's size) so that refs to blobs no host can serve are refused at ingress.
   *
   * @throws StoreUnavailableException when JetStream does not answer
   */
  public boolean hasBlob(String instance, BlobKey key) {
    return blobs.has(instance, key);
  }

  /**
   * Stores image bytes in {@code instance}'s bucket (created on first use) and returns their key;
   * the same bytes stored twice, from any host, are one object. The image is checked first: size
   * limit and the declared type's signature.
   *
   * @throws TetherException {@code IMAGE_TOO_LARGE}, {@code MEDIA_TYPE_MISMATCH}: HTTP 4xx
   * @throws StoreUnavailableException when JetStream does not answer
   */
  public BlobKey putBlob(String instance, byte[] bytes, MediaType mediaType) {
    return blobs.put(instance, bytes, mediaType);
  }

  /**
   * Stores {@code bytes} under {@code key} in {@code instance}'s bucket: how a host copies a blob a
   * client wrote into its local workspace (a ref in a frame) to where every host can read it.
   *
   * @throws TetherException {@code BLOB_CORRUPTED} when the bytes do not hash to the key, or the
   *     image checks of {@link #putBlob(String, byte[], MediaType)}
   * @throws StoreUnavailableException when JetStream does not answer
   */
  public BlobKey putBlob(String instance, BlobKey key, byte[] bytes) {
    return blobs.put(instance, key, bytes);
  }

  /**
   * {@code frame} with every blob ref in its {@code images} replaced by the inline bytes from
   * {@code instance}'s bucket; a frame without refs is returned as is.
   *
   * @throws IOException when a blob is missing ({@link NoSuchFileException}), corrupt or unreadable
   */
  public Frame inlineImages(String instance, Frame frame) throws IOException {
    return blobs.inline(instance, frame);
  }

  // --- lifecycle ---------------------------------------------------------------------------------

  /**
   * Ready while open, the NATS connection is {@code CONNECTED}, JetStream answers an account
   * request within the read-barrier timeout, and every local view holds every frame this host
   * had acknowledged (caught up). Makes one request to the server: call it from a probe.
   */
  @Override
  public Readiness readiness() {
    if (lifecycle.closed()) {
      return Readiness.notReady("the JetStream store is closed");
    }
    Connection.Status status = nc.getStatus();
    if (status != Connection.Status.CONNECTED) {
      return Readiness.notReady("the NATS connection is " + status + " (not connected to "
          + nc.getOptions().getServers() + ")");
    }
    String why = barrier.unanswered();
    if (why == null) {
      why = views.lagging();
    }
    return why == null ? Readiness.yes() : Readiness.notReady(why);
  }

  /** Ends every wait and subscription, stops the consumers and closes an owned connection. Idempotent. */
  @Override
  public void close() {
    if (!lifecycle.markClosed()) {
      return;
    }
    views.close();
    publisher.close();
    retries.shutdownNow();
    barrier.close();
    try {
      nc.closeDispatcher(control);
      nc.closeDispatcher(delivery);
    } catch (RuntimeException e) {
      LOG.log(System.Logger.Level.DEBUG, "closing dispatchers: {0}", e.getMessage());
    }
    if (ownsConnection) {
      try {
        nc.close();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  @Override
  public String toString() {
    return "JetStreamTetherStore" + List.of(nc.getConnectedUrl() == null ? "disconnected" : nc.getConnectedUrl()) + retention;
  }

  /** For {@code CancellationException} messages and logs. */
  String origin() {
    return origin;
  }

  /** Configures and connects a {@link JetStreamTetherStore}. Setters fail fast. Not thread-safe. */
  public static final class Builder {
    private final List<String> servers = new ArrayList<>();
    private Connection connection;
    private Path credentials;
    private char[] token;
    private SSLContext sslContext;
    private boolean tls;
    private int replicas; // 0: from the cluster size
    private Retention retention = Retention.defaults();
    private Executor executor = ForkJoinPool.commonPool();
    private Duration appendTimeout = Duration.ofSeconds(10);
    private Duration readBarrierTimeout = Duration.ofSeconds(1);
    private Duration catchUpTimeout = Duration.ofSeconds(5);
    private StoreListener listener = StoreListener.NONE;
    private Duration idleTimeout = Duration.ofMinutes(2);
    private int maxViews = 10_000;
    private long maxTotalBytes = Long.MAX_VALUE;
    private int inlineImageBytes = 64 * 1024;
    private Duration openTimeout = Duration.ofSeconds(30);
    private String subjectPrefix = "tether";
    private String connectionName = "tether-store";

    private Builder() {}

    /** NATS server URLs ({@code nats://host:4222}, {@code tls://...}); several for a cluster. */
    public Builder servers(List<String> urls) {
      Objects.requireNonNull(urls, "urls");
      if (urls.isEmpty()) {
        throw new IllegalArgumentException("servers must not be empty");
      }
      for (String u : urls) {
        if (u == null || u.isBlank()) {
          throw new IllegalArgumentException("a server URL must not be blank but was '" + u + "'");
        }
        servers.add(u.trim());
      }
      return this;
    }

    public Builder servers(String... urls) {
      return servers(List.of(urls));
    }

    /** Uses an open connection instead of servers; the store does not close it. */
    public Builder connection(Connection connection) {
      this.connection = Objects.requireNonNull(connection, "connection");
      return this;
    }

    /** A NATS credentials file (JWT and NKey seed), as {@code nsc} writes it. */
    public Builder credentialsFile(Path file) {
      this.credentials = Objects.requireNonNull(file, "file");
      return this;
    }

    /** A server authentication token; the array is copied. */
    public Builder token(char[] token) {
      Objects.requireNonNull(token, "token");
      if (token.length == 0) {
        throw new IllegalArgumentException("token must not be empty");
      }
      this.token = token.clone();
      return this;
    }

    /** TLS with the JVM's default trust store (for {@code nats://} URLs; {@code tls://} implies it). */
    public Builder tls() {
      this.tls = true;
      return this;
    }

    /** TLS with this context (client certificates, a private CA). */
    public Builder sslContext(SSLContext context) {
      this.sslContext = Objects.requireNonNull(context, "context");
      return this;
    }

    /**
     * Replicas of each new instance's stream and bucket: 1, or 3 (or 5) on a cluster of that many.
     * Default: 3 when the server announces a cluster of 3 or more ({@code connect_urls} at connect
     * time), else 1; set it explicitly where the cluster may still be forming.
     */
    public Builder replicas(int replicas) {
      if (replicas < 1 || replicas > 5) {
        throw new IllegalArgumentException("replicas must be 1..5 but was " + replicas);
      }
      this.replicas = replicas;
      return this;
    }

    public Builder retention(Retention retention) {
      this.retention = Objects.requireNonNull(retention, "retention");
      return this;
    }

    /**
     * Given what the store counts ({@link FrameCounts}): appends where they were
     * published and acknowledged (per instance, from the first append this host published),
     * evictions and gaps served of this host's local views (per view); told the time from publish
     * to JetStream's acknowledgement ({@code committed("jetstream", 1, nanos)}) and the wake latency
     * of the local views. Default {@link StoreListener#NONE}.
     */
    public Builder listener(StoreListener listener) {
      this.listener = Objects.requireNonNull(listener, "listener");
      return this;
    }

    /** Where caller-visible futures complete; default {@link ForkJoinPool#commonPool()}. */
    public Builder executor(Executor executor) {
      this.executor = Objects.requireNonNull(executor, "executor");
      return this;
    }

    /** How long an append retries before {@link StoreUnavailableException}; default 10 s. */
    public Builder appendTimeout(Duration timeout) {
      if (timeout.isNegative() || timeout.isZero()) {
        throw new IllegalArgumentException("appendTimeout must be > 0 but was " + timeout);
      }
      this.appendTimeout = timeout;
      return this;
    }

    /**
     * How long a read waits for the local view's consumer to catch up with the stream before it
     * reads the rest from the stream's leader, and how long making a view's consumer may take;
     * default 1 s.
     */
    public Builder readBarrierTimeout(Duration timeout) {
      if (timeout.isNegative() || timeout.isZero()) {
        throw new IllegalArgumentException("readBarrierTimeout must be > 0 but was " + timeout);
      }
      this.readBarrierTimeout = timeout;
      return this;
    }

    /**
     * How long a read waits, after the read barrier timed out and the view's consumer was made
     * again, before it fails with {@link StoreUnavailableException}; default 5 s.
     */
    public Builder catchUpTimeout(Duration timeout) {
      if (timeout.isNegative() || timeout.isZero()) {
        throw new IllegalArgumentException("catchUpTimeout must be > 0 but was " + timeout);
      }
      this.catchUpTimeout = timeout;
      return this;
    }

    /**
     * How long a view of an instance (its consumer, its frames in memory) is kept after its last
     * read, append, wait or subscription; default 2 minutes. Views with a pending wait or an open
     * subscription are never released.
     */
    public Builder idleTimeout(Duration timeout) {
      if (timeout.isNegative() || timeout.isZero()) {
        throw new IllegalArgumentException("idleTimeout must be > 0 but was " + timeout);
      }
      this.idleTimeout = timeout;
      return this;
    }

    /**
     * The most instance views (one consumer and one ring each) this process holds at once;
     * default 10,000. A new view beyond it releases the least recently used views without a wait
     * or subscription, or fails with {@link ErrorCode#TOO_MANY_INSTANCES} when all are in use.
     */
    public Builder maxViews(int max) {
      if (max < 1) {
        throw new IllegalArgumentException("maxViews must be >= 1 but was " + max);
      }
      this.maxViews = max;
      return this;
    }

    /**
     * The payload bytes all of this host's views may hold together (the memory store's
     * {@code maxTotalBytes}, across views); default none. Over it, the oldest frame of the view
     * holding the most bytes leaves this host's memory (never a view's last frame; the stream
     * keeps it, and a read from before it reports the gap); an append on this host that cannot
     * be made room for is refused with {@link ErrorCode#STORE_FULL}.
     */
    public Builder maxTotalBytes(long bytes) {
      if (bytes < 1) {
        throw new IllegalArgumentException("maxTotalBytes must be >= 1 but was " + bytes);
      }
      this.maxTotalBytes = bytes;
      return this;
    }

    /** Frames whose payload is larger than this keep their images in the Object Store; default 64 KiB. */
    public Builder inlineImageBytes(int bytes) {
      if (bytes < 0) {
        throw new IllegalArgumentException("inlineImageBytes must be >= 0 but was " + bytes);
      }
      this.inlineImageBytes = bytes;
      return this;
    }

    /** The first subject token and stream name prefix; stores sharing it share instances. */
    public Builder subjectPrefix(String prefix) {
      new Names(prefix); // validates
      this.subjectPrefix = prefix;
      return this;
    }

    public Builder connectionName(String name) {
      this.connectionName = Objects.requireNonNull(name, "name");
      return this;
    }

    /**
     * How long {@link #connect()} waits for JetStream to answer when the servers are up but their
     * cluster is still forming (no meta leader yet after nodes started or restarted); default 30 s.
     * A server without JetStream fails at once.
     */
    public Builder openTimeout(Duration timeout) {
      if (timeout.isNegative()) {
        throw new IllegalArgumentException("openTimeout must be >= 0 but was " + timeout);
      }
      this.openTimeout = timeout;
      return this;
    }

    /**
     * Connects (unless given a connection) and returns the store. The connection reconnects
     * forever; appends made while it is down fail after the append timeout.
     *
     * @throws IOException when no server can be reached or JetStream is not enabled
     * @throws IllegalStateException when neither or both of servers and connection are set
     */
    public JetStreamTetherStore connect() throws IOException {
      if (connection != null && !servers.isEmpty()) {
        throw new IllegalStateException("set servers or a connection, not both");
      }
      if (connection == null && servers.isEmpty()) {
        throw new IllegalStateException("set servers (NATS URLs) or a connection");
      }
      if (connection != null) {
        return new JetStreamTetherStore(this, connection, false);
      }
      return NatsConnector.connect(servers, connectionName, credentials, token, sslContext, tls, openTimeout,
          nc -> new JetStreamTetherStore(this, nc, true));
    }
  }
}
