package dev.tether.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tether.api.SessionKey;
import dev.tether.client.FramePage;
import dev.tether.client.HostAddress;
import dev.tether.client.PollRequest;
import dev.tether.client.TetherClient;
import dev.tether.client.TokenFile;
import dev.tether.server.testing.Fixtures;
import dev.tether.server.testing.RawHttp;
import dev.tether.store.MemoryTetherStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The public builder: what an embedder gets, and every rule it enforces on its own. */
class TetherServerBuilderTest {
  private static final String TOKEN = "t".repeat(TokenFile.MIN_BYTES);

  @TempDir Path dir;

  @Test
  void tcpPortZero_isResolved_andEveryRequestNeedsTheToken() throws Exception {
    try (TetherServer server = TetherServer.builder().listen(new HostAddress.Tcp("127.0.0.1", 0)).token(TOKEN)
            .store(MemoryTetherStore.create()).workspaces(dir.resolve("ws")).start();
        RawHttp http = new RawHttp(server.boundAddress())) {
      HostAddress.Tcp bound = (HostAddress.Tcp) server.boundAddress();
      assertNotEquals(0, bound.port());
      assertEquals(401, http.get("/v1/health").status());
      assertEquals(200, http.get("/v1/health", "Bearer " + TOKEN).status());
      RawHttp.Reply sent = http.send("POST", "/v1/instances/default/tether", "application/json",
          Fixtures.wire(Fixtures.userMessage("default", "hi")), "Bearer " + TOKEN);
      assertEquals(202, sent.status(), sent.body());
      assertEquals(404, http.send("POST", "/v1/instances/other/tether", "application/json",
          Fixtures.wire(Fixtures.userMessage("default", "hi")), "Bearer " + TOKEN).status(), "only 'default' is registered");
    }
  }

  @Test
  void maxHeadConnections_failsFastAtStart_whenAboveMaxConnections_whateverTheOrder_andIsPrinted() throws Exception {
    TetherServer.Builder b = TetherServer.builder().listen(new HostAddress.Unix(dir.resolve("t.sock")))
        .store(MemoryTetherStore.create()).workspaces(dir.resolve("ws")).maxHeadConnections(11).maxConnections(10);
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, b::start);
    assertTrue(e.getMessage().contains("maxHeadConnections must be <= maxConnections (10) but was 11"), e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> TetherServer.builder().maxHeadConnections(0));
    try (TetherServer server = b.maxHeadConnections(3).start()) {
      assertTrue(server.describeLimits().contains("connections 10 (3 in their head)"), server.describeLimits());
    }
    try (TetherServer server = TetherServer.builder().listen(new HostAddress.Unix(dir.resolve("u.sock")))
        .store(MemoryTetherStore.create()).workspaces(dir.resolve("ws")).maxConnections(20).start()) {
      assertTrue(server.describeLimits().contains("connections 20 (10 in their head)"), "half by default: " + server.describeLimits());
    }
  }

  @Test
  void unixSocket_isOwnerOnly_andRemovedOnClose_closeIsIdempotent() throws Exception {
    Path socket = dir.resolve("run").resolve("t.sock");
    TetherServer server = TetherServer.builder().listen(new HostAddress.Unix(socket)).store(MemoryTetherStore.create())
        .workspaces(dir.resolve("ws")).instance("vm1").autoCreate(false).start();
    assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(socket)));
    assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(socket.getParent())));
    server.close();
    server.close();
    assertFalse(Files.exists(socket));
  }

  @Test
  void nonLoopbackAddress_isRefusedUnlessAllowed() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> TetherServer.builder()
        .listen(new HostAddress.Tcp("0.0.0.0", 0)).token(TOKEN).store(MemoryTetherStore.create()).start());
    assertTrue(e.getMessage().contains("non-loopback 0.0.0.0:0"), e.getMessage());
    IllegalArgumentException console = assertThrows(IllegalArgumentException.class, () -> TetherServer.builder()
        .listen(new HostAddress.Unix(dir.resolve("c.sock"))).console(new HostAddress.Tcp("0.0.0.0", 0))
        .store(MemoryTetherStore.create()).start());
    assertTrue(console.getMessage().contains("console"), console.getMessage());
  }

  @Test
  void tcpWithoutToken_orWithAShortOne_isRefused() {
    IllegalStateException none = assertThrows(IllegalStateException.class, () -> TetherServer.builder()
        .listen(new HostAddress.Tcp("127.0.0.1", 0)).store(MemoryTetherStore.create()).start());
    assertTrue(none.getMessage().contains("token"), none.getMessage());
    IllegalArgumentException shortToken = assertThrows(IllegalArgumentException.class, () -> TetherServer.builder().token("s3cret"));
    assertTrue(shortToken.getMessage().contains("at least 32 bytes"), shortToken.getMessage());
  }

  @Test
  void tokenFileOpenToOthers_isRefusedWithTheFix() throws Exception {
    Path file = dir.resolve("token");
    Files.writeString(file, TOKEN);
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> TetherServer.builder()
        .listen(new HostAddress.Tcp("127.0.0.1", 0)).tokenFile(file).store(MemoryTetherStore.create()).start());
    assertTrue(e.getMessage().contains("chmod 600"), e.getMessage());
  }

  @Test
  void missingTokenFile_isCreatedOwnerOnly() throws Exception {
    Path file = dir.resolve("new").resolve("token");
    try (TetherServer server = TetherServer.builder().listen(new HostAddress.Tcp("127.0.0.1", 0)).tokenFile(file)
        .store(MemoryTetherStore.create()).workspaces(dir.resolve("ws")).start()) {
      assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)));
      assertEquals(64, Files.readString(file).trim().length());
    }
  }

  @Test
  void badSettingsFailFastNamingThem() {
    assertTrue(assertThrows(IllegalArgumentException.class, () -> TetherServer.builder().maxThreads(2))
        .getMessage().contains("maxThreads"));
    assertTrue(assertThrows(IllegalArgumentException.class, () -> TetherServer.builder().ingressBytes(0))
        .getMessage().contains("ingressBytes"));
    assertTrue(assertThrows(IllegalArgumentException.class, () -> TetherServer.builder().instance("../etc"))
        .getMessage().contains("instance id"));
  }

  @Test
  void noStore_buildsTheBoundedMemoryStoreOfTheBudget_andClosesIt() throws Exception {
    MemoryBudget budget = new MemoryBudget(4L << 20, 1L << 20, 3, 2, 1L << 20, 1L << 20);
    try (TetherServer server = TetherServer.builder().listen(new HostAddress.Unix(dir.resolve("m.sock")))
            .workspaces(dir.resolve("ws")).memoryBudget(budget).autoCreate(true).start();
        TetherClient client = server.localClient()) {
      assertEquals(budget, server.memoryBudget());
      for (int i = 0; i < 5; i++) {
        client.send("a", Fixtures.userMessage("s", "m" + i)).join();
      }
      FramePage page = client.poll("a", PollRequest.channel(SessionKey.HOST_CHANNEL, 0, 0)).join();
      assertEquals(3, page.frames().size(), "the budget's ring frames bound the default store: " + page);
    }
  }

  @Test
  void maxWaitsAlone_cutsThePerInstanceDefault_andTimeoutsAreSetOneByOne() throws Exception {
    try (TetherServer server = TetherServer.builder().listen(new HostAddress.Unix(dir.resolve("w.sock")))
        .workspaces(dir.resolve("ws")).maxWaits(100).requestIdleTimeout(java.time.Duration.ofSeconds(40)).start()) {
      assertTrue(server.describeLimits().contains("waits 100 (100 per instance)"), server.describeLimits());
      assertTrue(server.describeLimits().contains("header timeout 10 s"), server.describeLimits());
      assertTrue(server.describeLimits().contains("request idle timeout 40 s"), server.describeLimits());
    }
    IllegalArgumentException idle = assertThrows(IllegalArgumentException.class, () -> TetherServer.builder()
        .listen(new HostAddress.Unix(dir.resolve("x.sock"))).requestIdleTimeout(java.time.Duration.ofSeconds(5)).start());
    assertTrue(idle.getMessage().contains("requestIdleTimeout"), idle.getMessage());
  }

  @Test
  void consoleUrl_carriesTheTokenInTheFragment() throws Exception {
    String consoleToken = "c".repeat(32);
    try (TetherServer server = TetherServer.builder().listen(new HostAddress.Unix(dir.resolve("s.sock")))
        .store(MemoryTetherStore.create()).workspaces(dir.resolve("ws"))
        .console(new HostAddress.Tcp("127.0.0.1", 0)).consoleToken(consoleToken).start()) {
      int port = server.consoleAddress().orElseThrow().port();
      assertEquals("http://127.0.0.1:" + port + "/#token=" + consoleToken, server.consoleUrl().orElseThrow().toString());
    }
    try (TetherServer noConsole = TetherServer.builder().listen(new HostAddress.Unix(dir.resolve("n.sock")))
        .store(MemoryTetherStore.create()).workspaces(dir.resolve("ws")).start()) {
      assertTrue(noConsole.consoleUrl().isEmpty());
    }
  }
}
