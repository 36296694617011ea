package dev.tether.store.jetstream.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/**
 * A real {@code nats-server} (the Debian package) with JetStream on a random loopback port and its
 * own store directory; optionally one node of a cluster whose routes run on loopback. Tests skip
 * with a clear message when the binary is missing, unless {@code CI} is set: then they fail.
 * Published in this module's test-jar for other modules' tests (two {@code tether serve}s).
 */
public final class NatsServer implements AutoCloseable {
  /**
   * A port picked free can be taken by another process before nats-server binds it; a node (or a
   * whole cluster, whose routes name each other's ports) is then started again on fresh ports.
   */
  private static final int START_ATTEMPTS = 3;

  private static final class PortTakenException extends IllegalStateException {
    private static final long serialVersionUID = 1L;

    PortTakenException(String message) {
      super(message);
    }
  }

  private final String name;
  private final Path dir;
  private final int port;
  private final int clusterPort;
  private final List<Integer> routePorts;
  private Process process;

  private NatsServer(String name, Path dir, int port, int clusterPort, List<Integer> routePorts) {
    this.name = name;
    this.dir = dir;
    this.port = port;
    this.clusterPort = clusterPort;
    this.routePorts = routePorts;
  }

  /** The binary, or a skip (a failure in CI) when it is not installed. */
  public static String binary() {
    for (String p : List.of("/usr/sbin/nats-server", "/usr/bin/nats-server", "/usr/local/bin/nats-server")) {
      if (Files.isExecutable(Path.of(p))) {
        return p;
      }
    }
    String message = "nats-server is not installed (apt-get install nats-server); skipping the JetStream tests";
    if (System.getenv("CI") != null) {
      throw new AssertionError(message.replace("skipping", "CI must run"));
    }
    Assumptions.abort(message);
    return null;
  }

  /** A started single node. */
  public static NatsServer single(Path dir) {
    for (int attempt = 1; ; attempt++) {
      NatsServer s = new NatsServer("n1", dir, freePort(), 0, List.of());
      try {
        s.start();
        return s;
      } catch (PortTakenException e) {
        s.close();
        if (attempt == START_ATTEMPTS) {
          throw e;
        }
      }
    }
  }

  /** Three started nodes routed to each other on loopback. */
  public static List<NatsServer> cluster(Path dir, int size) {
    for (int attempt = 1; ; attempt++) {
      List<NatsServer> nodes = clusterOnFreshPorts(dir, size);
      try {
        for (NatsServer n : nodes) {
          n.awaitReady();
        }
        return nodes;
      } catch (PortTakenException e) {
        nodes.forEach(NatsServer::close);
        if (attempt == START_ATTEMPTS) {
          throw e;
        }
      }
    }
  }

  private static List<NatsServer> clusterOnFreshPorts(Path dir, int size) {
    List<Integer> cports = new ArrayList<>();
    for (int i = 0; i < size; i++) {
      cports.add(freePort());
    }
    List<NatsServer> nodes = new ArrayList<>();
    for (int i = 0; i < size; i++) {
      List<Integer> routes = new ArrayList<>(cports);
      routes.remove(i);
      nodes.add(new NatsServer("n" + (i + 1), dir.resolve("n" + (i + 1)), freePort(), cports.get(i), routes));
    }
    for (NatsServer n : nodes) {
      n.spawn();
    }
    return nodes;
  }

  public static int freePort() {
    try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  public String url() {
    return "nats://127.0.0.1:" + port;
  }

  public String name() {
    return name;
  }

  /** The server process's id, for measuring it (RSS in /proc). */
  public long pid() {
    return process.pid();
  }

  public boolean running() {
    return process != null && process.isAlive();
  }

  public void start() {
    spawn();
    awaitReady();
  }

  private void spawn() {
    List<String> cmd = new ArrayList<>(List.of(binary(), "-js", "-a", "127.0.0.1", "-p", Integer.toString(port),
        "-sd", dir.resolve("store").toString(), "--server_name", name));
    if (clusterPort > 0) {
      StringBuilder routes = new StringBuilder();
      for (int p : routePorts) {
        routes.append(routes.length() == 0 ? "" : ",").append("nats://127.0.0.1:").append(p);
      }
      cmd.addAll(List.of("--cluster_name", "tether-test", "--cluster", "nats://127.0.0.1:" + clusterPort,
          "--routes", routes.toString()));
    }
    try {
      Files.createDirectories(dir);
      process = new ProcessBuilder(cmd).redirectErrorStream(true)
          .redirectOutput(ProcessBuilder.Redirect.appendTo(dir.resolve("server.log").toFile())).start();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private void awaitReady() {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (System.nanoTime() < deadline) {
      if (!process.isAlive()) {
        String log = log();
        if (log.contains("address already in use")) {
          throw new PortTakenException("nats-server " + name + " exited: " + log);
        }
        throw new IllegalStateException("nats-server " + name + " exited: " + log);
      }
      try (Socket s = new Socket()) {
        s.connect(new InetSocketAddress("127.0.0.1", port), 200);
        return;
      } catch (IOException notYet) {
        sleep(50);
      }
    }
    throw new IllegalStateException("nats-server " + name + " did not listen within 30 s: " + log());
  }

  /** SIGKILL: no shutdown, no flush. */
  public void kill() {
    process.destroyForcibly();
    try {
      process.waitFor(30, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  public String log() {
    try {
      String all = Files.readString(dir.resolve("server.log"));
      return all.length() > 3000 ? all.substring(all.length() - 3000) : all;
    } catch (IOException e) {
      return "(no log: " + e + ")";
    }
  }

  public static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  @Override
  public void close() {
    if (process != null) {
      process.destroy();
      try {
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
          process.destroyForcibly();
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }
}
