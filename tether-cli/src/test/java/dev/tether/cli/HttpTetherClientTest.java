package dev.tether.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tether.api.ErrorCode;
import dev.tether.api.Frames;
import dev.tether.api.Image;
import dev.tether.api.MediaType;
import dev.tether.api.SessionKey;
import dev.tether.api.TetherException;
import dev.tether.mcp.ReadRequest;
import dev.tether.mcp.ReadResult;
import dev.tether.store.MemoryTetherStore;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The MCP tools' remote client against an in-process server on a real socket. */
class HttpTetherClientTest {
  @TempDir Path dir;
  private TetherServer server;
  private TetherHttpClient http;
  private HttpTetherClient client;

  @BeforeEach
  void start() throws Exception {
    Address.Unix address = new Address.Unix(dir.resolve("t.sock"));
    server = TetherServer.start(address, MemoryTetherStore.create(), null, 16);
    http = new TetherHttpClient(address, null);
    client = new HttpTetherClient(http);
  }

  @AfterEach
  void stop() {
    http.close();
    server.close();
  }

  @Test
  void read_waitsPastTheSessionsOwnMessages_forTheAgentsAnswer() throws Exception {
    var receipt = client.send("vm", Fixtures.userMessage("s", "first")).get(10, TimeUnit.SECONDS);
    assertEquals(1, receipt.ingressSeq());
    CompletableFuture<ReadResult> read = client.read("vm", new ReadRequest("s", 0, 50, 30_000, List.of(), Optional.empty()));
    // Only our own message so far: the read must keep waiting, not return it.
    client.send("vm", Fixtures.userMessage("s", "second")).get(10, TimeUnit.SECONDS);
    server.store().append("vm", Frames.assistantDone(SessionKey.host("s"), receipt.msgId(), "answer", List.of()));
    ReadResult r = read.get(20, TimeUnit.SECONDS);
    assertEquals(1, r.frames().size(), r.toString());
    assertEquals("assistant.done", r.frames().get(0).type());
    assertEquals(3, r.nextSeq());
  }

  @Test
  void read_withoutWait_returnsOnlyEgressAndAdvancesPastOwnMessages() throws Exception {
    client.send("vm", Fixtures.userMessage("s", "mine")).get(10, TimeUnit.SECONDS);
    ReadResult r = client.read("vm", new ReadRequest("s", 0, 50, 0, List.of(), Optional.empty()))
        .get(10, TimeUnit.SECONDS);
    assertTrue(r.frames().isEmpty());
    assertEquals(1, r.nextSeq());
  }

  @Test
  void send_refusedFrame_isTheHostsTetherExceptionWithIndex() throws Exception {
    Image lie = new Image(MediaType.PNG, Fixtures.jpeg(4, 4).data());
    ExecutionException e = assertThrows(ExecutionException.class,
        () -> client.send("vm", Fixtures.userMessage("s", "x", lie)).get(10, TimeUnit.SECONDS));
    TetherException t = (TetherException) e.getCause();
    assertEquals(ErrorCode.MEDIA_TYPE_MISMATCH, t.code());
    assertEquals(0, t.imageIndex().getAsInt());
  }

  @Test
  void cancellingARead_endsItAtOnce_andTheServersWaitEndsByItsOwnTimeout() throws Exception {
    // The server does not notice a client that went away while a GET waits (HTTP/1.1 has no read
    // interest then); its wait holds no thread and ends when wait_ms does.
    CompletableFuture<ReadResult> read = client.read("vm", new ReadRequest("s", 0, 50, 1500, List.of(), Optional.empty()));
    for (int i = 0; i < 2000 && server.handler().waitsInProgress() == 0; i++) {
      Thread.sleep(5);
    }
    assertEquals(1, server.handler().waitsInProgress());
    assertTrue(read.cancel(false));
    assertTrue(read.isCancelled());
    for (int i = 0; i < 2000 && server.handler().waitsInProgress() > 0; i++) {
      Thread.sleep(5);
    }
    assertEquals(0, server.handler().waitsInProgress());
    try (RawHttp h = new RawHttp(new Address.Unix(dir.resolve("t.sock")))) {
      assertEquals(200, h.get("/v1/health").status());
    }
  }

}
