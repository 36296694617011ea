package dev.tether.cli;

import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tether.api.ErrorCode;
import dev.tether.api.Frames;
import dev.tether.api.Image;
import dev.tether.api.MediaType;
import dev.tether.api.SessionKey;
import dev.tether.api.TetherException;
import dev.tether.client.FramePage;
import dev.tether.client.PollRequest;
import dev.tether.llm.McpReadResult;
import dev.tether.store.MemoryTetherStore;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The TetherClient over HTTP, and the MCP tools' read over it, against an in-process server on a real socket. */
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
    server.store().append("vm", Frames.assistantDone(SessionKey.host("s"), receipt.msgId(), "answer", List.of()));
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
  void send_refusedFrame_isTheHostsTetherExceptionWithIndex() throws Exception {
    Image lie = new Image(MediaType.PNG, Fixtures.jpeg(4, 4).data());
    ExecutionException e = assertThrows(ExecutionException.class,
        () -> client.send("vm", Fixtures.userMessage("s", "x", lie)).get(10, TimeUnit.SECONDS));
    TetherException t = (TetherException) e.getCause();
    assertEquals(ErrorCode.MEDIA_TYPE_MISMATCH, t.code());
    assertEquals(0, t.imageIndex().getAsInt());
  }

  @Test
  void cancellingAPoll_endsItAtOnce_andTheServersWaitEndsByItsOwnTimeout() throws Exception {
    // The server does not notice a client that went away while a GET waits (HTTP/1.1 has no read
    // interest then); its wait holds no thread and ends when wait_ms does.
    CompletableFuture<FramePage> read = client.poll("vm", new PollRequest("host", "s", 0, 50, 1500, Set.of(), null));
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


  /** A real HTTP server on 127.0.0.1 that answers every request with {@code status} and the API's JSON error body. */
  private static com.sun.net.httpserver.HttpServer refusing(int status, String code) throws java.io.IOException {
    com.sun.net.httpserver.HttpServer refusing = com.sun.net.httpserver.HttpServer.create(
        new java.net.InetSocketAddress(java.net.InetAddress.getLoopbackAddress(), 0), 0);
    refusing.createContext("/", exchange -> {
      byte[] body = ("{\"error\":{\"code\":\"" + code + "\",\"message\":\"refused\"}}")
          .getBytes(java.nio.charset.StandardCharsets.UTF_8);
      exchange.getRequestBody().readAllBytes();
      exchange.getResponseHeaders().set("Content-Type", "application/json");
      exchange.sendResponseHeaders(status, body.length);
      exchange.getResponseBody().write(body);
      exchange.close();
    });
    refusing.start();
    return refusing;
  }

  @Test
  void hostAnswering4xx_isADefiniteRefusal_notAnUnreachableHost() throws Exception {
    record Expect(int status, String code, ErrorCode expected) {}
    List<Expect> cases = List.of(
        new Expect(400, "BAD_REQUEST", ErrorCode.BAD_REQUEST),
        new Expect(400, "SOMETHING_NEW", ErrorCode.INVALID_ARGUMENT),
        new Expect(401, "UNAUTHORIZED", ErrorCode.UNAUTHORIZED),
        new Expect(403, "FORBIDDEN", ErrorCode.UNAUTHORIZED),
        new Expect(404, "NOT_FOUND", ErrorCode.NOT_FOUND),
        new Expect(404, "INSTANCE_NOT_FOUND", ErrorCode.INSTANCE_NOT_FOUND));
    for (Expect c : cases) {
      com.sun.net.httpserver.HttpServer host = refusing(c.status, c.code);
      try (TetherHttpClient remote = new TetherHttpClient(new Address.Tcp("127.0.0.1", host.getAddress().getPort()), "t")) {
        HttpTetherClient refused = new HttpTetherClient(remote);
        for (CompletableFuture<?> call : List.of(
            refused.poll("vm", PollRequest.channel("host", 0, 0)),
            refused.send("vm", Fixtures.userMessage("s", "hi")))) {
          ExecutionException e = assertThrows(ExecutionException.class, () -> call.get(10, TimeUnit.SECONDS), c.toString());
          TetherException refusal = assertInstanceOf(TetherException.class, e.getCause(), c.toString());
          assertEquals(c.expected, refusal.code(), c.toString());
        }
      } finally {
        host.stop(0);
      }
    }
  }

  @Test
  void read_gapSeenInTheFirstRound_isKeptWhenALaterRoundAnswers() throws Exception {
    Address.Unix address = new Address.Unix(dir.resolve("small.sock"));
    MemoryTetherStore small = MemoryTetherStore.create(dev.tether.store.Retention.builder().maxFrames(2).build());
    try (TetherServer host = TetherServer.start(address, small, null, 16);
        TetherHttpClient remote = new TetherHttpClient(address, null)) {
      HttpTetherClient reader = new HttpTetherClient(remote);
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

  @Test
  void threeUnread27MegabyteAnswers_areReadInOnePage_notRefusedByTheResponseCap() throws Exception {
    for (int i = 0; i < 3; i++) {
      server.store().append("vm", Frames.assistantDone(SessionKey.host("s"), "m-" + i, "z".repeat(27_000_000), List.of()));
    }
    FramePage r = client.poll("vm", PollRequest.channel("host", 0, 0)).get(60, TimeUnit.SECONDS);
    assertEquals(3, r.frames().size());
    assertEquals(3, r.nextSeq());
  }

  @Test
  void poll_answersExactlyAsTheInProcessClient_forEveryFilter() throws Exception {
    dev.tether.store.TetherStore store = server.store();
    store.append("vm", Frames.hostUserMessage("s", "q", List.of()));
    store.append("vm", Frames.assistantDelta(SessionKey.host("s"), "m-1", "part"));
    store.append("vm", Frames.assistantDone(SessionKey.host("s"), "m-1", "for m-1", List.of()));
    store.append("vm", Frames.assistantDone(SessionKey.host("t"), "m-2", "for m-2", List.of()));
    store.append("vm", Frames.assistantDone(new SessionKey("telegram", "42"), "m-3", "telegram", List.of()));
    dev.tether.store.StoreTetherClient inProcess = dev.tether.store.StoreTetherClient.of(store);
    List<PollRequest> polls = List.of(
        new PollRequest(null, null, 0, 50, 0, Set.of(), null),
        new PollRequest("host", null, 0, 50, 0, Set.of(), null),
        new PollRequest(null, "42", 0, 50, 0, Set.of(), null),
        new PollRequest("host", "s", 1, 1, 0, Set.of(), null),
        new PollRequest("host", "s", 0, 50, 0, Set.of("assistant.done"), "m-1"),
        new PollRequest("host", "t", 5, 50, 50, Set.of(), null));
    for (PollRequest poll : polls) {
      FramePage local = inProcess.poll("vm", poll).get(10, TimeUnit.SECONDS);
      FramePage remote = client.poll("vm", poll).get(10, TimeUnit.SECONDS);
      assertEquals(local.frames().stream().map(f -> f.seq()).toList(), remote.frames().stream().map(f -> f.seq()).toList(), poll.toString());
      assertEquals(local.frames(), remote.frames(), poll.toString());
      assertEquals(List.of(local.nextSeq(), local.timedOut(), local.gap(), local.oldestSeq()),
          List.of(remote.nextSeq(), remote.timedOut(), remote.gap(), remote.oldestSeq()), poll.toString());
    }
    assertEquals(5, client.poll("vm", polls.get(0)).get(10, TimeUnit.SECONDS).frames().size(), "null channel and session mean any");
  }

  @Test
  void pageCap_holdsTheLargestPageTheServerCanSend() {
    int maxFrame = dev.tether.api.Limits.defaults().maxFrameBytes();
    assertTrue(TetherHttpClient.maxPageBytes(3, maxFrame) > 3L * maxFrame);
    assertTrue(TetherHttpClient.maxPageBytes(0, maxFrame) > 50L * maxFrame, "the server's default page of 50");
    assertEquals(Integer.MAX_VALUE - 8, TetherHttpClient.maxPageBytes(200, maxFrame), "bounded by what an array holds");
  }
}
