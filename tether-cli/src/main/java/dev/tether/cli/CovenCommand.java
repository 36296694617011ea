package dev.tether.cli;

import dev.tether.api.Frame;
import dev.tether.api.LogFields;
import dev.tether.api.files.PrivateFiles;
import dev.tether.client.HostAddress;
import dev.tether.client.http.HttpTetherClient;
import dev.tether.coven.CovenAgent;
import dev.tether.coven.CovenCredentials;
import dev.tether.coven.CovenListener;
import dev.tether.coven.CovenTermination;
import dev.tether.coven.CovenWelcome;
import dev.tether.micrometer.CovenMeters;
import dev.tether.micrometer.TetherMeters;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine;

/**
 * {@code tether coven}: serves the agent of a running {@code tether serve} instance to a coven
 * gateway ({@code coven.CovenControl/AgentStream}), through the host's HTTP API
 * ({@link HttpTetherClient}). Progress goes to stderr, one line per event. Secrets come from
 * files only. Exit status: 0 after the gateway's Shutdown or SIGTERM, 1 for a setup error, 3 when
 * the gateway rejects the registration, 4 when it refuses the credentials.
 */
@Command(name = "coven", mixinStandardHelpOptions = true,
    description = {"Connect a tether agent to a coven gateway.",
        "Messages and images from coven chats reach the agent; its answers (text and images) go back.",
        "Start the host and its agent first: tether serve --with-agent"},
    exitCodeListHeading = "Exit status:%n",
    exitCodeList = {"0:the gateway sent Shutdown, or the command was stopped", "1:a setup error",
        "3:the gateway rejected the registration (RegistrationError)", "4:the gateway refused the credentials"})
final class CovenCommand implements Callable<Integer> {
  static final int REJECTED = 3;
  static final int REFUSED = 4;

  @Option(names = "--gateway", required = true, paramLabel = "HOST:PORT", description = "The coven gateway's gRPC address; HOST alone means port 50051.")
  String gateway;

  @ArgGroup(exclusive = true)
  Transport transport = new Transport();

  static final class Transport {
    @Option(names = "--plaintext", description = "No TLS (a gateway on localhost or a trusted network).")
    boolean plaintext;

    @Option(names = "--tls-ca", paramLabel = "FILE", description = "TLS, trusting the CA certificates in this PEM file. Default: TLS with the system's CAs.")
    Path caFile;
  }

  @ArgGroup(exclusive = true)
  Auth auth = new Auth();

  static final class Auth {
    @Option(names = "--token-file", paramLabel = "FILE", description = "The gateway's bearer token, read from this file.")
    Path tokenFile;

    @Option(names = "--ssh-key", paramLabel = "FILE", description = "An OpenSSH private key (ssh-keygen -t ed25519, no passphrase) the gateway knows.")
    Path sshKey;
  }

  /** {@code --host} and {@code --host-token-file}. */
  @CommandLine.Mixin
  ClientOptions.Bridge hostOptions = new ClientOptions.Bridge();

  @Option(names = "--instance", paramLabel = "NAME", defaultValue = "default", description = "The tether instance whose agent to serve. Default: ${DEFAULT-VALUE}.")
  String instance;

  @Option(names = "--name", paramLabel = "NAME", description = "The agent's name in coven. Default: tether-INSTANCE.")
  String name;

  @Option(names = "--agent-id-file", paramLabel = "FILE",
      description = "Keeps the agent's stable id; created with a new UUID when missing. Default: ~/.tether/coven-agent-id-INSTANCE.")
  Path agentIdFile;

  @Option(names = "--workspace", paramLabel = "TAG", description = "A workspace tag for the gateway (repeatable).")
  List<String> workspaces = List.of();

  @Option(names = "--approval-timeout", paramLabel = "SECONDS", defaultValue = "300",
      description = "How long an agent's tool approval request waits for the gateway's answer before it ends in"
          + " TOOL_STATE_TIMEOUT and the agent is told deny. Default: ${DEFAULT-VALUE}.")
  long approvalTimeoutSeconds = 300;

  @Option(names = "--pack-tool-timeout", paramLabel = "SECONDS", defaultValue = "60",
      description = "How long an agent's pack-tool request waits for the gateway's result. Default: ${DEFAULT-VALUE}.")
  long packToolTimeoutSeconds = 60;

  /** {@code --metrics}: requests, terminal events and reconnects; /ready while registered with the gateway. */
  @CommandLine.Mixin
  MetricsOptions ops = new MetricsOptions();

  @CommandLine.Mixin
  LogOptions logs = new LogOptions();

  @Override
  public Integer call() throws Exception {
    logs.install("coven");
    if (approvalTimeoutSeconds <= 0 || packToolTimeoutSeconds <= 0) {
      throw new UsageException("--approval-timeout and --pack-tool-timeout must be > 0 but were "
          + approvalTimeoutSeconds + " and " + packToolTimeoutSeconds);
    }
    HostAddress address = hostOptions.address();
    CovenCredentials credentials;
    String agentId;
    try {
      credentials = auth.tokenFile != null ? CovenCredentials.bearerTokenFile(auth.tokenFile)
          : auth.sshKey != null ? CovenCredentials.sshKey(auth.sshKey)
          : CovenCredentials.none();
      agentId = agentId(agentIdFile != null ? agentIdFile : Connections.home().resolve(".tether").resolve("coven-agent-id-" + instance));
    } catch (IOException | IllegalArgumentException e) {
      System.err.println("tether coven: " + e.getMessage());
      return 1;
    }
    try (HttpTetherClient client = hostOptions.connect(address, false)) {
      Log log = new Log();
      String target = gateway.indexOf(':') < 0 ? gateway + ":50051" : gateway; // the gateway's default port
      CovenAgent.Builder builder = CovenAgent.builder()
          .gateway(target)
          .credentials(credentials)
          .agentId(agentId)
          .name(name != null ? name : "tether-" + instance)
          .workspaces(workspaces)
          .tether(client, instance)
          .attachments(client) // attachments that are not images become session attachments
          .approvalTimeout(Duration.ofSeconds(approvalTimeoutSeconds))
          .packToolTimeout(Duration.ofSeconds(packToolTimeoutSeconds))
          .listener(log);
      TetherMeters meters = ops.meters(Set.of(instance));
      CovenMeters covenMeters = meters == null ? null : meters.covenListener(log);
      MetricsEndpoint metricsEndpoint = null;
      if (covenMeters != null) {
        builder.listener(covenMeters);
        metricsEndpoint = ops.start("tether coven", false, null, covenMeters::readiness);
      }
      if (transport.plaintext) {
        builder.plaintext();
      } else if (transport.caFile != null) {
        builder.tls(transport.caFile);
      }
      CovenAgent agent;
      try {
        agent = builder.build();
      } catch (IOException | IllegalArgumentException e) { // the CA file: missing, unreadable, not PEM certificates
        if (transport.caFile == null) {
          throw e;
        }
        if (metricsEndpoint != null) {
          metricsEndpoint.close();
        }
        System.err.println("tether coven: --tls-ca " + transport.caFile + ": cannot use it as CA certificates ("
            + CommandFailure.oneLine(CommandFailure.describe(e)) + ")");
        return 1;
      }
      CountDownLatch exited = new CountDownLatch(1);
      Thread hook = new Thread(() -> {
        agent.close();
        try {
          exited.await(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }, "tether-coven-shutdown");
      Runtime.getRuntime().addShutdownHook(hook);
      System.err.println("tether coven: bridging instance " + instance + " on " + address + " to " + target
          + " as " + agentId + " (" + credentials + ")");
      CovenTermination end;
      try {
        end = agent.start().get();
      } finally {
        exited.countDown();
        if (metricsEndpoint != null) {
          metricsEndpoint.close();
        }
      }
      try {
        Runtime.getRuntime().removeShutdownHook(hook);
      } catch (IllegalStateException e) {
        // already shutting down
      }
      return switch (end.reason()) {
        case SHUTDOWN, CLOSED -> 0;
        case REGISTRATION_REJECTED -> REJECTED;
        case REFUSED -> REFUSED;
      };
    }
  }

  /** The id in {@code file}, or a new UUID written there (owner-only) when it does not exist. */
  static String agentId(Path file) throws IOException {
    if (Files.exists(file)) {
      PrivateFiles.restrict(file); // one an earlier version wrote 0644
      String id = Files.readString(file, StandardCharsets.UTF_8).strip();
      if (id.isEmpty() || id.contains("\n")) {
        throw new IllegalArgumentException(file + " must hold one agent id");
      }
      return id;
    }
    Path dir = file.toAbsolutePath().getParent();
    if (dir != null && !Files.isDirectory(dir)) {
      PrivateFiles.createDirectories(dir);
    }
    String id = UUID.randomUUID().toString();
    // 0600 from its creation: Files.writeString would make it 0644 under the usual umask.
    try (SeekableByteChannel ch = Files.newByteChannel(file,
        Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE),
        PrivateFiles.fileAttributes(file))) {
      ByteBuffer bytes = ByteBuffer.wrap((id + "\n").getBytes(StandardCharsets.UTF_8));
      while (bytes.hasRemaining()) {
        ch.write(bytes);
      }
    }
    return id;
  }

  /**
   * One stderr line per event, through {@link CommandLog} (what the gateway sends, ids and reasons,
   * is escaped there); a request's lines carry its {@code msg_id} on the host (from
   * {@link #onForwarded}) as a field, so {@code --log-format json} links them to the host's and the
   * agent's lines of the same ask.
   */
  private final class Log implements CovenListener {
    private final CommandLog asks = CommandLog.named("tether.coven");
    private final Map<String, String> msgIds = new ConcurrentHashMap<>();

    @Override
    public void onConnecting(String target, int attempt) {
      asks.info("tether coven: connecting to " + target + (attempt > 1 ? " (attempt " + attempt + ")" : ""));
    }

    @Override
    public void onRegistered(CovenWelcome w) {
      asks.info("tether coven: registered as " + w.agentId() + " with gateway " + w.serverId()
          + " (instance " + w.instanceId() + ")");
    }

    @Override
    public void onDisconnected(String reason, Duration retryIn) {
      asks.info(String.format(Locale.ROOT, "tether coven: disconnected (%s); reconnecting in %.1f s", reason,
          retryIn.toMillis() / 1000.0));
    }

    @Override
    public void onRequest(String requestId, String threadId, int attachments) {
      asks.info("tether coven: request " + requestId + " in thread " + threadId
          + (attachments == 0 ? "" : " with " + attachments + " attachment" + (attachments == 1 ? "" : "s")));
    }

    @Override
    public void onForwarded(String requestId, Frame frame) {
      frame.msgId().ifPresent(id -> msgIds.put(requestId, id));
      asks.debug("tether coven: request " + requestId + " posted as " + frame.msgId().orElse("(no msg_id)"),
          LogFields.of(instance, frame));
    }

    @Override
    public void onRequestEnded(String requestId, String outcome) {
      String msgId = msgIds.remove(requestId);
      asks.info("tether coven: request " + requestId + " " + outcome,
          LogFields.of("instance", instance, "msg_id", msgId));
    }

    @Override
    public void onWarning(String message) {
      asks.info("tether coven: " + message);
    }

    @Override
    public void onTerminated(CovenTermination t) {
      String what = switch (t.reason()) {
        case SHUTDOWN -> "the gateway asked the agent to leave: " + t.detail();
        case CLOSED -> "stopped";
        case REGISTRATION_REJECTED -> "the gateway rejected the registration: " + t.detail();
        case REFUSED -> "the gateway refused the connection: " + t.detail();
      };
      asks.info("tether coven: " + what);
    }
  }
}
