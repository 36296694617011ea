package dev.tether.server.internal;

import dev.tether.api.blobs.BlobStore;
import dev.tether.client.HostAddress;
import dev.tether.client.TetherClient;
import dev.tether.images.FrameValidator;
import dev.tether.server.InstanceWaker;
import dev.tether.server.ServerListener;
import dev.tether.server.ServerStats;
import dev.tether.server.SharedAttachments;
import dev.tether.server.SharedRegistry;
import dev.tether.server.SharedTokens;
import dev.tether.store.Readiness;
import dev.tether.store.TetherStore;
import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.SocketChannel;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;
import org.eclipse.jetty.server.AbstractConnector;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.NetworkConnectionLimit;
import org.eclipse.jetty.server.NetworkConnector;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.handler.GracefulHandler;
import org.eclipse.jetty.unixdomain.server.UnixDomainServerConnector;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

/**
 * The running daemon behind {@link dev.tether.server.TetherServer}: a Jetty 12 server with the {@link TetherHandler} over a store, on a
 * Unix domain socket or a loopback TCP port.
 *
 * <p>Security (spec section 7): the Unix socket is the access control. Its directory is created
 * with mode 0700 when missing and the socket file is set to 0600 once bound, so only the owner can
 * connect. On TCP every request needs the bearer token, and a non-loopback address is refused
 * unless the caller forces it.
 *
 * <p>With a {@link Console}, a second connector on loopback TCP serves the web console
 * ({@link ConsoleRouter} picks the routes by connector): its page, and this API behind the
 * console's own token. Both listeners share the thread pool, the handler and its shutdown.
 *
 * <p>Shutdown is graceful: new requests get 503, waits in progress are answered at once, requests
 * in flight finish (up to the stop timeout), then the store is closed, which flushes a durable
 * journal. Thread-safe; {@link #close()} is idempotent.
 */
public final class Daemon implements AutoCloseable {
  private static final System.Logger LOG = System.getLogger(Daemon.class.getName());
  private static final int ACCEPT_QUEUE = 1024;
  /** How long a start-up step waits for a shared store that is still forming (a JetStream cluster). */
  static final Duration STARTUP_WAIT = Duration.ofSeconds(60);

  private final Server server;
  private final TetherHandler handler;
  private final TetherStore store;
  private final FrameValidator validator;
  private final Blobs blobs;
  private final InstanceRegistry registry;
  private final AbstractConnector connector;
  private final ServerConnector consoleConnector; // null without a console
  private final UnixDomainServerConnector localConnector; // null unless a TCP server keeps a socket too
  private final HostAddress.Unix localSocket; // its path, or null
  private final HostAddress address;
  private final AtomicBoolean stopped = new AtomicBoolean();
  private final WakeTracker wake;

  /**
   * The web console's listener ({@code serve --console}): loopback TCP with its own token, serving
   * the page and the API the page uses ({@link ConsoleRoutes}).
   *
   * @param address where to listen (port 0: any free port)
   * @param token the console's bearer token, e.g. {@link BearerAuth#newToken()}
   */
  public record Console(HostAddress.Tcp address, String token) {
    public Console {
      Objects.requireNonNull(address, "address");
      Objects.requireNonNull(token, "token");
    }
  }

  private Daemon(HostAddress address, TetherStore store, FrameValidator validator, String token, int maxThreads,
      Bounds bounds, InstanceRegistry registry, Console console, InstanceTokens tokens, Blobs blobs,
      ServerListener listener, Attachments attachments, HostAddress.Unix localSocket, List<Mount> mounts, WakeTracker wake) {
    this.address = address;
    this.wake = wake;
    this.localSocket = localSocket;
    this.store = store;
    this.validator = validator;
    QueuedThreadPool pool = new QueuedThreadPool(maxThreads, Math.min(4, maxThreads));
    pool.setName("tether-http");
    pool.setDaemon(true);
    this.server = new Server(pool);
    HttpConfiguration config = new HttpConfiguration();
    // A request in progress that moves no bytes (a body that stopped coming, an answer nobody
    // reads) is cut after this; the connector's own idle timeout (below) is the shorter header
    // timeout, for connections that have not sent a whole request or sit idle between requests.
    config.setIdleTimeout(bounds.requestIdleTimeout().toMillis());
    config.setSendServerVersion(false);
    // Jetty's per-connection header cache matches values case-insensitively by default, which
    // would let "Bearer S3CRET" pass after "Bearer s3cret" on a kept-alive connection.
    config.setHeaderCacheCaseSensitive(true);
    // The header timeout below is an idle timeout; this makes it a total deadline for each request
    // head and caps the connections still in their head (slow heads cannot fill maxConnections).
    HeadDeadlines heads = new HeadDeadlines(bounds.headerTimeout(), bounds.maxHeadConnections(), server::getScheduler);
    config.addCustomizer(heads);
    HttpConnectionFactory http = new HttpConnectionFactory(config);
    if (address instanceof HostAddress.Unix unix) {
      UnixDomainServerConnector c = new UnixDomainServerConnector(server, http);
      c.setUnixDomainPath(unix.path());
      // The default backlog is tiny for Unix sockets, where a full queue fails connect() at once
      // (EAGAIN) instead of retrying as TCP does; a burst of clients needs room.
      c.setAcceptQueueSize(ACCEPT_QUEUE);
      connector = c;
    } else {
      HostAddress.Tcp tcp = (HostAddress.Tcp) address;
      ServerConnector c = new ServerConnector(server, http);
      c.setHost(tcp.host());
      c.setPort(tcp.port());
      c.setAcceptQueueSize(ACCEPT_QUEUE);
      connector = c;
    }
    connector.setIdleTimeout(bounds.headerTimeout().toMillis());
    connector.addEventListener(heads);
    server.addConnector(connector);
    this.registry = registry;
    this.blobs = blobs;
    this.handler = new TetherHandler(store, registry, validator, token, bounds, tokens, blobs, attachments);
    handler.listener(listener);
    handler.wake(wake);
    if (localSocket == null) {
      localConnector = null;
    } else {
      localConnector = new UnixDomainServerConnector(server, http);
      localConnector.setName("local");
      localConnector.setUnixDomainPath(localSocket.path());
      localConnector.setAcceptQueueSize(ACCEPT_QUEUE);
      localConnector.setIdleTimeout(bounds.headerTimeout().toMillis());
      localConnector.addEventListener(heads);
      server.addConnector(localConnector);
      handler.ownerSocket(localConnector);
    }
    // The largest body any route takes: an unread rest up to it is drained, beyond it the connection closes.
    long drainCap = validator.limits().maxFrameBytes();
    Handler api = handler;
    if (!mounts.isEmpty()) {
      List<MountRouter.Mount> built = new ArrayList<>();
      for (Mount m : mounts) {
        built.add(new MountRouter.Mount(m.path(), Objects.requireNonNull(
            m.handler().apply(new LocalClient(store, registry, validator, blobs, handler.localAttachments(), false, wake,
                handler.rates())), "the handler mounted at " + m.path())));
      }
      api = new MountRouter(handler, built);
    }
    if (console == null) {
      consoleConnector = null;
      server.setHandler(new GracefulHandler(new UnreadBodyDrain(MeteredHandler.wrap(AuditHandler.wrap(api, listener), listener, null),
          drainCap)));
    } else {
      consoleConnector = new ServerConnector(server, http);
      consoleConnector.setName("console");
      consoleConnector.setHost(console.address().host());
      consoleConnector.setPort(console.address().port());
      consoleConnector.setIdleTimeout(bounds.headerTimeout().toMillis());
      consoleConnector.addEventListener(heads);
      server.addConnector(consoleConnector);
      ConsoleRoutes routes = new ConsoleRoutes(handler, console.token(), ConsoleAssets.load());
      server.setHandler(new GracefulHandler(new UnreadBodyDrain(MeteredHandler.wrap(
          AuditHandler.wrap(new ConsoleRouter(api, consoleConnector, routes), listener), listener, consoleConnector), drainCap)));
    }
    server.addBean(new NetworkConnectionLimit(bounds.maxConnections(), server));
    server.setErrorHandler(new JsonErrorHandler());
    server.setStopTimeout(10_000);
    server.setStopAtShutdown(false);
  }

  /**
   * Starts a server. For a Unix socket the parent directory is created (0700) when missing, a
   * stale socket file left by a dead server is removed (any other file at the path is refused,
   * never deleted), and the socket is made 0600; when that fails the server stops again.
   *
   * @throws IOException when the address is in use or cannot be bound
   */
  static Daemon start(HostAddress address, TetherStore store, String token, int maxThreads) throws IOException {
    return start(address, store, FrameValidator.standard(), token, maxThreads);
  }

  /** As {@link #start(HostAddress, TetherStore, String, int)}, validating ingress with {@code validator}'s limits. */
  static Daemon start(HostAddress address, TetherStore store, FrameValidator validator, String token, int maxThreads)
      throws IOException {
    return start(address, store, validator, token, maxThreads, OWNER_ONLY, Bounds.defaults(), InstanceRegistry.autoCreating(), null, InstanceTokens.inMemory(), new Blobs(null, validator.limits()));
  }

  /** As above, reading at most {@code ingressBytes} of request bodies at once (more: 503). */
  static Daemon start(HostAddress address, TetherStore store, FrameValidator validator, String token, int maxThreads,
      long ingressBytes) throws IOException {
    return start(address, store, validator, token, maxThreads, OWNER_ONLY, Bounds.defaults().withIngressBytes(ingressBytes),
        InstanceRegistry.autoCreating(), null, InstanceTokens.inMemory(), new Blobs(null, validator.limits()));
  }

  /**
   * As above, serving the instances of {@code registry}: a route on an instance it does not know
   * answers 404 INSTANCE_NOT_FOUND unless the registry auto-creates.
   */
  static Daemon start(HostAddress address, TetherStore store, FrameValidator validator, String token, int maxThreads,
      long ingressBytes, InstanceRegistry registry) throws IOException {
    return start(address, store, validator, token, maxThreads, OWNER_ONLY, Bounds.defaults().withIngressBytes(ingressBytes), registry, null,
        InstanceTokens.inMemory(), new Blobs(null, validator.limits()));
  }

  /** As above, with the web console's listener as well when {@code console} is not null. */
  static Daemon start(HostAddress address, TetherStore store, FrameValidator validator, String token, int maxThreads,
      long ingressBytes, InstanceRegistry registry, Console console) throws IOException {
    return start(address, store, validator, token, maxThreads, OWNER_ONLY, Bounds.defaults().withIngressBytes(ingressBytes), registry, console,
        InstanceTokens.inMemory(), new Blobs(null, validator.limits()));
  }

  /**
   * Everything {@link dev.tether.server.TetherServer.Builder} collected, checked there.
   *
   * @param address where the API listens
   * @param store the frames
   * @param validator ingress validation and its limits
   * @param token the bearer token of a TCP listener (null for a Unix socket)
   * @param maxThreads HTTP worker threads
   * @param bounds what clients may hold at once
   * @param workspaceRoots where workspaces may be; defaults go below the first
   * @param maxInstances instances the registry holds at most
   * @param registryFile where the registry persists, or null to keep it in memory
   * @param autoCreate whether an unknown instance is registered on first use
   * @param instances instances registered at start
   * @param console the console's listener, or null
   * @param sharedRegistry the registry shared with other servers, or null
   * @param sharedBlobs each instance's blobs shared with other servers, or null
   * @param sharedAttachments the session attachments shared with other servers, or null
   * @param listener told of answered requests and refused frames
   * @param attachmentsDir where attachments are kept (host-only), or null for a private temporary directory
   * @param localSocket an owner-only Unix socket a TCP server serves the host's API on as well, without
   *     a token, or null; skipped (logged) when another live server holds it
   * @param mounts handlers mounted on the API listener behind its authentication (see {@link MountRouter})
   * @param waker called for idle instances that get a frame (see {@link WakeTracker}), or null for none
   * @param wakeIdle how long an instance goes unread before a frame wakes it
   */
  public record Settings(HostAddress address, TetherStore store, FrameValidator validator, String token, int maxThreads,
      Bounds bounds, List<Path> workspaceRoots, int maxInstances, Path registryFile, boolean autoCreate,
      List<String> instances,
      Console console, SharedRegistry sharedRegistry,
      Function<String, BlobStore> sharedBlobs, SharedAttachments sharedAttachments,
      ServerListener listener, Path attachmentsDir, HostAddress.Unix localSocket, List<Mount> mounts,
      InstanceWaker waker, Duration wakeIdle) {}

  /**
   * A handler mounted at {@code path} and below on the API listener, made from an in-process client
   * of this daemon (see {@link MountRouter} for the checks in front of it).
   */
  public record Mount(String path, Function<TetherClient, Handler> handler) {
    public Mount {
      Objects.requireNonNull(path, "path");
      Objects.requireNonNull(handler, "handler");
    }
  }

  /**
   * Opens the registry (registering {@code settings.instances()}) and starts a daemon on it.
   *
   * @throws IllegalArgumentException when an instance name is not a valid id
   * @throws IOException when the registry cannot be read or the address cannot be bound
   */
  public static Daemon start(Settings settings) throws IOException {
    InstanceRegistry registry = InstanceRegistry.open(settings.workspaceRoots(), settings.registryFile(), settings.autoCreate(),
        settings.maxInstances(), settings.sharedRegistry());
    for (String name : settings.instances()) {
      StartupRetry.untilReady("registering instance " + name, STARTUP_WAIT,
          () -> registry.put(InstanceRegistry.requireId(name), null));
    }
    Optional<SharedTokens> sharedTokens = settings.sharedRegistry() == null
        ? Optional.empty() : settings.sharedRegistry().tokens();
    InstanceTokens tokens = sharedTokens.isPresent()
        ? InstanceTokens.shared(sharedTokens.get(), id -> registry.find(id).map(InstanceRegistry.Entry::createdAt))
        : InstanceTokens.open(settings.registryFile() == null ? null
            : settings.registryFile().toAbsolutePath().resolveSibling("tokens.json"));
    Attachments attachments = Attachments.of(settings.sharedAttachments(), settings.sharedBlobs() != null,
        settings.attachmentsDir(), settings.bounds().instanceDiskBytes());
    return start(settings.address(), settings.store(), settings.validator(), settings.token(), settings.maxThreads(),
        OWNER_ONLY, settings.bounds(), registry, settings.console(), tokens, new Blobs(settings.sharedBlobs(), settings.validator().limits()),
        settings.listener(), attachments, settings.localSocket(), settings.mounts(),
        settings.waker() == null ? WakeTracker.NONE : new WakeTracker(settings.waker(), settings.wakeIdle()));
  }

  /**
   * Checks an instance id.
   *
   * @throws IllegalArgumentException saying what an id may contain
   */
  public static String requireInstanceId(String id) {
    return InstanceRegistry.requireId(id);
  }

  /** The bearer token of a new console: 32 random bytes, hex. */
  public static String newConsoleToken() {
    return BearerAuth.newToken();
  }

  /** The default ingress budget: the {@link dev.tether.server.MemoryBudget memory budget's}, a quarter of the heap. */
  public static long defaultIngressBytes() {
    return Bounds.defaults().ingressBytes();
  }

  /** Makes a freshly bound socket file owner-only; a seam so tests can make it fail. */
  @FunctionalInterface
  interface SocketPermissions {
    void restrict(Path socket) throws IOException;
  }

  static final SocketPermissions OWNER_ONLY =
      socket -> Files.setPosixFilePermissions(socket, PosixFilePermissions.fromString("rw-------"));

  /**
   * As above, restricting the socket file with {@code permissions}. When that fails, the server
   * is stopped again (a socket others might reach is no access control) and the failure thrown.
   */
  static Daemon start(HostAddress address, TetherStore store, FrameValidator validator, String token, int maxThreads,
      SocketPermissions permissions) throws IOException {
    return start(address, store, validator, token, maxThreads, permissions, Bounds.defaults(), InstanceRegistry.autoCreating(), null, InstanceTokens.inMemory(), new Blobs(null, validator.limits()));
  }

  private static Daemon start(HostAddress address, TetherStore store, FrameValidator validator, String token,
      int maxThreads, SocketPermissions permissions, Bounds bounds, InstanceRegistry registry, Console console, InstanceTokens tokens,
      Blobs blobs)
      throws IOException {
    return start(address, store, validator, token, maxThreads, permissions, bounds, registry, console, tokens, blobs,
        ServerListener.NONE, Attachments.of(null, blobs.shared(), null, bounds.instanceDiskBytes()), null, List.of(), WakeTracker.NONE);
  }

  private static Daemon start(HostAddress address, TetherStore store, FrameValidator validator, String token,
      int maxThreads, SocketPermissions permissions, Bounds bounds, InstanceRegistry registry, Console console, InstanceTokens tokens,
      Blobs blobs, ServerListener listener, Attachments attachments, HostAddress.Unix localSocket, List<Mount> mounts,
      WakeTracker wake) throws IOException {
    Objects.requireNonNull(address, "address");
    Objects.requireNonNull(store, "store");
    try {
      return startWaking(address, store, validator, token, maxThreads, permissions, bounds, registry, console, tokens, blobs,
          listener, attachments, localSocket, mounts, wake);
    } catch (IOException | RuntimeException e) {
      wake.close();
      throw e;
    }
  }

  private static Daemon startWaking(HostAddress address, TetherStore store, FrameValidator validator, String token,
      int maxThreads, SocketPermissions permissions, Bounds bounds, InstanceRegistry registry, Console console, InstanceTokens tokens,
      Blobs blobs, ServerListener listener, Attachments attachments, HostAddress.Unix localSocket, List<Mount> mounts,
      WakeTracker wake) throws IOException {
    if (address instanceof HostAddress.Tcp && token == null) {
      throw new IllegalArgumentException("a TCP listener needs a token");
    }
    if (address instanceof HostAddress.Unix unix) {
      prepareSocketPath(unix.path());
    }
    HostAddress.Unix local = null;
    if (localSocket != null && address instanceof HostAddress.Tcp) {
      try {
        prepareSocketPath(localSocket.path());
        local = localSocket;
      } catch (IOException e) {
        LOG.log(System.Logger.Level.WARNING, "not listening on " + localSocket.path() + " as well: " + e.getMessage());
      }
    }
    Daemon s = new Daemon(address, store, validator, token, maxThreads, bounds, registry, console, tokens, blobs, listener,
        attachments, local, mounts, wake);
    try {
      s.startJetty();
    } catch (IOException e) {
      if (local == null) {
        throw e;
      }
      // The extra socket is a convenience: a path too long for a socket, or one taken meanwhile,
      // must not keep the server from its real address.
      LOG.log(System.Logger.Level.WARNING, "not listening on " + local.path() + " as well: " + e.getMessage());
      s = new Daemon(address, store, validator, token, maxThreads, bounds, registry, console, tokens, blobs, listener,
          attachments, null, mounts, wake);
      s.startJetty();
    }
    for (HostAddress.Unix unix : s.sockets()) {
      try {
        permissions.restrict(unix.path());
      } catch (IOException | RuntimeException e) {
        s.close();
        throw new IOException("cannot make the socket " + unix.path() + " owner-only (" + e.getMessage()
            + "); stopped. Put the socket on a file system with POSIX permissions (--socket PATH)", e);
      }
    }
    return s;
  }

  /** Starts the listeners, or stops them again and throws. */
  private void startJetty() throws IOException {
    try {
      server.start();
    } catch (Exception e) {
      try {
        server.stop();
      } catch (Exception ignored) {
        // best effort
      }
      throw e instanceof IOException io ? io : new IOException("cannot listen on " + address + ": " + e.getMessage(), e);
    }
  }

  /** Where the server listens; for TCP with port 0, the port it got. */
  public HostAddress boundAddress() {
    if (address instanceof HostAddress.Tcp tcp && connector instanceof NetworkConnector n) {
      return new HostAddress.Tcp(tcp.host(), n.getLocalPort());
    }
    return address;
  }

  /** The owner-only Unix socket a TCP server serves the host's API on as well, when it took one. */
  public Optional<HostAddress.Unix> localSocket() {
    return Optional.ofNullable(localSocket);
  }

  /** The Unix sockets this daemon made: its address when that is one, and its local socket. */
  private List<HostAddress.Unix> sockets() {
    List<HostAddress.Unix> all = new ArrayList<>();
    if (address instanceof HostAddress.Unix unix) {
      all.add(unix);
    }
    if (localSocket != null) {
      all.add(localSocket);
    }
    return all;
  }

  /** Where the console listens (the port it got for port 0), when there is a console. */
  public Optional<HostAddress.Tcp> consoleAddress() {
    return consoleConnector == null ? Optional.empty()
        : Optional.of(new HostAddress.Tcp(consoleConnector.getHost(), consoleConnector.getLocalPort()));
  }

  /** An in-process client of this daemon (see {@link LocalClient}); it is an {@code AttachmentClient} too. */
  public TetherClient localClient(boolean blobImages) {
    return new LocalClient(store, registry, validator, blobs, handler.localAttachments(), blobImages, wake, null);
  }

  /** See {@link dev.tether.server.TetherServer#stats()}. */
  public ServerStats stats() {
    return handler.stats();
  }

  /** See {@link dev.tether.server.TetherServer#readiness()}. */
  public Readiness readiness() {
    return handler.readiness();
  }

  TetherHandler handler() {
    return handler;
  }

  InstanceRegistry registry() {
    return registry;
  }

  TetherStore store() {
    return store;
  }

  /** Stops gracefully: answers waits, lets in-flight requests finish, then closes the store. */
  @Override
  public void close() {
    if (!stopped.compareAndSet(false, true)) {
      return; // a second caller (the shutdown hook and a test, say) does not wait again
    }
    handler.beginShutdown();
    wake.close();
    try {
      server.stop();
    } catch (Exception e) {
      LOG.log(System.Logger.Level.WARNING, "stopping the HTTP server failed", e);
    }
    store.close();
    for (HostAddress.Unix unix : sockets()) {
      try {
        Files.deleteIfExists(unix.path());
      } catch (IOException e) {
        LOG.log(System.Logger.Level.WARNING, "cannot remove " + unix.path(), e);
      }
    }
  }

  /** Blocks until the server has stopped. */
  public void join() throws InterruptedException {
    server.join();
  }

  private static void prepareSocketPath(Path socket) throws IOException {
    Path parent = socket.toAbsolutePath().getParent();
    if (parent != null && !Files.isDirectory(parent)) {
      try {
        Files.createDirectories(parent, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
      } catch (FileAlreadyExistsException e) {
        throw new IOException(parent + " exists and is not a directory", e);
      }
    }
    if (Files.exists(socket, LinkOption.NOFOLLOW_LINKS)) {
      if (!Files.readAttributes(socket, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS).isOther()) {
        // A regular file, directory or link is someone's data, never a stale socket: keep it.
        throw new IOException(socket + " exists and is not a socket; refusing to replace it."
            + " Choose another path with --socket, or remove the file yourself");
      }
      if (isLive(socket)) {
        throw new IOException("a server is already listening on " + socket);
      }
      Files.delete(socket); // left behind by a server that died
    }
  }

  private static boolean isLive(Path socket) {
    try (SocketChannel ch = SocketChannel.open(StandardProtocolFamily.UNIX)) {
      ch.connect(UnixDomainSocketAddress.of(socket));
      return true;
    } catch (IOException e) {
      return false;
    }
  }
}
