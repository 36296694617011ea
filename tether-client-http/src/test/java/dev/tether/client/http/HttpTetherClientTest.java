package dev.tether.client.http;

import dev.tether.server.testing.RawHttp;
import dev.tether.server.testing.Fixtures;
import dev.tether.client.HostAddress;

import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
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
import dev.tether.server.TetherServer;
import dev.tether.store.FrameQuery;
import dev.tether.store.MemoryTetherStore;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The TetherClient over HTTP against an embedded server on a real socket. */
class HttpTetherClientTest {
  @TempDir Path dir;
  private MemoryTetherStore store;
  private TetherServer server;
  private HttpTransport http;
  private HttpTetherClient client;

  @BeforeEach
  void start() throws Exception {
    HostAddress.Unix address = new HostAddress.Unix(dir.resolve("t.sock"));
    store = MemoryTetherStore.create();
    server = TetherServer.builder().listen(address).store(store).autoCreate(true).workspaces(dir.resolve("ws")).start();
    http = new HttpTransport(address, null);
    client = new HttpTetherClient(http);
  }

  @AfterEach
  void stop() {
    client.close();
    server.close();
  }

  @Test
  void theHttpClientStartsWithTheFirstRequest_andARequestAfterCloseFails() throws Exception {
    Set<Long> before = clientThreads();
    HttpTetherClient lazy = new HttpTetherClient(new HttpTransport(new HostAddress.Unix(dir.resolve("t.sock")), null));
    assertEquals(Set.of(), newSince(before), "a client that has sent nothing runs no thread");
    lazy.send("vm", Fixtures.userMessage("s", "hi")).get(10, TimeUnit.SECONDS);
    assertFalse(newSince(before).isEmpty(), "the first request started the client's threads");
    lazy.close();
    ExecutionException e = assertThrows(ExecutionException.class,
        () -> lazy.send("vm", Fixtures.userMessage("s", "late")).get(10, TimeUnit.SECONDS));
    assertTrue(e.getCause() != null, "a request after close fails");
    assertEquals(1, store.query("vm", FrameQuery.session(SessionKey.host("s"), 0)).frames().size(),
        "only the request before close reached the host");
  }

  @Test
  void aClientClosedBeforeItsFirstRequest_startsNothing_andFailsItsRequests() {
    Set<Long> before = clientThreads();
    HttpTetherClient closed = new HttpTetherClient(new HttpTransport(new HostAddress.Unix(dir.resolve("t.sock")), null));
    closed.close();
    assertThrows(ExecutionException.class,
        () -> closed.send("vm", Fixtures.userMessage("s", "late")).get(10, TimeUnit.SECONDS));
    assertEquals(Set.of(), newSince(before), "nothing was started");
    assertEquals(0, store.query("vm", FrameQuery.session(SessionKey.host("s"), 0)).frames().size());
  }

  /** The live threads of HTTP clients ({@code tether-client} pools), by id. */
  private static Set<Long> clientThreads() {
    Set<Long> ids = new HashSet<>();
    for (Thread t : Thread.getAllStackTraces().keySet()) {
      if (t.getName().startsWith("tether-client")) {
        ids.add(t.getId());
      }
    }
    return ids;
  }

  private static Set<Long> newSince(Set<Long> before) {
    Set<Long> now = clientThreads();
    now.removeAll(before);
    return now;
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
    for (int i = 0; i < 2000 && waitsHeld() == 0; i++) {
      Thread.sleep(5);
    }
    assertEquals(1, waitsHeld());
    assertTrue(read.cancel(false));
    assertTrue(read.isCancelled());
    for (int i = 0; i < 2000 && waitsHeld() > 0; i++) {
      Thread.sleep(5);
    }
    assertEquals(0, waitsHeld());
    try (RawHttp h = new RawHttp(new HostAddress.Unix(dir.resolve("t.sock")))) {
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
      try (HttpTransport remote = new HttpTransport(new HostAddress.Tcp("127.0.0.1", host.getAddress().getPort()), "t")) {
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
  void threeUnread27MegabyteAnswers_areReadInOnePage_notRefusedByTheResponseCap() throws Exception {
    for (int i = 0; i < 3; i++) {
      store.append("vm", Frames.assistantDone(SessionKey.host("s"), "m-" + i, "z".repeat(27_000_000), List.of()));
    }
    FramePage r = client.poll("vm", PollRequest.channel("host", 0, 0)).get(60, TimeUnit.SECONDS);
    assertEquals(3, r.frames().size());
    assertEquals(3, r.nextSeq());
  }

  @Test
  void poll_answersExactlyAsTheInProcessClient_forEveryFilter() throws Exception {
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
    assertTrue(HttpTransport.maxPageBytes(3, maxFrame) > 3L * maxFrame);
    assertTrue(HttpTransport.maxPageBytes(0, maxFrame) > 50L * maxFrame, "the server's default page of 50");
    assertEquals(Integer.MAX_VALUE - 8, HttpTransport.maxPageBytes(200, maxFrame), "bounded by what an array holds");
  }

  private int waitsHeld() throws Exception {
    return http.waitsHeld().get(10, TimeUnit.SECONDS);
  }
}
