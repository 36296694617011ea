package dev.tether.server.jetstream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tether.client.FramePage;
import dev.tether.client.HostAddress;
import dev.tether.client.PollRequest;
import dev.tether.client.TetherClient;
import dev.tether.server.SharedStorage;
import dev.tether.server.TetherServer;
import dev.tether.server.testing.Fixtures;
import dev.tether.server.testing.RawHttp;
import dev.tether.store.FrameQuery;
import dev.tether.store.MemoryTetherStore;
import dev.tether.store.Retention;
import dev.tether.store.StoreListener;
import dev.tether.store.jetstream.JetStreamTetherStore;
import dev.tether.store.jetstream.testing.NatsServer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
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

  /**
   * Issue 32: the workspace rules hold across hosts. A workspace registered on A cannot be given to
   * another instance on B, nor one inside or around it (409 CONFLICT, as on one host).
   */
  @Test
  void aWorkspaceTakenOnA_isRefusedOnB_sharedOrNested() throws Exception {
    NatsServer.binary();
    Path root = dir.resolve("ws");
    Files.createDirectories(root.resolve("tenant2"));
    try (NatsServer nats = NatsServer.single(dir.resolve("nats"));
        TetherServer a = TetherServer.builder().listen(new HostAddress.Unix(dir.resolve("a.sock"))).workspaces(root)
            .shared(JetStreamShared.on(nats.url())).start();
        TetherServer b = TetherServer.builder().listen(new HostAddress.Unix(dir.resolve("b.sock"))).workspaces(root)
            .shared(JetStreamShared.on(nats.url())).start();
        RawHttp onA = new RawHttp(a.boundAddress());
        RawHttp onB = new RawHttp(b.boundAddress())) {
      assertEquals(201, put(onA, "tenant2", root.resolve("tenant2")).status());
      RawHttp.Reply shared = put(onB, "tenant3", root.resolve("tenant2"));
      assertEquals(409, shared.status(), shared.body());
      Files.createDirectories(root.resolve("tenant2").resolve("inner"));
      RawHttp.Reply nested = put(onB, "tenant4", root.resolve("tenant2").resolve("inner"));
      assertEquals(409, nested.status(), nested.body());
      RawHttp.Reply around = put(onB, "tenant5", root);
      assertTrue(around.status() == 400 || around.status() == 409, "a root itself, around tenant2: " + around.body());
      Files.createDirectories(root.resolve("tenant6"));
      assertEquals(201, put(onB, "tenant6", root.resolve("tenant6")).status(), "a workspace of its own is fine");
    }
  }

  /**
   * Issue 32: a host's views share one byte budget, the server's store bytes, as its single-host
   * store does; the frames stay in the stream for every host.
   */
  @Test
  void theServersStoreBytes_boundAllOfThisHostsViewsTogether() throws Exception {
    NatsServer.binary();
    long budget = 64 * 1024;
    try (NatsServer nats = NatsServer.single(dir.resolve("nats"));
        SharedStorage.Opened opened = JetStreamShared.on(nats.url())
            .open(new SharedStorage.Limits(Retention.defaults(), 8, budget, StoreListener.NONE))) {
      JetStreamTetherStore store = (JetStreamTetherStore) opened.store();
      String text = "x".repeat(10 * 1024);
      for (int i = 0; i < 12; i++) {
        String instance = "budget" + (i % 3);
        opened.registry().create(instance, null);
        store.append(instance, Fixtures.userMessage("s", text + i));
        store.query(instance, FrameQuery.all()); // a read makes (and catches up) this host's view
        assertTrue(store.viewBytes() <= budget, "after " + (i + 1) + " appends the views hold " + store.viewBytes());
      }
      assertTrue(store.viewBytes() > budget / 2, "the views keep what fits: " + store.viewBytes());
    }
  }

  private static RawHttp.Reply put(RawHttp http, String id, Path workspace) throws Exception {
    return http.send("PUT", "/v1/instances/" + id, "application/json",
        ("{\"workspace\":\"" + workspace + "\"}").getBytes(StandardCharsets.UTF_8));
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
