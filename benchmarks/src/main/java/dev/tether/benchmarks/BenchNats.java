package dev.tether.benchmarks;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * nats-server processes for the JetStream benchmarks: one node, or three routed on loopback, each
 * with JetStream on a random port and its own store directory under {@code dir}. Needs the Debian
 * {@code nats-server} binary.
 */
final class BenchNats implements AutoCloseable {
  private final List<Process> processes = new ArrayList<>();
  private final List<String> urls = new ArrayList<>();

  private BenchNats() {}

  static BenchNats start(Path dir, int nodes) throws IOException {
    BenchNats n = new BenchNats();
    List<Integer> ports = new ArrayList<>();
    List<Integer> cports = new ArrayList<>();
    for (int i = 0; i < nodes; i++) {
      ports.add(freePort());
      cports.add(freePort());
    }
    for (int i = 0; i < nodes; i++) {
      List<String> cmd = new ArrayList<>(List.of("nats-server", "-js", "-a", "127.0.0.1", "-p", ports.get(i).toString(),
          "-sd", dir.resolve("n" + i).toString(), "--server_name", "n" + i));
      if (nodes > 1) {
        StringBuilder routes = new StringBuilder();
        for (int j = 0; j < nodes; j++) {
          if (j != i) {
            routes.append(routes.length() == 0 ? "" : ",").append("nats://127.0.0.1:").append(cports.get(j));
          }
        }
        cmd.addAll(List.of("--cluster_name", "bench", "--cluster", "nats://127.0.0.1:" + cports.get(i), "--routes", routes.toString()));
      }
      n.processes.add(new ProcessBuilder(cmd).redirectErrorStream(true)
          .redirectOutput(dir.resolve("n" + i + ".log").toFile()).start());
      n.urls.add("nats://127.0.0.1:" + ports.get(i));
    }
    for (int port : ports) {
      awaitPort(port);
    }
    return n;
  }

  List<String> urls() {
    return urls;
  }

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    }
  }

  private static void awaitPort(int port) throws IOException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (System.nanoTime() < deadline) {
      try (Socket s = new Socket()) {
        s.connect(new InetSocketAddress("127.0.0.1", port), 200);
        return;
      } catch (IOException notYet) {
        try {
          Thread.sleep(50);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new IOException(e);
        }
      }
    }
    throw new IOException("nats-server did not listen on " + port);
  }

  @Override
  public void close() {
    for (Process p : processes) {
      p.destroy();
    }
    for (Process p : processes) {
      try {
        p.waitFor(10, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      p.destroyForcibly();
    }
  }
}
