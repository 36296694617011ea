package dev.tether.server.jetstream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tether.client.FramePage;
import dev.tether.client.HostAddress;
import dev.tether.client.PollRequest;
import dev.tether.client.TetherClient;
import dev.tether.server.TetherServer;
import dev.tether.server.testing.Fixtures;
import dev.tether.store.MemoryTetherStore;
import dev.tether.store.jetstream.testing.NatsServer;
import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Two embedded servers given {@code JetStreamShared.on} the same NATS server share instances and frames. */
class JetStreamSharedTest {
  @TempDir Path dir;

  @Test
  void twoEmbeddedServers_shareTheRegistryAndTheFrames() throws Exception {
    NatsServer.binary();
    try (NatsServer nats = NatsServer.single(dir.resolve("nats"));
        TetherServer a = TetherServer.builder().listen(new HostAddress.Unix(dir.resolve("a.sock"))).workspaces(dir.resolve("ws-a"))
            .instance("shared1").shared(JetStreamShared.on(nats.url())).start();
        TetherServer b = TetherServer.builder().listen(new HostAddress.Unix(dir.resolve("b.sock"))).workspaces(dir.resolve("ws-b"))
            .shared(JetStreamShared.on(nats.url())).start();
        TetherClient onA = a.localClient();
        TetherClient onB = b.localClient()) {
      onA.send("shared1", Fixtures.userMessage("s", "hello from A")).get(30, TimeUnit.SECONDS);
      FramePage page = onB.poll("shared1", new PollRequest(null, null, 0, 10, 0, Set.of(), null)).get(30, TimeUnit.SECONDS);
      assertEquals(1, page.frames().size(), "registered by A only, and its frame read on B");
    }
  }

  @Test
  void sharedWithAStoreOfItsOwn_isRefusedBeforeAnythingConnects() {
    TetherServer.Builder b = TetherServer.builder().listen(new HostAddress.Unix(dir.resolve("x.sock")))
        .store(MemoryTetherStore.create()).shared(limits -> {
          throw new AssertionError("must not connect");
        });
    IllegalStateException e = assertThrows(IllegalStateException.class, b::start);
    assertTrue(e.getMessage().contains("shared(...)"), e.getMessage());
  }
}
