package dev.tether.server;

import dev.tether.api.blobs.BlobStore;
import dev.tether.client.AttachmentClient;
import dev.tether.client.HostAddress;
import dev.tether.client.TetherClient;
import dev.tether.client.TokenFile;
import dev.tether.images.FrameValidator;
import dev.tether.server.internal.Bounds;
import dev.tether.server.internal.Daemon;
import dev.tether.store.MemoryTetherStore;
import dev.tether.store.Readiness;
import dev.tether.store.StoreListener;
import dev.tether.store.TetherStore;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import org.eclipse.jetty.server.Handler;

/**
 * The tether host daemon as a library: the HTTP API of {@code tether serve} over a Unix domain
 * socket or loopback TCP, in front of a {@link TetherStore}. What {@code tether serve} runs is
 * exactly this server; the command only turns its flags into this builder.
 *
 * <pre>{@code
 * try (TetherServer server = TetherServer.builder()
 *     .listen(new HostAddress.Tcp("127.0.0.1", 0))
 *     .token(token)
 *     .start()) { // no store given: the bounded in-memory store tether serve runs
 *   HostAddress bound = server.boundAddress(); // port 0 resolved
 * }
 * }</pre>
 *
 * <p>Rules the server enforces whatever the embedder does: a Unix socket's directory is created
 * 0700 when missing and the socket made 0600 once bound (the socket is the access control; when
 * that fails the server stops again); a stale socket left by a dead server is replaced, any other
 * file at the path is refused; a TCP listener needs a bearer token of at least
 * {@value TokenFile#MIN_BYTES} bytes on every request; a non-loopback TCP address (API or console)
 * is refused unless {@link Builder#allowNonLoopback(boolean)}; request bodies in flight are bounded
 * by an ingress budget (past it: 503); every error is the JSON body {@code {"error":{"code","message"}}}.
 *
 * <p>{@link #close()} is graceful: new requests get 503, waits in progress are answered at once,
 * requests in flight finish (up to 10 s), then the store is closed (which flushes a durable
 * journal) and the socket file removed. Thread-safe; {@code close()} is idempotent. The server
 * never prints, exits the process or installs shutdown hooks; it logs through
 * {@link System.Logger}.
 */
public final class TetherServer implements AutoCloseable {
  /**
   * The request attribute in which a {@link Builder#mount mounted} handler finds the one instance
   * the caller's instance token opens; absent for the host token and the Unix socket.
   */
  public static final String INSTANCE_SCOPE_ATTRIBUTE = "dev.tether.server.instanceScope";

  /** The default of {@link Builder#wakeIdle}. */
  public static final Duration DEFAULT_WAKE_IDLE = Duration.ofSeconds(10);

  private final Daemon daemon;
  private final String consoleToken;
  private final Bounds bounds;
  private final MemoryBudget memory;
  private final SharedStorage.Opened shared; // null unless Builder.shared

  private TetherServer(Daemon daemon, String consoleToken, Bounds bounds, MemoryBudget memory, SharedStorage.Opened shared) {
    this.daemon = daemon;
    this.consoleToken = consoleToken;
    this.bounds = bounds;
    this.memory = memory;
    this.shared = shared;
  }

  /**
   * A builder with the defaults of {@code tether serve}: the {@link MemoryBudget} of this heap,
   * the limits of {@link #describeLimits()}, and, when no {@link Builder#store store} is given,
   * the bounded in-memory store that {@code tether serve} runs without {@code --data-dir} or
   * {@code --nats}.
   */
  public static Builder builder() {
    return new Builder();
  }

  /** Where the API listens; for TCP with port 0, the port it got. */
  public HostAddress boundAddress() {
    return daemon.boundAddress();
  }

  /**
   * The owner-only Unix socket this TCP server also serves the API on ({@link Builder#localSocket}),
   * when it took it (another live server may hold it).
   */
  public Optional<HostAddress.Unix> localSocket() {
    return daemon.localSocket();
  }

  /** Where the web console listens (its port resolved), when it was configured. */
  public Optional<HostAddress.Tcp> consoleAddress() {
    return daemon.consoleAddress();
  }

  /**
   * The URL that opens the web console, with its token in the fragment (which browsers never
   * send to the server), when the console was configured.
   */
  public Optional<URI> consoleUrl() {
    return consoleAddress().map(a -> {
      String host = a.host().contains(":") ? "[" + a.host() + "]" : a.host();
      return URI.create("http://" + host + ":" + a.port() + "/#token=" + consoleToken);
    });
  }

  /**
   * An in-process client of this server: the same registry (an unknown instance is
   * {@code INSTANCE_NOT_FOUND} unless auto-create is on), the same validation and limits as the
   * HTTP API, no HTTP hop. Polled blob refs come back inline. What {@code tether serve
   * --with-agent} gives its demo agent. It is also an {@link AttachmentClient} over the server's
   * session attachments, with the HTTP routes' caps, disk budget and codes (a server started with
   * shared storage answers {@code NOT_IMPLEMENTED}, as its routes do). Closing the client leaves
   * the server running.
   */
  public TetherClient localClient() {
    return daemon.localClient(false);
  }

  /**
   * As {@link #localClient()}; with {@code blobImages}, a sent frame's inline images are first
   * stored in the instance's blob store and sent as blob refs (the ring then holds a ref instead of
   * the base64), as {@code HttpTetherClient.Builder.blobImages} does over HTTP.
   */
  public TetherClient localClient(boolean blobImages) {
    return daemon.localClient(blobImages);
  }

  /**
   * The limits this server enforces, in one line for a start-up log: memory both ways, waits,
   * connections, timeouts, the disk budget per instance and the ingress rates.
   */
  public String describeLimits() {
    return bounds.describe();
  }

  /**
   * The memory budget this server was built with (its ingress and egress bytes are the ones
   * enforced unless set apart; its store and ring bytes, frames and instance cap are those of the
   * default store). {@code memoryBudget().describe(heap)} is the first line {@code tether serve} prints.
   */
  public MemoryBudget memoryBudget() {
    return memory;
  }

  /** What the server holds now: waits, streams and the memory budgets in use (see {@link ServerStats}). */
  public ServerStats stats() {
    return daemon.stats();
  }

  /**
   * Whether the server can serve: not shutting down and its store ready
   * ({@link TetherStore#readiness()}); what {@code GET /v1/ready} answers (200, or 503 with the
   * reason). May make one request to the store's server: call it from a probe.
   */
  public Readiness readiness() {
    return daemon.readiness();
  }

  /** Blocks until the server has stopped (after {@link #close()}). */
  public void awaitStop() throws InterruptedException {
    daemon.join();
  }

  /** Stops gracefully (see the class comment); idempotent. */
  @Override
  public void close() {
    daemon.close();
    if (shared != null) {
      shared.close();
    }
  }

  /**
   * Collects the settings of a {@link TetherServer}. Setters fail fast on a bad value
   * ({@link IllegalArgumentException} naming the setting); {@link #start()} checks the settings
   * together. Not thread-safe; a builder may start several servers (on different addresses).
   */
  public static final class Builder {
    /** Fewer workers than this can starve Jetty's acceptor and selector threads. */
    private static final int MIN_THREADS = 8;

    private HostAddress address;
    private TetherStore store;
    private String token;
    private Path tokenFile;
    private boolean allowNonLoopback;
    private final LinkedHashSet<String> instances = new LinkedHashSet<>();
    private boolean autoCreate;
    private final List<Path> workspaces = new ArrayList<>();
    private MemoryBudget budget = MemoryBudget.forThisHeap();
    private boolean keepDeltas;
    private StoreListener storeListener = StoreListener.NONE;
    private Integer maxWaits; // null: the default, or the per-instance cap when that is all that was set
    private Integer maxWaitsPerInstance; // null: the default, at most maxWaits
    private Duration headerTimeout; // null: the default
    private Duration requestIdleTimeout; // null: the default
    private SharedRegistry sharedRegistry;
    private Function<String, BlobStore> sharedBlobs;
    private SharedStorage shared;
    private Path registryFile;
    private FrameValidator validator = FrameValidator.standard();
    private Bounds bounds = Bounds.defaults();
    private Integer headConnections; // null: half of maxConnections
    private int maxThreads = 32;
    private HostAddress.Tcp consoleAddress;
    private String consoleToken;
    private ServerListener listener = ServerListener.NONE;
    private Path attachmentsDirectory;
    private HostAddress.Unix localSocket;
    private final List<Daemon.Mount> mounts = new ArrayList<>();
    private InstanceWaker waker;
    private Duration wakeIdle = DEFAULT_WAKE_IDLE;

    private Builder() {}

    /**
     * With a TCP {@link #listen} address, also serves the API on this Unix socket, without a token:
     * the socket is made owner-only (0600, a missing directory 0700), which is its access control,
     * as for a server on a socket alone. {@code tether serve --listen} keeps the default socket this
     * way, so local commands ({@code tether token}) reach it without {@code --host}. When another
     * live server holds the socket it is skipped, logged at WARNING (see
     * {@link TetherServer#localSocket()}); a Unix {@code listen} address ignores it. Default: none.
     */
    public Builder localSocket(HostAddress.Unix socket) {
      this.localSocket = Objects.requireNonNull(socket, "socket");
      return this;
    }

    /**
     * Where session attachments are kept: {@code {dir}/{instance}/{generation}/{session}/}, a
     * host-only directory the guest cannot reach (never inside a workspace), created 0700 when
     * missing. The generation is the instance's registration, so an instance deleted and created
     * again under the same id starts with no attachments; DELETE of an instance removes its
     * attachments. Default: a fresh private (0700) temporary directory, made on the first upload,
     * so attachments last as long as the server; {@code tether serve} uses
     * {@code DATA-DIR/attachments}, else {@code ~/.tether/attachments}. Not used when the
     * {@link #shared} storage keeps attachments ({@link SharedStorage.Opened#attachments}), as
     * {@code JetStreamShared} does: they are then in that storage, for every server sharing it.
     */
    public Builder attachmentsDirectory(Path dir) {
      this.attachmentsDirectory = Objects.requireNonNull(dir, "dir");
      return this;
    }

    /**
     * Mounts a Jetty handler at {@code path} and below on the API listener (socket or TCP, never the
     * console's), behind the API's own checks: the bearer token on TCP (401 without a valid one),
     * 503 while shutting down. An instance token's instance is in the request attribute
     * {@link TetherServer#INSTANCE_SCOPE_ATTRIBUTE}, and the handler must hold the caller to it.
     * {@code handler} is called once, while the server is built, with an in-process client of the
     * server (as {@link TetherServer#localClient()}, except that its sends and attachment uploads
     * count against the instance's ingress rate, in the routes' buckets, and past it fail with
     * {@code RATE_LIMITED}); the handler starts and stops with the server.
     * {@code tether serve --mcp} mounts the MCP endpoint at {@code /mcp} this way. Repeatable.
     *
     * @throws IllegalArgumentException when {@code path} is not like {@code /name}, lies under
     *     {@code /v1}, or is mounted already
     */
    public Builder mount(String path, Function<TetherClient, Handler> handler) {
      Objects.requireNonNull(path, "path");
      Objects.requireNonNull(handler, "handler");
      if (!path.matches("/[A-Za-z0-9._-]+(/[A-Za-z0-9._-]+)*") || path.equals("/v1") || path.startsWith("/v1/")
          || path.contains("/.")) {
        throw new IllegalArgumentException("mount path must be like /mcp and not under /v1 but was '" + path + "'");
      }
      for (Daemon.Mount m : mounts) {
        if (m.path().equals(path)) {
          throw new IllegalArgumentException("mount path " + path + " is mounted already");
        }
      }
      mounts.add(new Daemon.Mount(path, handler));
      return this;
    }

    /**
     * Told of every answered request (route template, method, status, latency) and every refused
     * frame (its error code). Default {@link ServerListener#NONE}: no timing at all.
     */
    public Builder listener(ServerListener listener) {
      this.listener = Objects.requireNonNull(listener, "listener");
      return this;
    }

    /**
     * Called (on the server's own threads) to wake an instance that gets a frame for its guest while
     * nobody reads it; see {@link InstanceWaker} for when and how often. Default: none.
     */
    public Builder waker(InstanceWaker waker) {
      this.waker = Objects.requireNonNull(waker, "waker");
      return this;
    }

    /**
     * How long an instance must have had no reader (no long-poll, stream or in-process poll) before
     * a frame for it calls the {@link #waker}. Default {@link #DEFAULT_WAKE_IDLE} (10 s).
     *
     * @throws IllegalArgumentException when not positive
     */
    public Builder wakeIdle(Duration idle) {
      Objects.requireNonNull(idle, "idle");
      if (idle.isNegative() || idle.isZero()) {
        throw new IllegalArgumentException("wakeIdle must be > 0 but was " + idle);
      }
      this.wakeIdle = idle;
      return this;
    }

    /** Where the API listens. Default: {@link HostAddress#defaultSocket()}. TCP port 0 takes any free port. */
    public Builder listen(HostAddress address) {
      this.address = Objects.requireNonNull(address, "address");
      return this;
    }

    /**
     * The frames. The server closes it on {@link TetherServer#close()}. Default: a
     * {@link MemoryTetherStore} bounded by the {@link #memoryBudget memory budget} (its store bytes,
     * instance cap and ring), keeping deltas only when {@link #keepDeltas}, telling
     * {@link #storeListener}: the store of {@code tether serve} without {@code --data-dir} or
     * {@code --nats}. A store given here keeps its own bounds.
     */
    public Builder store(TetherStore store) {
      this.store = Objects.requireNonNull(store, "store");
      return this;
    }

    /**
     * The memory limits: the default store's budget, ring and instance cap, the
     * {@link #maxInstances instance cap} and the {@link #ingressBytes ingress} and
     * {@link #egressBytes egress} bytes (replacing any set before). Default:
     * {@link MemoryBudget#forThisHeap()}.
     */
    public Builder memoryBudget(MemoryBudget budget) {
      this.budget = Objects.requireNonNull(budget, "budget");
      this.bounds = bounds.withIngressBytes(budget.ingressBytes()).withEgressBytes(budget.egressBytes());
      return this;
    }

    /**
     * Whether the default store keeps assistant and reasoning deltas like other frames. Default:
     * false (they reach waiting readers and a short live window, but never evict or count against
     * stored frames).
     */
    public Builder keepDeltas(boolean keep) {
      this.keepDeltas = keep;
      return this;
    }

    /** Told of the default store's appends, evictions and waits. Default {@link StoreListener#NONE}. */
    public Builder storeListener(StoreListener listener) {
      this.storeListener = Objects.requireNonNull(listener, "listener");
      return this;
    }

    /** The bearer token every TCP request must carry; at least {@value TokenFile#MIN_BYTES} bytes. */
    public Builder token(String token) {
      Objects.requireNonNull(token, "token");
      int bytes = token.getBytes(StandardCharsets.UTF_8).length;
      if (bytes < TokenFile.MIN_BYTES) {
        throw new IllegalArgumentException("token must be at least " + TokenFile.MIN_BYTES + " bytes but was " + bytes);
      }
      this.token = token;
      return this;
    }

    /**
     * Reads the TCP token from {@code file} at {@link #start()}, creating it (0600, with a random
     * token) when missing, with the rules of {@link TokenFile}.
     */
    public Builder tokenFile(Path file) {
      this.tokenFile = Objects.requireNonNull(file, "file");
      return this;
    }

    /** Allows a TCP listener (API or console) on an address that is not loopback. Default: false. */
    public Builder allowNonLoopback(boolean allow) {
      this.allowNonLoopback = allow;
      return this;
    }

    /**
     * Registers an instance at start (repeatable). Default: the one instance {@code default}
     * when none is named. More can be added with {@code PUT /v1/instances/{id}}.
     *
     * @throws IllegalArgumentException when {@code id} is not 1 to 128 letters, digits, '.', '-' or '_'
     */
    public Builder instance(String id) {
      instances.add(Daemon.requireInstanceId(Objects.requireNonNull(id, "id")));
      return this;
    }

    /** Registers an unknown instance on first use instead of answering 404 INSTANCE_NOT_FOUND. Default: false. */
    public Builder autoCreate(boolean autoCreate) {
      this.autoCreate = autoCreate;
      return this;
    }

    /**
     * Where workspaces may be (repeatable: each call adds a root). A workspace named in
     * {@code PUT /v1/instances/{id}} must resolve, without a symbolic link, strictly inside a root
     * (else 400), and no two instances share one; an instance without one gets
     * {@code {first root}/{id}} (blobs in {@code .aegis/blobs} below it). Roots are created 0700
     * when missing. Default: {@code ~/.tether/workspaces}.
     */
    public Builder workspaces(Path root) {
      this.workspaces.add(Objects.requireNonNull(root, "root"));
      return this;
    }

    /**
     * Keeps instances and watermarks in a registry shared with other servers (on the same store),
     * instead of this server's own ({@link #registryFile} is then not used). Default: none.
     */
    public Builder sharedRegistry(SharedRegistry registry) {
      this.sharedRegistry = Objects.requireNonNull(registry, "registry");
      return this;
    }

    /**
     * Finds and keeps blobs in storage shared with other servers as well as in the instance's
     * workspace, so every server serves and accepts refs to them: {@code perInstance} gives the
     * store of an instance's blobs (for {@code serve --nats}, {@code jetStreamStore::hostBlobs}).
     * The server checks every byte it reads back (hash, size, signature) as it does a
     * workspace's. Default: the workspace only.
     */
    public Builder sharedBlobs(Function<String, BlobStore> perInstance) {
      this.sharedBlobs = Objects.requireNonNull(perInstance, "perInstance");
      return this;
    }

    /**
     * Shares everything that can span hosts with the other servers given the same storage: the
     * frames, the instance registry and watermarks, and the blobs. At {@link #start()} the server
     * {@link SharedStorage#open opens} it with its own {@link #memoryBudget limits},
     * {@link #keepDeltas} and {@link #storeListener}, and closes it when it stops. What
     * {@code tether serve --nats} does: {@code shared(JetStreamShared.on(...))} from
     * {@code tether-server-jetstream}. Replaces {@link #store}, {@link #sharedRegistry},
     * {@link #sharedBlobs} and {@link #registryFile}, which must not be set as well. Default: none.
     */
    public Builder shared(SharedStorage storage) {
      this.shared = Objects.requireNonNull(storage, "storage");
      return this;
    }

    /**
     * Instances registered at once (and held by the default store); past it a new one gets 503
     * {@code TOO_MANY_INSTANCES}. Default: {@value MemoryBudget#DEFAULT_MAX_INSTANCES}.
     */
    public Builder maxInstances(int max) {
      if (max < 1) {
        throw new IllegalArgumentException("maxInstances must be >= 1 but was " + max);
      }
      this.budget = budget.withMaxInstances(max);
      return this;
    }

    /** Persists the registry (instances, watermarks) in this file. Default: in memory only. */
    public Builder registryFile(Path file) {
      this.registryFile = Objects.requireNonNull(file, "file");
      return this;
    }

    /** Validates ingress frames, with its limits. Default: {@link FrameValidator#standard()}. */
    public Builder validator(FrameValidator validator) {
      this.validator = Objects.requireNonNull(validator, "validator");
      return this;
    }

    /**
     * Request body bytes read at once across all requests; a request that would exceed it gets
     * 503. Default: the {@link MemoryBudget#ingressBytes() memory budget's}, a quarter of the heap.
     */
    public Builder ingressBytes(long bytes) {
      this.bounds = bounds.withIngressBytes(bytes);
      return this;
    }

    /**
     * Answer bytes being written at once (poll pages, stream lines, attachment downloads in 256 KiB
     * windows, blobs), across all requests; past it a poll or download gets 503 and a stream waits. Answers of at most 64 KiB are not counted. Default: the
     * {@link MemoryBudget#egressBytes() memory budget's}, an eighth of the heap.
     */
    public Builder egressBytes(long bytes) {
      this.bounds = bounds.withEgressBytes(bytes);
      return this;
    }

    /**
     * Long-polls and streams held at once, in all and on one instance; past either a new one gets
     * 503 with {@code Retry-After}. Default: 4096 and 2048.
     */
    public Builder maxWaits(int total, int perInstance) {
      this.bounds = bounds.withWaits(total, perInstance);
      this.maxWaits = total;
      this.maxWaitsPerInstance = perInstance;
      return this;
    }

    /**
     * Long-polls and streams held at once, in all; the cap on one instance stays as set, else is
     * its default (2048) cut to {@code total}. Checked at {@link #start()}. Default: 4096.
     */
    public Builder maxWaits(int total) {
      this.maxWaits = total;
      return this;
    }

    /** Long-polls and streams held at once on one instance. Checked at {@link #start()}. Default: 2048. */
    public Builder maxWaitsPerInstance(int perInstance) {
      this.maxWaitsPerInstance = perInstance;
      return this;
    }

    /**
     * How long a connection may take to send a whole request head, however slowly it trickles, or
     * sit idle between requests ({@code header}, default 10 s; then it is closed), and how long a request in progress may move no bytes
     * ({@code requestIdle}, default 60 s, at least 35 s since a long-poll waits up to 30 s): a
     * client that stops reading its answer is disconnected after it.
     */
    public Builder timeouts(Duration header, Duration requestIdle) {
      this.bounds = bounds.withTimeouts(header, requestIdle);
      this.headerTimeout = header;
      this.requestIdleTimeout = requestIdle;
      return this;
    }

    /** The header timeout of {@link #timeouts}, the other left as set or default. Checked at {@link #start()}. */
    public Builder headerTimeout(Duration header) {
      this.headerTimeout = Objects.requireNonNull(header, "header");
      return this;
    }

    /** The request idle timeout of {@link #timeouts}, the other left as set or default. Checked at {@link #start()}. */
    public Builder requestIdleTimeout(Duration requestIdle) {
      this.requestIdleTimeout = Objects.requireNonNull(requestIdle, "requestIdle");
      return this;
    }

    /**
     * Open connections across the listeners; past it new ones wait to be accepted. Default: 4096.
     * Half of them (at least 1) may be still sending their request head; see
     * {@link #maxHeadConnections(int)}.
     */
    public Builder maxConnections(int connections) {
      this.bounds = bounds.withMaxConnections(connections);
      return this;
    }

    /**
     * How many of the {@link #maxConnections(int) open connections} may be still sending their
     * request head at once (default: half of them, at least 1; at most all of them): one more
     * closes the connection that has been sending its head longest, so clients that trickle their
     * heads hold at most this many connections and whole requests keep the rest.
     */
    public Builder maxHeadConnections(int inHead) {
      if (inHead < 1) {
        throw new IllegalArgumentException("maxHeadConnections must be >= 1 but was " + inHead);
      }
      this.headConnections = inHead;
      return this;
    }

    /**
     * What the server keeps on disk for one instance: its attachments (with their manifests) and
     * blobs. An upload that would pass it gets 507 {@code INSUFFICIENT_STORAGE} naming the bytes in
     * use, the upload and the budget; deleting attachments makes room. 0: no budget. Default: 256 MiB.
     */
    public Builder instanceDiskBytes(long bytes) {
      this.bounds = bounds.withInstanceDiskBytes(bytes);
      return this;
    }

    /**
     * The rate of ingress requests into one instance: {@code POST .../tether}, {@code .../blob} and
     * {@code .../attachments}, from any caller. Past it the request gets 429 {@code RATE_LIMITED}
     * with {@code Retry-After} (seconds, rounded up) before its body is read, and nothing is stored.
     * The buckets are this server's: servers sharing storage ({@link #shared}) each admit this rate.
     * {@link RateLimit#OFF}: none. Default: {@link RateLimit#DEFAULT_PER_INSTANCE} (200/s, bursts of 400).
     */
    public Builder rateLimitPerInstance(RateLimit limit) {
      Objects.requireNonNull(limit, "limit");
      this.bounds = bounds.withRateLimits(limit, bounds.tokenRate());
      return this;
    }

    /**
     * The rate of ingress requests (as {@link #rateLimitPerInstance}) by one instance token, and by
     * the console's token; the host token and the Unix socket are held to the instance's rate only.
     * {@link RateLimit#OFF}: none. Default: {@link RateLimit#DEFAULT_PER_TOKEN} (100/s, bursts of 200).
     */
    public Builder rateLimitPerToken(RateLimit limit) {
      Objects.requireNonNull(limit, "limit");
      this.bounds = bounds.withRateLimits(bounds.instanceRate(), limit);
      return this;
    }

    /** HTTP worker threads (long-polls and streams hold none while they wait). Default: 32, at least 8. */
    public Builder maxThreads(int threads) {
      if (threads < MIN_THREADS) {
        throw new IllegalArgumentException("maxThreads must be >= " + MIN_THREADS + " but was " + threads);
      }
      this.maxThreads = threads;
      return this;
    }

    /**
     * Also serves the web console on this TCP address (port 0: any free port), behind its own
     * token; see {@link TetherServer#consoleUrl()}.
     */
    public Builder console(HostAddress.Tcp address) {
      this.consoleAddress = Objects.requireNonNull(address, "address");
      return this;
    }

    /** The console's bearer token. Default: 32 random bytes, new for each server. */
    public Builder consoleToken(String token) {
      Objects.requireNonNull(token, "token");
      if (token.getBytes(StandardCharsets.UTF_8).length < TokenFile.MIN_BYTES) {
        throw new IllegalArgumentException("consoleToken must be at least " + TokenFile.MIN_BYTES + " bytes");
      }
      this.consoleToken = token;
      return this;
    }

    /**
     * Starts a server with these settings.
     *
     * @throws IllegalStateException when a TCP listener has no token, or both a token and a token
     *     file were set, or {@link #shared} was set with a store, shared registry or blobs, or a
     *     registry file
     * @throws IllegalArgumentException when a TCP address is not loopback and that was not allowed,
     *     a token file breaks the rules of {@link TokenFile}, or maxHeadConnections is above
     *     maxConnections, or the waits or timeouts are out of range
     * @throws IOException when the address is in use or cannot be bound, a file cannot be read, or
     *     the {@link #shared} storage cannot be reached
     */
    public TetherServer start() throws IOException {
      // Checked first, so a bad setting leaves no default store behind.
      Bounds limits = resolvedBounds();
      if (shared != null && (store != null || sharedRegistry != null || sharedBlobs != null || registryFile != null)) {
        throw new IllegalStateException("shared(...) brings its own store, registry and blobs: do not also set store(...),"
            + " sharedRegistry(...), sharedBlobs(...) or registryFile(...)");
      }
      HostAddress listen = address != null ? address : HostAddress.defaultSocket();
      String bearer = null;
      if (listen instanceof HostAddress.Tcp tcp) {
        requireLoopbackOrAllowed("listen", tcp);
        if (token != null && tokenFile != null) {
          throw new IllegalStateException("set token(...) or tokenFile(...), not both");
        }
        if (token == null && tokenFile == null) {
          throw new IllegalStateException("a TCP listener needs a bearer token: call token(...) or tokenFile(...)");
        }
        bearer = token != null ? token : TokenFile.loadOrCreate(tokenFile);
      }
      Daemon.Console console = null;
      String consoleBearer = consoleToken != null ? consoleToken : Daemon.newConsoleToken();
      if (consoleAddress != null) {
        requireLoopbackOrAllowed("console", consoleAddress);
        console = new Daemon.Console(consoleAddress, consoleBearer);
      }
      List<String> names = new ArrayList<>(instances.isEmpty() ? List.of("default") : instances);
      List<Path> roots = workspaces.isEmpty() ? List.of(Path.of(System.getProperty("user.home"), ".tether", "workspaces"))
          : List.copyOf(workspaces);
      SharedStorage.Opened opened = shared == null ? null
          : shared.open(new SharedStorage.Limits(budget.retention(keepDeltas), budget.maxInstances(), budget.storeBytes(),
              storeListener));
      TetherStore frames = opened != null ? opened.store() : store != null ? store : defaultStore();
      Daemon daemon;
      try {
        daemon = Daemon.start(new Daemon.Settings(listen, frames, validator, bearer, maxThreads, limits, roots,
            budget.maxInstances(), registryFile, autoCreate, List.copyOf(names), console,
            opened != null ? opened.registry() : sharedRegistry, opened != null ? opened.blobs() : sharedBlobs,
            opened != null ? opened.attachments().orElse(null) : null, listener,
            attachmentsDirectory, localSocket, List.copyOf(mounts), waker, wakeIdle));
      } catch (IOException | RuntimeException e) {
        if (store == null) {
          frames.close(); // ours: nobody else will
        }
        if (opened != null) {
          opened.close();
        }
        throw e;
      }
      return new TetherServer(daemon, consoleBearer, limits, budget, opened);
    }

    /** The store of {@code tether serve} without {@code --data-dir} or {@code --nats}. */
    private MemoryTetherStore defaultStore() {
      return MemoryTetherStore.builder().retention(budget.retention(keepDeltas)).maxTotalBytes(budget.storeBytes())
          .maxInstances(budget.maxInstances()).listener(storeListener).build();
    }

    /** The bounds with the waits, timeouts and head connections set one by one, checked together. */
    private Bounds resolvedBounds() {
      Bounds b = bounds;
      if (maxWaits != null || maxWaitsPerInstance != null) {
        int total = maxWaits != null ? maxWaits : Bounds.DEFAULT_MAX_WAITS;
        b = b.withWaits(total, maxWaitsPerInstance != null ? maxWaitsPerInstance
            : Math.min(Bounds.DEFAULT_MAX_WAITS_PER_INSTANCE, total));
      }
      if (headerTimeout != null || requestIdleTimeout != null) {
        b = b.withTimeouts(headerTimeout != null ? headerTimeout : Bounds.DEFAULT_HEADER_TIMEOUT,
            requestIdleTimeout != null ? requestIdleTimeout : Bounds.DEFAULT_REQUEST_IDLE_TIMEOUT);
      }
      // Checked here (at most maxConnections), whatever order the two were set in.
      return headConnections == null ? b : b.withMaxConnections(b.maxConnections(), headConnections);
    }

    private void requireLoopbackOrAllowed(String what, HostAddress.Tcp tcp) {
      if (!allowNonLoopback && !tcp.isLoopback()) {
        throw new IllegalArgumentException("refusing to " + (what.equals("console") ? "serve the console" : "listen")
            + " on non-loopback " + tcp + ": the API has no TLS. Use 127.0.0.1, or allow non-loopback addresses"
            + " (allowNonLoopback; --allow-non-loopback on the command line) if you really mean it");
      }
    }
  }
}
