package dev.tether.store.jetstream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tether.api.Frame;
import dev.tether.api.RawJson;
import dev.tether.api.SessionKey;
import dev.tether.store.FrameQuery;
import dev.tether.store.jetstream.testing.NatsServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Opening the store and the registry: a server without JetStream, and a cluster still forming. */
class StartupTest {
  @TempDir Path dir;

  @Test
  void connect_toAServerWithoutJetStream_failsWithAMessageThatSaysSo() throws Exception {
    int port = NatsServer.freePort();
    Process plain = new ProcessBuilder(NatsServer.binary(), "-a", "127.0.0.1", "-p", Integer.toString(port))
        .redirectErrorStream(true).redirectOutput(dir.resolve("plain.log").toFile()).start();
    try {
      awaitListening(port);
      IOException e = assertThrows(IOException.class,
          () -> JetStreamTetherStore.builder().servers("nats://127.0.0.1:" + port).openTimeout(Duration.ofSeconds(30)).connect());
      assertTrue(e.getMessage().contains("JetStream is not enabled"), e.getMessage());
      assertTrue(e.getMessage().contains("-js"), "says how to fix it: " + e.getMessage());
    } finally {
      plain.destroyForcibly().waitFor();
    }
  }

  /**
   * Hosts started together with their cluster (a compose file, a restart of everything): the
   * store and the registry open once the cluster has formed, instead of failing with 10005 "no
   * suitable peers for placement" or a timeout while it has not.
   */
  @Test
  @Tag("cluster")
  void storeAndRegistry_openedTheMomentAClusterStarts_waitUntilItHasFormed() throws Exception {
    List<NatsServer> nodes = NatsServer.cluster(dir, 3);
    try (JetStreamTetherStore store = JetStreamTetherStore.builder().servers(nodes.get(0).url()).replicas(3).connect();
        JetStreamRegistry registry = JetStreamRegistry.builder().store(store).open()) {
      assertTrue(registry.create("formed", null, Map.of()).created());
      long seq = store.append("formed", Frame.builder("user.message").version(1).session(SessionKey.host("s"))
          .payload(RawJson.of("{\"text\":\"hi\"}")).build());
      assertEquals(seq, store.query("formed", FrameQuery.builder().afterSeq(0).build()).frames().get(0).seq());
    } finally {
      nodes.forEach(NatsServer::close);
    }
  }

  private static void awaitListening(int port) throws InterruptedException {
    for (int i = 0; i < 300; i++) {
      try (Socket s = new Socket()) {
        s.connect(new InetSocketAddress("127.0.0.1", port), 200);
        return;
      } catch (IOException notYet) {
        Thread.sleep(50);
      }
    }
    throw new AssertionError("nats-server did not listen on " + port);
  }
}
