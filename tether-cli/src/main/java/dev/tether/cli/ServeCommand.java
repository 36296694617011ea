package dev.tether.cli;

import dev.tether.store.DurableTetherStore;
import dev.tether.store.MemoryTetherStore;
import dev.tether.store.TetherStore;
import dev.tether.store.jetstream.JetStreamTetherStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code tether serve}: the host daemon. Listens on a Unix domain socket (0600) by default, or on
 * loopback TCP with a bearer token; keeps frames in memory, or in a durable SQLite journal under
 * {@code --data-dir}. Stops gracefully on SIGINT/SIGTERM.
 */
@Command(name = "serve", mixinStandardHelpOptions = true,
    description = {"Run the tether host daemon (HTTP API: POST /v1/instances/{id}/tether, GET .../tether/poll, GET .../tether/stream).",
        "Default socket: $XDG_RUNTIME_DIR/tether.sock, else ~/.tether/tether.sock (mode 0600, directory 0700)."})
final class ServeCommand implements Callable<Integer> {
  @Option(names = "--socket", paramLabel = "PATH", description = "Unix domain socket to listen on (the default listener).")
  Path socket;

  @Option(names = "--listen", paramLabel = "HOST:PORT",
      description = "Listen on TCP instead, loopback only; every request needs the bearer token from --token-file.")
  String listen;

  @Option(names = "--token-file", paramLabel = "FILE",
      description = "Bearer token for --listen; created (0600) with a random token when missing. Default: ~/.tether/token.")
  Path tokenFile;

  @Option(names = "--allow-non-loopback", description = "Allow --listen on an address that is not loopback (exposes the API to the network).")
  boolean allowNonLoopback;

  @Option(names = "--data-dir", paramLabel = "DIR",
      description = "Keep frames in a durable SQLite journal in DIR (seq continues across restarts). Default: in memory.")
  Path dataDir;

  @Option(names = "--with-agent",
      description = "Also run the demo agent in this process, answering instance 'default' through this server"
          + " (what 'tether agent' does; its sessions go to ~/.tether/agent).")
  boolean withAgent;

  @Option(names = "--max-threads", paramLabel = "N", defaultValue = "32",
      description = "HTTP worker threads (long-polls hold none). Default: ${DEFAULT-VALUE}.")
  int maxThreads;

  @Option(names = "--nats", paramLabel = "URL", split = ",",
      description = "Keep instances in NATS JetStream at these servers (nats://host:4222,...), shared with every"
          + " 'tether serve' given the same servers. Replaces --data-dir.")
  java.util.List<String> nats;

  @Option(names = "--nats-creds", paramLabel = "FILE", description = "NATS credentials file (JWT and NKey seed).")
  Path natsCreds;

  @Option(names = "--nats-token-file", paramLabel = "FILE", description = "File holding a NATS server token.")
  Path natsTokenFile;

  @Option(names = "--nats-tls", description = "Connect to NATS with TLS (default trust store; tls:// URLs imply it).")
  boolean natsTls;

  @Option(names = "--nats-replicas", paramLabel = "N",
      description = "Stream replicas of new instances: 1, or 3 on a 3-node cluster. Default: 3 when the servers form a cluster of 3 or more, else 1.")
  Integer natsReplicas;

  @Override
  public Integer call() throws Exception {
    if (nats != null && dataDir != null) {
      System.err.println("tether serve: use either --nats or --data-dir, not both");
      return 2;
    }
    if (socket != null && listen != null) {
      System.err.println("tether serve: use either --socket or --listen, not both");
      return 2;
    }
    Address address;
    String token = null;
    if (listen != null) {
      Address parsed = Address.parse(listen);
      if (!(parsed instanceof Address.Tcp tcp)) {
        System.err.println("tether serve: --listen needs HOST:PORT but was '" + listen + "'");
        return 2;
      }
      if (!tcp.isLoopback() && !allowNonLoopback) {
        System.err.println("tether serve: refusing to listen on non-loopback " + listen
            + "; the API has no TLS. Use 127.0.0.1, or pass --allow-non-loopback if you really mean it.");
        return 2;
      }
      token = Tokens.loadOrCreate(tokenFile == null ? Tokens.defaultFile() : tokenFile);
      address = tcp;
    } else {
      address = socket == null ? Address.defaultSocket() : new Address.Unix(socket);
    }
    TetherStore store = openStore();
    TetherServer server;
    try {
      server = TetherServer.start(address, store, token, Math.max(8, maxThreads));
    } catch (IOException e) {
      store.close();
      System.err.println("tether serve: " + e.getMessage());
      return 1;
    }
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      System.err.println("tether serve: shutting down");
      server.close();
      System.err.println("tether serve: stopped (requests finished, store closed)");
      stopped.countDown();
    }, "tether-shutdown"));
    System.err.println("tether serve: listening on " + server.boundAddress()
        + (nats != null ? " (NATS JetStream at " + String.join(",", nats) + ")"
            : dataDir == null ? " (in-memory store)" : " (journal in " + dataDir + ")"));
    if (withAgent) {
      startDemoAgent(server.boundAddress());
    }
    stopped.await();
    return 0;
  }

  /**
   * Runs {@code tether agent} against this server on a daemon thread, so that one command gives a
   * host with an agent to talk to. The agent talks HTTP to the server like any other client.
   */
  private void startDemoAgent(Address bound) {
    AgentCommand agent = new AgentCommand();
    agent.host = bound instanceof Address.Unix unix ? unix.toString() : "http://" + bound;
    agent.tokenFile = listen == null ? null : (tokenFile == null ? Tokens.defaultFile() : tokenFile);
    agent.instance = "default";
    agent.afterSeq = -1;
    Thread thread = new Thread(() -> {
      try {
        int status = agent.call();
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

  private TetherStore openStore() throws IOException {
    if (nats != null) {
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
      return b.connect();
    }
    if (dataDir == null) {
      return MemoryTetherStore.create();
    }
    if (!Files.isDirectory(dataDir)) {
      Files.createDirectories(dataDir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
    }
    return DurableTetherStore.open(dataDir.resolve("journal.db"));
  }
}
