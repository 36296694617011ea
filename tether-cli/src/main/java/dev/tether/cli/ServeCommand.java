package dev.tether.cli;

import dev.tether.client.HostAddress;
import dev.tether.client.TetherClient;
import dev.tether.client.TokenFile;
import dev.tether.micrometer.ServerMeters;
import dev.tether.micrometer.TetherMeters;
import dev.tether.server.MemoryBudget;
import dev.tether.server.RateLimit;
import dev.tether.server.ServerListener;
import dev.tether.server.TetherServer;
import dev.tether.server.jetstream.JetStreamShared;
import dev.tether.store.StoreListener;
import dev.tether.store.TetherStore;
import dev.tether.store.jetstream.JetStreamTetherStore;
import dev.tether.store.sqlite.DurableTetherStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.function.Function;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine;

/**
 * {@code tether serve}: the host daemon. Listens on a Unix domain socket (0600) by default, or on
 * loopback TCP with a bearer token; keeps frames in memory, or in a durable SQLite journal under
 * {@code --data-dir}. Stops gracefully on SIGINT/SIGTERM.
 *
 * <p>Every default (memory budget, bounds, caps, retention, the in-memory store) is
 * {@link TetherServer#builder()}'s own: this command only turns the flags it was given into
 * builder calls, and keeps the flags' names in errors, the printing and the exit codes.
 */
@Command(name = "serve", mixinStandardHelpOptions = true,
    description = {"Run the tether host daemon.",
        "HTTP API: POST /v1/instances/{id}/tether, GET .../tether/poll, GET .../tether/stream.",
        "Default socket: $XDG_RUNTIME_DIR/tether.sock, else ~/.tether/tether.sock (mode 0600, directory 0700)."})
final class ServeCommand implements Callable<Integer> {
  @Option(names = "--socket", paramLabel = "PATH", description = "Unix domain socket to listen on (the default listener).")
  Path socket;

  @Option(names = "--listen", paramLabel = "HOST:PORT",
      description = "Listen on TCP, loopback only; every request needs the bearer token from --token-file. The default"
          + " socket is kept too (owner-only, no token), so local commands reach the host without --host.")
  String listen;

  @Option(names = "--token-file", paramLabel = "FILE",
      description = "Bearer token for --listen; created (0600) with a random token when missing. Default: ~/.tether/token.")
  Path tokenFile;

  @Option(names = "--allow-non-loopback",
      description = "Allow --listen or --console on an address that is not loopback (exposes the API to the network).")
  boolean allowNonLoopback;

  @Option(names = "--console", paramLabel = "HOST:PORT",
      description = {"Also serve the web console on this TCP address, loopback only (port 0: any free port): the page lists"
          + " instances and sessions, shows a session as a conversation with its images, streams answers live and sends"
          + " text and images. It prints the URL once, with a new random token after '#token='; every API request of the"
          + " page needs that token."})
  String console;

  @Option(names = "--data-dir", paramLabel = "DIR",
      description = "Keep frames in a durable SQLite journal in DIR (seq continues across restarts), and attachments in"
          + " DIR/attachments (host-only; else ~/.tether/attachments). DIR is made 0700; one that belongs to another"
          + " user is refused. Default: in memory.")
  Path dataDir;

  @Option(names = "--with-agent",
      description = "Also run the demo agent in this process, answering instance 'default' through this server"
          + " (what 'tether agent' does; its sessions go to ~/.tether/agent).")
  boolean withAgent;

  @Option(names = "--agent-approval",
      description = "With --with-agent: the demo agent asks approval (event.tool_approval_request) before it draws a chart"
          + " and waits up to 5 min for control.tool_approval (tether_approve in 'tether mcp', or the console).")
  boolean agentApproval;

  @Option(names = "--instance", paramLabel = "NAME",
      description = "An instance this server serves (repeatable). Default: 'default'. More can be added with PUT /v1/instances/{id}.")
  List<String> instances;

  @Option(names = "--auto-create",
      description = "Register an unknown instance on first use instead of answering 404 INSTANCE_NOT_FOUND.")
  boolean autoCreate;

  @Option(names = "--workspaces", paramLabel = "DIR",
      description = {"Where instance workspaces may be (repeatable). A workspace given in PUT /v1/instances/{id} must"
          + " resolve inside one of these, without a symbolic link (else 400), and no two instances share one; instances"
          + " without one get DIR/{id} under the first (blobs in {workspace}/.aegis/blobs).",
          "Default: DATA-DIR/workspaces, else ~/.tether/workspaces."})
  List<Path> workspaces;

  @Option(names = "--keep-deltas",
      description = "Store assistant.delta and reasoning.delta frames like other frames. Default: transient"
          + " (they reach waiting readers and a short live window, but never evict or count against stored frames).")
  boolean keepDeltas;

  @Option(names = "--images", paramLabel = "inline|blob", defaultValue = "inline",
      description = "How the demo agent (--with-agent) sends its images: inline base64 or blob refs. Default: ${DEFAULT-VALUE}.")
  String images;

  @Option(names = "--max-threads", paramLabel = "N", defaultValue = "32",
      description = "HTTP worker threads (long-polls hold none). Default: ${DEFAULT-VALUE}.")
  int maxThreads;

  @Option(names = "--store-max-bytes", paramLabel = "SIZE", converter = ByteSize.class,
      description = "Frame bytes kept across all instances (bytes, KiB, MiB, GiB). Default: half the heap (-Xmx)."
          + " Over it the oldest frames of the largest instance are evicted; when nothing can be, POSTs get 507 STORE_FULL.")
  Long storeMaxBytes;

  @Option(names = "--ring-max-bytes", paramLabel = "SIZE", converter = ByteSize.class,
      description = "Frame bytes kept per instance. Default: min(128MiB, store budget / 4).")
  Long ringMaxBytes;

  @Option(names = "--ring-max-frames", paramLabel = "N",
      description = "Frames kept per instance. Default: " + MemoryBudget.DEFAULT_RING_FRAMES + ".")
  Integer ringMaxFrames;

  @Option(names = "--max-instances", paramLabel = "N",
      description = "Instances held at once (empty, idle ones are freed). Default: " + MemoryBudget.DEFAULT_MAX_INSTANCES
          + ". Over it a new instance gets 503 TOO_MANY_INSTANCES.")
  Integer maxInstances;

  @Option(names = "--max-waits", paramLabel = "N",
      description = "Long-polls and streams held at once; past it a new one gets 503 UNAVAILABLE with Retry-After. Default: 4096.")
  Integer maxWaits;

  @Option(names = "--max-waits-per-instance", paramLabel = "N",
      description = "Long-polls and streams held at once on one instance. Default: 2048.")
  Integer maxWaitsPerInstance;

  @Option(names = "--max-connections", paramLabel = "N",
      description = "Open connections across the listeners; past it new ones wait to be accepted. Default: 4096.")
  Integer maxConnections;

  @Option(names = "--max-head-connections", paramLabel = "N",
      description = "Connections still sending their request head at once; one more closes the one that has been at it longest,"
          + " so slow heads cannot take every connection. At most --max-connections. Default: half of --max-connections.")
  Integer maxHeadConnections;

  @Option(names = "--header-timeout", paramLabel = "SECONDS",
      description = "Seconds a connection may take to send a whole request head (however slowly it trickles), or sit idle"
          + " between requests, before it is closed. Default: 10.")
  Integer headerTimeout;

  @Option(names = "--request-idle-timeout", paramLabel = "SECONDS",
      description = "Seconds a request in progress may move no bytes (a client that stopped reading its answer) before it is cut;"
          + " at least 35 (a long-poll waits up to 30). Default: 60.")
  Integer requestIdleTimeout;

  @Option(names = "--instance-disk-bytes", paramLabel = "SIZE", converter = ByteSize.class,
      description = "What the server keeps on disk for one instance, its attachments and blobs (bytes, KiB, MiB, GiB);"
          + " past it an upload gets 507 INSUFFICIENT_STORAGE, and DELETE .../attachments/{name} makes room. 0: no budget."
          + " Default: 256MiB.")
  Long instanceDiskBytes;

  @Option(names = "--rate-limit-instance", paramLabel = "RATE",
      description = "Ingress requests (POST of frames, blobs, attachments) into one instance, from any caller: N/s, N/m"
          + " or N/h, optionally ,burst=N (default burst: twice the rate per second). Past it: 429 RATE_LIMITED with"
          + " Retry-After. 0: off. Per host (with --nats each host admits this rate). Default: 200/s,burst=400.")
  String rateLimitInstance;

  @Option(names = "--rate-limit-token", paramLabel = "RATE",
      description = "Ingress requests by one instance token (or the console's), as --rate-limit-instance; the host token"
          + " and the socket are held to the instance's rate only. 0: off. Default: 100/s,burst=200.")
  String rateLimitToken;

  @Option(names = "--nats", paramLabel = "URL", split = ",",
      description = "Keep instances in NATS JetStream at these servers (nats://host:4222,...), shared with every"
          + " 'tether serve' given the same servers (attachments too). Replaces --data-dir.")
  List<String> nats;

  @Option(names = "--nats-creds", paramLabel = "FILE", description = "NATS credentials file (JWT and NKey seed).")
  Path natsCreds;

  @Option(names = "--nats-token-file", paramLabel = "FILE", description = "File holding a NATS server token.")
  Path natsTokenFile;

  @Option(names = "--nats-tls", description = "Connect to NATS with TLS (default trust store; tls:// URLs imply it).")
  boolean natsTls;

  @Option(names = "--nats-replicas", paramLabel = "N",
      description = "Stream replicas of new instances: 1, or 3 on a 3-node cluster. Default: 3 when the servers form a cluster of 3 or more, else 1.")
  Integer natsReplicas;

  @CommandLine.Mixin
  MetricsOptions ops = new MetricsOptions();

  @CommandLine.Mixin
  LogOptions logs = new LogOptions();

  @CommandLine.Mixin
  McpServeOptions mcp = new McpServeOptions();

  @CommandLine.Mixin
  AuditOptions audit = new AuditOptions();

  @CommandLine.Mixin
  WakeOptions wake = new WakeOptions();

  @Override
  public Integer call() throws Exception {
    logs.install("serve");
    if (agentApproval && !withAgent) {
      throw new UsageException("--agent-approval needs --with-agent (it is a mode of the demo agent)");
    }
    if (nats != null && dataDir != null) {
      System.err.println("tether serve: use either --nats or --data-dir, not both");
      return 2;
    }
    if (socket != null && listen != null) {
      System.err.println("tether serve: use either --socket or --listen, not both");
      return 2;
    }
    long heap = Runtime.getRuntime().maxMemory();
    MemoryBudget budget = memoryBudget(heap);
    AgentCommand.requireImagesMode(images);
    TetherServer.Builder builder = serverBuilder(budget);
    mcp.mount(builder);
    wake.apply(builder);
    TetherMeters meters = ops.meters(Set.copyOf(instanceNames()));
    ServerMeters http = meters == null ? null : meters.serverListener();
    builder.listener(ServerListener.all(http == null ? ServerListener.NONE : http, audit.open()));
    Function<String, StoreListener> storeListener = kind -> meters == null
        ? StoreListener.NONE : meters.storeListener(kind);
    // null: the builder's default store, bounded by the budget (no --data-dir, no --nats)
    TetherStore store = openStore(budget, storeListener);
    // A fresh in-memory store starts at seq 0; a shared one is asked once it is open (-1).
    long agentStart = nats != null ? -1 : store == null ? 0 : store.lastSeq("default");
    TetherServer server;
    try {
      if (nats != null) {
        // Every host on the same servers shares the frames, registry, watermarks and blobs: the
        // one call an embedder makes too.
        builder.shared(JetStreamShared.on(natsConnection())).storeListener(storeListener.apply("jetstream"));
      } else if (store != null) {
        builder.store(store);
      } else {
        builder.storeListener(storeListener.apply("memory"));
      }
      server = builder.start();
    } catch (IllegalArgumentException e) {
      mcp.close();
      audit.close();
      closeQuietly(store);
      throw new UsageException(e.getMessage());
    } catch (IOException | UncheckedIOException e) {
      // Cannot listen, or the store (NATS) did not answer in time: one line at ERROR naming the cause.
      mcp.close();
      audit.close();
      closeQuietly(store);
      CommandLog.named("tether.serve").error("tether serve: " + CommandFailure.oneLine(CommandFailure.describe(e)));
      return 1;
    }
    MetricsEndpoint metricsEndpoint = null;
    if (http != null) {
      http.bind(server);
      try {
        metricsEndpoint = ops.start("tether serve", allowNonLoopback,
            listen == null ? null : TokenFile.loadOrCreate(tokenFile == null ? TokenFile.defaultFile() : tokenFile), server::readiness);
      } catch (IOException | RuntimeException e) {
        server.close();
        audit.close();
        if (e instanceof UsageException u) {
          throw u;
        }
        System.err.println("tether serve: --metrics: " + e.getMessage());
        return 1;
      }
    }
    MetricsEndpoint metricsToClose = metricsEndpoint;
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      System.err.println("tether serve: shutting down");
      if (metricsToClose != null) {
        metricsToClose.close();
      }
      mcp.close();
      server.close();
      audit.close(); // after the server: the last requests' lines are written
      System.err.println("tether serve: stopped (requests finished, store closed)");
      stopped.countDown();
    }, "tether-shutdown"));
    System.err.println("tether serve: " + server.memoryBudget().describe(heap));
    System.err.println("tether serve: " + server.describeLimits());
    System.err.println("tether serve: listening on " + pasteable(server.boundAddress())
        + (nats != null ? " (NATS JetStream at " + String.join(",", nats) + ")"
            : dataDir == null ? " (in-memory store)" : " (journal in " + dataDir + ")"));
    server.localSocket().ifPresent(local -> System.err.println("tether serve: and on " + local
        + " for local commands (tether token, agent, mcp without --host)"));
    server.consoleUrl().ifPresent(url -> System.err.println("tether serve: console: " + url));
    if (mcp.mcp) {
      System.err.println("tether serve: MCP (Streamable HTTP) at " + pasteable(server.boundAddress()) + "/mcp");
    }
    if (withAgent) {
      startDemoAgent(server, agentStart);
    }
    stopped.await();
    return 0;
  }

  private static void closeQuietly(TetherStore store) {
    if (store != null) {
      store.close();
    }
  }

  /** The server's settings from the flags: where it listens, its token, instances, budgets, console. */
  private TetherServer.Builder serverBuilder(MemoryBudget budget) throws IOException {
    TetherServer.Builder b = TetherServer.builder()
        .allowNonLoopback(allowNonLoopback)
        .maxThreads(Math.max(8, maxThreads))
        .memoryBudget(budget)
        .keepDeltas(keepDeltas)
        .autoCreate(autoCreate);
    if (workspaces == null || workspaces.isEmpty()) {
      b.workspaces(dataDir != null ? dataDir.resolve("workspaces") : Connections.home().resolve(".tether").resolve("workspaces"));
    } else {
      workspaces.forEach(b::workspaces);
    }
    // Attachments stay out of the guest's reach: host-only, beside the workspaces, never in one.
    b.attachmentsDirectory(dataDir != null ? dataDir.resolve("attachments") : Connections.home().resolve(".tether").resolve("attachments"));
    requirePositive("--max-waits", maxWaits == null ? null : maxWaits.longValue());
    requirePositive("--max-waits-per-instance", maxWaitsPerInstance == null ? null : maxWaitsPerInstance.longValue());
    requirePositive("--max-connections", maxConnections == null ? null : maxConnections.longValue());
    requirePositive("--max-head-connections", maxHeadConnections == null ? null : maxHeadConnections.longValue());
    requirePositive("--header-timeout", headerTimeout == null ? null : headerTimeout.longValue());
    if (maxWaits != null) {
      b.maxWaits(maxWaits);
    }
    if (maxWaitsPerInstance != null) {
      b.maxWaitsPerInstance(maxWaitsPerInstance);
    }
    if (maxConnections != null) {
      b.maxConnections(maxConnections);
    }
    if (maxHeadConnections != null) {
      if (maxConnections != null && maxHeadConnections > maxConnections) {
        throw new UsageException("--max-head-connections must be at most --max-connections (" + maxConnections + ") but was "
            + maxHeadConnections);
      }
      b.maxHeadConnections(maxHeadConnections);
    }
    if (instanceDiskBytes != null) {
      b.instanceDiskBytes(instanceDiskBytes);
    }
    if (rateLimitInstance != null) {
      b.rateLimitPerInstance(rateLimit("--rate-limit-instance", rateLimitInstance));
    }
    if (rateLimitToken != null) {
      b.rateLimitPerToken(rateLimit("--rate-limit-token", rateLimitToken));
    }
    if (requestIdleTimeout != null && requestIdleTimeout < 35) {
      throw new UsageException("--request-idle-timeout must be at least 35 (a long-poll waits up to 30 s) but was " + requestIdleTimeout);
    }
    if (headerTimeout != null) {
      b.headerTimeout(Duration.ofSeconds(headerTimeout));
    }
    if (requestIdleTimeout != null) {
      b.requestIdleTimeout(Duration.ofSeconds(requestIdleTimeout));
    }
    if (console != null) {
      b.console(requireLoopbackOrAllowed("--console", parseTcp("--console", console)));
    }
    if (listen != null) {
      // The default socket stays too (owner-only, as without --listen): local commands find the host.
      b.listen(requireLoopbackOrAllowed("--listen", parseListen(listen)))
          .tokenFile(tokenFile == null ? TokenFile.defaultFile() : tokenFile)
          .localSocket(HostAddress.defaultSocket());
    } else {
      b.listen(socket == null ? HostAddress.defaultSocket() : new HostAddress.Unix(socket));
    }
    if (dataDir != null) {
      DataDir.claim("--data-dir", dataDir); // 0700, an existing one of ours tightened, another user's refused
      b.registryFile(dataDir.resolve("instances.json"));
    }
    for (String name : instanceNames()) {
      try {
        b.instance(name);
      } catch (IllegalArgumentException e) {
        throw new UsageException("--instance: " + e.getMessage());
      }
    }
    return b;
  }

  /** The instances registered at start: --instance, else 'default'; plus 'default' for the demo agent. */
  private List<String> instanceNames() {
    List<String> names = new ArrayList<>(instances == null || instances.isEmpty() ? List.of("default") : instances);
    if (withAgent && !names.contains("default")) {
      names.add("default");
    }
    return names;
  }

  /**
   * Runs the demo agent ({@code tether agent}) in this process on a daemon thread, so that one
   * command gives a host with an agent to talk to. It talks to the server through its in-process
   * client: the same registry and validation as the HTTP API, without the HTTP hop.
   */
  private void startDemoAgent(TetherServer server, long startSeq) {
    AgentCommand agent = new AgentCommand();
    agent.instance = "default";
    // From the seq the store had before the listener opened, so a message sent before the agent
    // finished starting is answered too.
    agent.afterSeq = startSeq;
    agent.images = images;
    agent.approval = agentApproval;
    Thread thread = new Thread(() -> {
      try (TetherClient client = server.localClient("blob".equals(images))) {
        int status = agent.serve(client, server.boundAddress() + " (in process)");
        if (status != 0) {
          System.err.println("tether serve: the demo agent stopped (status " + status + ")");
        }
      } catch (Exception e) {
        System.err.println("tether serve: the demo agent failed: " + e);
      }
    }, "tether-demo-agent");
    thread.setDaemon(true);
    thread.start();
  }

  /** How the start-up line names {@code address}: a URL to paste for TCP, {@code unix:PATH} for a socket. */
  static String pasteable(HostAddress address) {
    if (address instanceof HostAddress.Tcp tcp) {
      return "http://" + (tcp.host().contains(":") ? "[" + tcp.host() + "]" : tcp.host()) + ":" + tcp.port();
    }
    return address.toString();
  }

  /** {@code --listen HOST:PORT}; anything else is a {@link UsageException} naming the option. */
  static HostAddress.Tcp parseListen(String value) {
    return parseTcp("--listen", value);
  }

  /** {@code option HOST:PORT}; anything else is a {@link UsageException} naming the option. */
  static HostAddress.Tcp parseTcp(String option, String value) {
    HostAddress parsed;
    try {
      parsed = HostAddress.parse(value);
    } catch (IllegalArgumentException e) {
      throw new UsageException(option + " needs HOST:PORT, e.g. 127.0.0.1:18731, but was '" + value + "' ("
          + e.getMessage() + ")");
    }
    if (!(parsed instanceof HostAddress.Tcp tcp) || tcp.host().isEmpty()) {
      throw new UsageException(option + " needs HOST:PORT, e.g. 127.0.0.1:18731, but was '" + value
          + "'" + ("--listen".equals(option) ? "; for a Unix socket use --socket PATH" : ""));
    }
    return tcp;
  }

  /**
   * {@code tcp} when it is loopback or {@code --allow-non-loopback} was given; else a usage error
   * naming the option. (The server refuses it too; this says which flag to change.)
   */
  private HostAddress.Tcp requireLoopbackOrAllowed(String option, HostAddress.Tcp tcp) {
    if (tcp.isLoopback() || allowNonLoopback) {
      return tcp;
    }
    throw new UsageException("refusing to listen on non-loopback " + tcp + " (" + option
        + "); the API has no TLS. Use 127.0.0.1, or pass --allow-non-loopback if you really mean it.");
  }

  /** The limits from the heap and the flags; a bad flag value is a {@link UsageException}. */
  MemoryBudget memoryBudget(long heap) {
    requirePositive("--store-max-bytes", storeMaxBytes);
    requirePositive("--ring-max-bytes", ringMaxBytes);
    requirePositive("--ring-max-frames", ringMaxFrames == null ? null : ringMaxFrames.longValue());
    requirePositive("--max-instances", maxInstances == null ? null : maxInstances.longValue());
    return MemoryBudget.resolve(heap, storeMaxBytes, ringMaxBytes, ringMaxFrames, maxInstances);
  }

  /** {@link RateLimit#parse} of a flag's value; a malformed one is one line naming the flag. */
  private static RateLimit rateLimit(String option, String value) {
    try {
      return RateLimit.parse(value);
    } catch (IllegalArgumentException e) {
      throw new UsageException(option + ": " + e.getMessage());
    }
  }

  private static void requirePositive(String option, Long value) {
    if (value != null && value < 1) {
      throw new UsageException(option + " must be at least 1 but was " + value);
    }
  }

  /** The store --data-dir asks for; null for the builder's default (in memory) or --nats (opened by the server). */
  private TetherStore openStore(MemoryBudget budget,
      Function<String, StoreListener> listener) throws IOException {
    if (dataDir == null) {
      return null;
    }
    DataDir.claim("--data-dir", dataDir);
    return DurableTetherStore.builder(dataDir.resolve("journal.db")).retention(budget.retention(keepDeltas))
        .maxTotalBytes(budget.storeBytes()).maxInstances(budget.maxInstances()).listener(listener.apply("sqlite")).open();
  }

  /**
   * Where --nats connects and how (servers, credentials, TLS, replicas); the server sets the
   * store's bounds from the memory budget, as for its default store.
   */
  private JetStreamTetherStore.Builder natsConnection() throws IOException {
    JetStreamTetherStore.Builder b = JetStreamTetherStore.builder().servers(nats);
    if (natsReplicas != null) {
      b.replicas(natsReplicas);
    }
    if (natsCreds != null) {
      b.credentialsFile(natsCreds);
    }
    if (natsTokenFile != null) {
      b.token(Files.readString(natsTokenFile).trim().toCharArray());
    }
    if (natsTls) {
      b.tls();
    }
    return b;
  }
}
