package dev.tether.store.jetstream;

import dev.tether.store.jetstream.testing.NatsServer;
import dev.tether.store.Retention;
import dev.tether.store.TetherStore;
import dev.tether.store.contract.TetherStoreContract;
import java.nio.file.Path;
import java.util.concurrent.Executor;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;

/** The shared contract against {@link JetStreamTetherStore} on a real single-node nats-server. */
class JetStreamTetherStoreContractTest extends TetherStoreContract {
  @TempDir static Path dir;
  static NatsServer server;

  @BeforeAll
  static void startServer() {
    server = NatsServer.single(dir);
  }

  @AfterAll
  static void stopServer() {
    if (server != null) {
      server.close();
    }
  }

  @Override
  protected TetherStore open(Retention retention) throws Exception {
    return JetStreamTetherStore.builder().servers(server.url()).retention(retention).connect();
  }

  @Override
  protected TetherStore openWithExecutor(Retention retention, Executor executor) throws Exception {
    return JetStreamTetherStore.builder().servers(server.url()).retention(retention).executor(executor).connect();
  }
}
