package dev.tether.coven;

import dev.tether.api.Limits;
import dev.tether.client.AttachmentClient;
import dev.tether.client.TetherClient;
import dev.tether.coven.internal.Backoff;
import dev.tether.coven.internal.Bridge;
import dev.tether.coven.internal.HeaderInterceptor;
import dev.tether.coven.internal.Supervisor;
import dev.tether.coven.internal.proto.AgentMetadata;
import dev.tether.coven.internal.proto.RegisterAgent;
import dev.tether.images.FrameValidator;
import io.grpc.ChannelCredentials;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.grpc.TlsChannelCredentials;
import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A tether agent served to a coven gateway: the agent side of {@code coven.CovenControl/AgentStream}
 * bridged to a tether instance through a {@link TetherClient} (in-process over a store, or a
 * remote {@code tether serve}).
 *
 * <p>Once {@link #start() started} the agent registers (the same {@code agent_id} on every
 * stream), turns each {@code SendMessage} into a validated {@code user.message} on session
 * {@code coven}/{@code thread_id}, streams the agent's answer back as {@code text},
 * {@code file} ({@code assistant.done} images), {@code usage} and {@code tool_state} events, the
 * agent's tool frames ({@code ToolPayload}) as {@code tool_use}, {@code tool_result},
 * {@code tool_approval_request}, {@code session_init}, {@code session_orphaned} and
 * {@code ExecutePackTool}, and exactly one {@code done}, {@code error} or {@code cancelled}; it
 * passes {@code ToolApprovalResponse} and {@code PackToolResult} back to the agent that asked
 * (refusing answers nobody asked for, timing out ones that never come); it answers {@code CancelRequest}
 * with a tether {@code control.cancel}, acknowledges {@code InjectContext} and puts the context
 * before the next turn's text, sends heartbeats, and reconnects with capped exponential backoff
 * after a dropped stream. It stops on {@code Shutdown}, {@code RegistrationError}, an
 * unrecoverable refusal or {@link #close()}; {@link #termination()} says which.
 *
 * <pre>{@code
 * CovenAgent agent = CovenAgent.builder()
 *     .gateway("coven.example:50051").tls(Path.of("ca.pem"))
 *     .credentials(CovenCredentials.sshKey(Path.of("/home/me/.ssh/id_ed25519")))
 *     .agentId(storedId).name("tether-demo")
 *     .tether(client, "vm1")
 *     .build();
 * CovenTermination end = agent.start().join();
 * }</pre>
 *
 * <p>Thread-safe. Work runs on the {@linkplain Builder#executor executor} (default
 * {@link ForkJoinPool#commonPool()}) and never blocks it; one daemon timer thread per agent only
 * schedules. The agent does not close the {@link TetherClient}.
 */
public final class CovenAgent implements AutoCloseable {
  /** What the agent declares in {@code protocol_features}. */
  public static final List<String> PROTOCOL_FEATURES = List.of("token_usage", "tool_states", "injection", "cancellation");
  /** How long an approval request waits for the gateway's answer unless {@link Builder#approvalTimeout} says otherwise. */
  public static final Duration DEFAULT_APPROVAL_TIMEOUT = Duration.ofMinutes(5);
  /** How long a pack-tool request waits for its result unless {@link Builder#packToolTimeout} says otherwise. */
  public static final Duration DEFAULT_PACK_TOOL_TIMEOUT = Duration.ofSeconds(60);

  /** The largest gateway message accepted: four 10 MiB images with room for text and framing. */
  static final int MAX_INBOUND_MESSAGE_BYTES = 64 << 20;

  private final String agentId;
  private final ManagedChannel channel;
  private final ScheduledThreadPoolExecutor timer;
  private final Supervisor supervisor;

  private CovenAgent(Builder b, ChannelCredentials channelCredentials) {
    this.agentId = b.agentId != null ? b.agentId : UUID.randomUUID().toString();
    this.timer = new ScheduledThreadPoolExecutor(1, r -> {
      Thread t = new Thread(r, "tether-coven-timer");
      t.setDaemon(true);
      return t;
    });
    timer.setRemoveOnCancelPolicy(true);
    CovenCredentials credentials = b.credentials;
    this.channel = Grpc.newChannelBuilder(b.target, channelCredentials)
        .executor(b.executor)
        .maxInboundMessageSize(MAX_INBOUND_MESSAGE_BYTES)
        .userAgent("tether-coven")
        .intercept(new HeaderInterceptor(credentials::headersForNewStream))
        .build();
    RegisterAgent registration = RegisterAgent.newBuilder()
        .setAgentId(agentId)
        .setName(b.name)
        .addAllCapabilities(b.capabilities)
        .setMetadata(AgentMetadata.newBuilder()
            .setWorkingDirectory(b.workingDirectory)
            .setHostname(b.hostname)
            .setOs(b.os)
            .addAllWorkspaces(b.workspaces)
            .setBackend(b.backend))
        .addAllProtocolFeatures(PROTOCOL_FEATURES)
        .build();
    Bridge bridge = new Bridge(b.client, b.instance, b.executor, timer, FrameValidator.withLimits(b.limits),
        b.turnTimeout, b.pollWait.toMillis(), Duration.ofSeconds(5), b.heartbeat, b.listener, b.attachments,
        b.approvalTimeout, b.packToolTimeout);
    this.supervisor = new Supervisor(bridge, channel, b.target, registration,
        new Backoff(b.backoffInitial, b.backoffMax, 0.2, () -> ThreadLocalRandom.current().nextDouble()),
        Duration.ofSeconds(30), b.shutdownGrace);
    supervisor.termination().whenComplete((t, e) -> {
      timer.shutdownNow();
      if (t != null && t.clean()) {
        // The agent has half-closed its stream (a clean goodbye after Shutdown): let that reach
        // the gateway before the channel goes. shutdownNow() at once raced it, and the gateway
        // could see CANCELLED instead of the stream's end.
        channel.shutdown();
        Thread closer = new Thread(() -> {
          try {
            if (!channel.awaitTermination(5, TimeUnit.SECONDS)) {
              channel.shutdownNow();
            }
          } catch (InterruptedException ie) {
            channel.shutdownNow();
            Thread.currentThread().interrupt();
          }
        }, "coven-channel-close");
        closer.setDaemon(true);
        closer.start();
      } else {
        channel.shutdownNow();
      }
    });
  }

  public static Builder builder() {
    return new Builder();
  }

  /** The {@code agent_id} this agent registers with on every stream. */
  public String agentId() {
    return agentId;
  }

  /**
   * Connects and serves until the agent stops; returns {@link #termination()}.
   *
   * @throws IllegalStateException when called twice
   */
  public CompletableFuture<CovenTermination> start() {
    if (!started.compareAndSet(false, true)) {
      throw new IllegalStateException("the agent was already started");
    }
    return supervisor.start();
  }

  private final AtomicBoolean started = new AtomicBoolean();

  /** Completes once the agent has stopped for good, with why. */
  public CompletableFuture<CovenTermination> termination() {
    return supervisor.termination();
  }

  /**
   * Waits for the agent to stop.
   *
   * @throws TimeoutException when it still runs after {@code timeout}
   */
  public CovenTermination awaitTermination(Duration timeout) throws InterruptedException, TimeoutException {
    try {
      return termination().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (ExecutionException e) {
      throw new IllegalStateException("the agent failed", e.getCause());
    }
  }

  /** Leaves the gateway (the current request's agent is told to stop) and releases the channel. Idempotent. */
  @Override
  public void close() {
    supervisor.close();
  }

  @Override
  public String toString() {
    return "CovenAgent[" + agentId + "]";
  }

  /** Settings of a {@link CovenAgent}; the gateway and the tether side are required. Not thread-safe. */
  public static final class Builder {
    private String target;
    private Boolean plaintext;
    private Path caFile;
    private CovenCredentials credentials = CovenCredentials.none();
    private String agentId;
    private String name = "tether-agent";
    private List<String> capabilities = List.of("chat");
    private List<String> workspaces = List.of();
    private String backend = "tether";
    private String hostname = defaultHostname();
    private String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
    private String workingDirectory = System.getProperty("user.dir", "");
    private TetherClient client;
    private String instance;
    private AttachmentClient attachments;
    private Executor executor = ForkJoinPool.commonPool();
    private Duration heartbeat = Duration.ofSeconds(30);
    private Duration backoffInitial = Duration.ofSeconds(1);
    private Duration backoffMax = Duration.ofSeconds(30);
    private Duration turnTimeout = Duration.ofMinutes(10);
    private Duration pollWait = Duration.ofSeconds(25);
    private Duration shutdownGrace = Duration.ofSeconds(30);
    private Duration approvalTimeout = DEFAULT_APPROVAL_TIMEOUT;
    private Duration packToolTimeout = DEFAULT_PACK_TOOL_TIMEOUT;
    private Limits limits = Limits.defaults();
    private CovenListener listener = new CovenListener() {};

    private Builder() {}

    /** The gateway as {@code host:port} (or any gRPC target such as {@code dns:///host:50051}). */
    public Builder gateway(String target) {
      Objects.requireNonNull(target, "target");
      if (target.isBlank()) {
        throw new IllegalArgumentException("gateway must be host:port but was blank");
      }
      this.target = target;
      return this;
    }

    /** Connect without TLS (a gateway on localhost or a trusted network). */
    public Builder plaintext() {
      requireTransportUnset();
      this.plaintext = true;
      return this;
    }

    /** Connect with TLS, trusting the system's certificate authorities. This is the default. */
    public Builder tls() {
      requireTransportUnset();
      this.plaintext = false;
      return this;
    }

    /** Connect with TLS, trusting the certificate authorities in the PEM file {@code caFile}. */
    public Builder tls(Path caFile) {
      requireTransportUnset();
      this.plaintext = false;
      this.caFile = Objects.requireNonNull(caFile, "caFile");
      return this;
    }

    private void requireTransportUnset() {
      if (plaintext != null) {
        throw new IllegalStateException("the transport was already set to " + (plaintext ? "plaintext" : "TLS"));
      }
    }

    public Builder credentials(CovenCredentials credentials) {
      this.credentials = Objects.requireNonNull(credentials, "credentials");
      return this;
    }

    /** The stable {@code agent_id}; keep it across restarts (default: a new UUID per agent). */
    public Builder agentId(String agentId) {
      this.agentId = nonBlank(agentId, "agentId");
      return this;
    }

    /** The human-readable name shown in the gateway (default {@code tether-agent}). */
    public Builder name(String name) {
      this.name = nonBlank(name, "name");
      return this;
    }

    /** The capabilities declared at registration (default {@code chat}). */
    public Builder capabilities(List<String> capabilities) {
      this.capabilities = List.copyOf(capabilities);
      return this;
    }

    /** Workspace tags the gateway filters agents by. */
    public Builder workspaces(List<String> workspaces) {
      this.workspaces = List.copyOf(workspaces);
      return this;
    }

    /** The backend named in the metadata (default {@code tether}). */
    public Builder backend(String backend) {
      this.backend = nonBlank(backend, "backend");
      return this;
    }

    /** The host name reported in the metadata (default: this machine's). */
    public Builder hostname(String hostname) {
      this.hostname = Objects.requireNonNull(hostname, "hostname");
      return this;
    }

    /** The working directory reported in the metadata (default: {@code user.dir}). */
    public Builder workingDirectory(String workingDirectory) {
      this.workingDirectory = Objects.requireNonNull(workingDirectory, "workingDirectory");
      return this;
    }

    /** The tether side: the host {@code client} and the agent's {@code instance}. */
    public Builder tether(TetherClient client, String instance) {
      this.client = Objects.requireNonNull(client, "client");
      this.instance = nonBlank(instance, "instance");
      return this;
    }

    /**
     * Stores each attachment that is not an image as a session attachment of the thread's
     * session ({@code coven}/{@code thread_id}) on the host before the message is forwarded, with
     * the MIME type the gateway sent; the text then names it as
     * {@code [Attachment: name (size bytes, type)]} and its payload entry carries the stored
     * {@code name}. Usually the same {@code HttpTetherClient} as {@link #tether}. Without it such
     * attachments are only named in the text, as not forwarded.
     */
    public Builder attachments(AttachmentClient attachments) {
      this.attachments = Objects.requireNonNull(attachments, "attachments");
      return this;
    }

    /** Where callbacks and translations run; never blocked (default {@link ForkJoinPool#commonPool()}). */
    public Builder executor(Executor executor) {
      this.executor = Objects.requireNonNull(executor, "executor");
      return this;
    }

    /** How often a heartbeat goes to the gateway (default 30 s; the gateway's default timeout is 90 s). */
    public Builder heartbeatInterval(Duration interval) {
      this.heartbeat = positive(interval, "heartbeatInterval");
      return this;
    }

    /** The first and the largest reconnect delay (defaults 1 s and 30 s; each delay ±20% jitter). */
    public Builder reconnectBackoff(Duration initial, Duration max) {
      positive(initial, "reconnect initial");
      if (max.compareTo(initial) < 0) {
        throw new IllegalArgumentException("reconnect max must be >= initial (" + initial + ") but was " + max);
      }
      this.backoffInitial = initial;
      this.backoffMax = max;
      return this;
    }

    /** How long one request may take before it ends in an error (default 10 min). */
    public Builder turnTimeout(Duration timeout) {
      this.turnTimeout = positive(timeout, "turnTimeout");
      return this;
    }

    /**
     * How long an agent's {@code event.tool_approval_request} waits for the gateway's
     * {@code ToolApprovalResponse} (default {@link #DEFAULT_APPROVAL_TIMEOUT}, 5 min). Past it the
     * gateway gets {@code TOOL_STATE_TIMEOUT} for the tool and the agent a {@code deny} whose
     * reason starts with {@code TIMEOUT:}; a later answer is refused.
     */
    public Builder approvalTimeout(Duration timeout) {
      this.approvalTimeout = positive(timeout, "approvalTimeout");
      return this;
    }

    /**
     * How long an agent's {@code event.pack_tool_request} waits for the gateway's
     * {@code PackToolResult} (default {@link #DEFAULT_PACK_TOOL_TIMEOUT}, 60 s). Past it the
     * gateway gets {@code TOOL_STATE_TIMEOUT} and the agent an error result starting
     * {@code TIMEOUT:}; a later result is refused.
     */
    public Builder packToolTimeout(Duration timeout) {
      this.packToolTimeout = positive(timeout, "packToolTimeout");
      return this;
    }

    /** After {@code Shutdown}, how long the current request may finish before it is cancelled (default 30 s). */
    public Builder shutdownGrace(Duration grace) {
      this.shutdownGrace = positive(grace, "shutdownGrace");
      return this;
    }

    /** The limits attachments and answers are checked against (default {@link Limits#defaults()}). */
    public Builder limits(Limits limits) {
      this.limits = Objects.requireNonNull(limits, "limits");
      return this;
    }

    public Builder listener(CovenListener listener) {
      this.listener = Objects.requireNonNull(listener, "listener");
      return this;
    }

    /**
     * The agent, not yet started.
     *
     * @throws IllegalStateException when the gateway or the tether side is missing
     * @throws IOException when the TLS CA file cannot be read
     */
    public CovenAgent build() throws IOException {
      if (target == null) {
        throw new IllegalStateException("gateway is required: gateway(\"host:port\")");
      }
      if (client == null) {
        throw new IllegalStateException("the tether side is required: tether(client, instance)");
      }
      ChannelCredentials creds;
      if (Boolean.TRUE.equals(plaintext)) {
        creds = InsecureChannelCredentials.create();
      } else if (caFile != null) {
        creds = TlsChannelCredentials.newBuilder().trustManager(caFile.toFile()).build();
      } else {
        creds = TlsChannelCredentials.create();
      }
      return new CovenAgent(this, creds);
    }

    private static String nonBlank(String value, String name) {
      Objects.requireNonNull(value, name);
      if (value.isBlank()) {
        throw new IllegalArgumentException(name + " must not be blank");
      }
      return value;
    }

    private static Duration positive(Duration d, String name) {
      Objects.requireNonNull(d, name);
      if (d.isNegative() || d.isZero()) {
        throw new IllegalArgumentException(name + " must be > 0 but was " + d);
      }
      return d;
    }

    private static String defaultHostname() {
      String env = System.getenv("HOSTNAME");
      if (env != null && !env.isBlank()) {
        return env;
      }
      try {
        return InetAddress.getLocalHost().getHostName();
      } catch (IOException e) {
        return "";
      }
    }
  }
}
