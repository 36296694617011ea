package dev.tether.cli;

import dev.tether.server.testing.Fixtures;
import dev.tether.client.HostAddress;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tether.api.Frames;
import dev.tether.api.SessionKey;
import dev.tether.llm.McpReadResult;
import dev.tether.client.http.HttpTetherClient;
import dev.tether.server.TetherServer;
import dev.tether.store.MemoryTetherStore;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The MCP tools' read over the HTTP client, against an embedded server on a real socket. */
class McpOverHttpTest {
  @TempDir Path dir;
  private MemoryTetherStore store;
  private TetherServer server;
  private HttpTetherClient client;

  @BeforeEach
  void start() throws Exception {
    HostAddress.Unix address = new HostAddress.Unix(dir.resolve("t.sock"));
    store = MemoryTetherStore.create();
    server = TetherServer.builder().listen(address).store(store).autoCreate(true).workspaces(dir.resolve("ws")).start();
    client = HttpTetherClient.builder(address).build();
  }

  @AfterEach
  void stop() {
    client.close();
    server.close();
  }

  @Test
  void read_waitsPastTheSessionsOwnMessages_forTheAgentsAnswer() throws Exception {
    var receipt = client.send("vm", Fixtures.userMessage("s", "first")).get(10, TimeUnit.SECONDS);
    assertEquals(1, receipt.ingressSeq());
    CompletableFuture<CallToolResult> read = McpReads.call(client, Map.of("instance", "vm", "session_id", "s", "wait_ms", 30_000));
    // Only our own message so far: the read must keep waiting, not return it.
    client.send("vm", Fixtures.userMessage("s", "second")).get(10, TimeUnit.SECONDS);
    store.append("vm", Frames.assistantDone(SessionKey.host("s"), receipt.msgId(), "answer", List.of()));
    McpReadResult r = McpReads.parsed(read.get(20, TimeUnit.SECONDS));
    assertEquals(1, r.frames().size(), r.toString());
    assertEquals("assistant.done", r.frames().get(0).type());
    assertEquals(3, r.nextSeq());
  }

  @Test
  void read_withoutWait_returnsOnlyEgressAndAdvancesPastOwnMessages() throws Exception {
    client.send("vm", Fixtures.userMessage("s", "mine")).get(10, TimeUnit.SECONDS);
    McpReadResult r = McpReads.parsed(McpReads.call(client, Map.of("instance", "vm", "session_id", "s")).get(10, TimeUnit.SECONDS));
    assertTrue(r.frames().isEmpty());
    assertEquals(1, r.nextSeq());
  }

  @Test
  void read_gapSeenInTheFirstRound_isKeptWhenALaterRoundAnswers() throws Exception {
    HostAddress.Unix address = new HostAddress.Unix(dir.resolve("small.sock"));
    MemoryTetherStore small = MemoryTetherStore.create(dev.tether.store.Retention.builder().maxFrames(2).build());
    try (TetherServer host = TetherServer.builder().listen(address).store(small).autoCreate(true).workspaces(dir.resolve("ws")).start();
        HttpTetherClient reader = HttpTetherClient.builder(address).build()) {
      for (int i = 1; i <= 3; i++) {
        reader.send("vm", Fixtures.userMessage("s", "q" + i)).get(10, TimeUnit.SECONDS);
      }
      CompletableFuture<CallToolResult> read = McpReads.call(reader, Map.of("instance", "vm", "session_id", "s", "wait_ms", 30_000));
      Thread.sleep(200);
      small.append("vm", Frames.assistantDone(SessionKey.host("s"), "host-1", "answer", List.of()));
      McpReadResult r = McpReads.parsed(read.get(20, TimeUnit.SECONDS));
      assertEquals(1, r.frames().size(), r.toString());
      assertTrue(r.gap(), "a later round overwrote the gap: " + r);
      assertEquals(2, r.oldestSeq());
    }
  }
}
