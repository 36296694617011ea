package dev.tether.store.jetstream;

import dev.tether.store.jetstream.testing.NatsServer;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;

/**
 * The cluster tests' set-up: three nats-server nodes on loopback, and the stores a test connects to
 * them, which {@link #close()} closes before the nodes. One per test; not thread-safe.
 */
final class ThreeNodes implements AutoCloseable {
  final List<NatsServer> nodes;
  private final List<JetStreamTetherStore> stores = new ArrayList<>();

  ThreeNodes(Path dir) {
    NatsServer.binary();
    nodes = NatsServer.cluster(dir, 3);
  }

  /**
   * A store with three replicas and {@code settings} (its servers among them), retried for up to
   * 60 s: the cluster elects its meta leader a few seconds after start, and JetStream answers then.
   */
  JetStreamTetherStore connect(UnaryOperator<JetStreamTetherStore.Builder> settings) throws IOException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (true) {
      try {
        JetStreamTetherStore s = settings.apply(JetStreamTetherStore.builder().replicas(3)).connect();
        stores.add(s);
        return s;
      } catch (IOException e) {
        if (System.nanoTime() > deadline) {
          throw e;
        }
        NatsServer.sleep(250);
      }
    }
  }

  /** Forgets the stores connected so far: the test closed them itself (before restarting nodes). */
  void forgetStores() {
    stores.clear();
  }

  @Override
  public void close() {
    stores.forEach(JetStreamTetherStore::close);
    nodes.forEach(NatsServer::close);
  }
}
