package dev.tether.store.jetstream;

import dev.tether.store.jetstream.testing.NatsServer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;

/**
 * The fixture of the single-node tests: one real nats-server for the class, stores that a test
 * opens closed after it (newest first), unique instance names, and PNG-signed bytes.
 */
abstract class OneNatsServer {
  private static final byte[] PNG = {(byte) 0x89, 'P', 'N', 'G', 0x0D, 0x0A, 0x1A, 0x0A};

  @TempDir static Path dir;
  static NatsServer server;
  final List<AutoCloseable> closeAfter = new ArrayList<>();

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

  @AfterEach
  void closeWhatTheTestOpened() throws Exception {
    for (int i = closeAfter.size() - 1; i >= 0; i--) {
      closeAfter.get(i).close();
    }
  }

  /** A store on its own connection to the server (a host), closed after the test. */
  JetStreamTetherStore store() throws Exception {
    JetStreamTetherStore s = JetStreamTetherStore.builder().servers(server.url()).connect();
    closeAfter.add(s);
    return s;
  }

  static String instance(String name) {
    return name + "-" + Long.toString(System.nanoTime(), 36);
  }

  /** {@code size} random bytes that start with the PNG signature. */
  static byte[] png(int size, long seed) {
    byte[] bytes = new byte[size];
    new Random(seed).nextBytes(bytes);
    System.arraycopy(PNG, 0, bytes, 0, PNG.length);
    return bytes;
  }
}
