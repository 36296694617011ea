package dev.tether.server.internal;

import dev.tether.server.testing.StreamReader;
import dev.tether.server.testing.RawSocket;
import dev.tether.server.testing.RawHttp;
import dev.tether.server.testing.Fixtures;
import dev.tether.client.HostAddress;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tether.api.Frame;
import dev.tether.api.Frames;
import dev.tether.api.Image;
import dev.tether.api.Limits;
import dev.tether.api.MediaType;
import dev.tether.api.SessionKey;
import dev.tether.images.FrameValidator;
import dev.tether.store.MemoryTetherStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The HTTP API in-process, on a real Unix domain socket. */
class TetherServerTest {
  private static final int SMALL_LIMIT = 64 * 1024;
  private static final String BASE = "/v1/instances/vm1/tether";

  @TempDir Path dir;
  private Daemon server;
  private RawHttp http;
  private HostAddress.Unix address;

  @BeforeEach
  void start() throws Exception {
    address = new HostAddress.Unix(dir.resolve("run/tether.sock"));
    FrameValidator validator = FrameValidator.withLimits(Limits.builder().maxFrameBytes(SMALL_LIMIT).build());
    server = Daemon.start(address, MemoryTetherStore.create(), validator, null, 16);
    http = new RawHttp(address);
  }

  @AfterEach
  void stop() throws Exception {
    http.close();
    server.close();
  }

  @Test
  void post_validFrame_returnsMsgIdSessionAndSeq() throws Exception {
    Frame f = Fixtures.userMessage("s1", "hello", Fixtures.png(4, 3));
    RawHttp.Reply r = http.post(BASE, Fixtures.wire(f));
    assertEquals(202, r.status(), r.body());
    JsonNode n = r.json();
    assertEquals(f.msgId().orElseThrow(), n.get("msg_id").asText());
    assertEquals("s1", n.get("session_id").asText());
    assertEquals(1, n.get("ingress_seq").asLong());
    assertEquals(2, http.post(BASE, Fixtures.wire(f)).json().get("ingress_seq").asLong());
    assertEquals(2, server.store().lastSeq("vm1"));
  }

  @Test
  void post_frameWithoutMsgIdOrSession_getsHostIdAndDefaultSession() throws Exception {
    RawHttp.Reply r = http.post(BASE, Fixtures.utf8("{\"v\":1,\"type\":\"user.message\",\"payload\":{\"text\":\"hi\"}}"));
    assertEquals(202, r.status(), r.body());
    assertTrue(r.json().get("msg_id").asText().startsWith("host-"), r.body());
    assertEquals("default", r.json().get("session_id").asText());
    Frame stored = server.store().query("vm1", dev.tether.store.FrameQuery.all()).frames().get(0);
    assertEquals(SessionKey.host("default"), stored.session().orElseThrow());
    assertEquals(r.json().get("msg_id").asText(), stored.msgId().orElseThrow());
  }

  @Test
  void post_declaredTypeNotMatchingBytes_400WithCodeAndImageIndex() throws Exception {
    Image jpegCalledPng = new Image(MediaType.PNG, Fixtures.jpeg(8, 8).data());
    Frame f = Fixtures.userMessage("s1", "look", Fixtures.png(2, 2), jpegCalledPng);
    RawHttp.Reply r = http.post(BASE, Fixtures.wire(f));
    assertEquals(400, r.status());
    assertEquals("MEDIA_TYPE_MISMATCH", r.errorCode());
    assertEquals(1, r.json().path("error").path("image_index").asInt());
    assertFalse(r.json().path("error").path("message").asText().isEmpty());
    assertEquals(0, server.store().lastSeq("vm1"), "a rejected frame is not stored");
  }

  @Test
  void post_hostileBodies_400MalformedAndNothingStored() throws Exception {
    for (String body : List.of("", "not json", "[1,2]", "{\"v\":1,\"type\":5}", "{\"v\":1,\"type\":\"user.message\",\"payload\":{}}",
        "{\"v\":1,\"type\":\"assistant.delta\",\"payload\":{\"text\":\"x\",\"images\":[]}}", "{\"v\":1,\"type\":\"user.message\"")) {
      RawHttp.Reply r = http.post(BASE, Fixtures.utf8(body));
      assertEquals(400, r.status(), body + " -> " + r.body());
      assertTrue(Set.of("MALFORMED_FRAME", "IMAGES_NOT_ALLOWED").contains(r.errorCode()), body + " -> " + r.body());
    }
    assertEquals(0, server.store().lastSeq("vm1"));
  }

  @Test
  void post_contentLengthOverLimit_413WithCode() throws Exception {
    byte[] body = new byte[SMALL_LIMIT + 1];
    java.util.Arrays.fill(body, (byte) ' ');
    RawHttp.Reply r = http.post(BASE, body);
    assertEquals(413, r.status());
    assertEquals("FRAME_TOO_LARGE", r.errorCode());
  }

  @Test
  void post_bodyExactlyAtLimit_isRead() throws Exception {
    String json = "{\"v\":1,\"type\":\"user.message\",\"payload\":{\"text\":\"x\"}}";
    byte[] body = new byte[SMALL_LIMIT];
    java.util.Arrays.fill(body, (byte) ' ');
    System.arraycopy(Fixtures.utf8(json), 0, body, 0, json.length());
    assertEquals(202, http.post(BASE, body).status());
  }

  @Test
  void post_chunkedBodyOverLimit_413WhileStreaming_andServerKeepsServing() throws Exception {
    byte[] head = Fixtures.utf8("{\"v\":1,\"type\":\"user.message\",\"payload\":{\"text\":\"");
    RawHttp.Reply r = http.postChunked(BASE, head, 3L * SMALL_LIMIT / 2, (byte) 'a');
    assertEquals(413, r.status(), r.body());
    assertEquals("FRAME_TOO_LARGE", r.errorCode());
    assertEquals(0, server.store().lastSeq("vm1"));
    assertEquals(202, http.post(BASE, Fixtures.wire(Fixtures.userMessage("s", "still here"))).status());
  }

  @Test
  void post_chunkedBodyFarOverLimit_connectionIsClosed_andServerKeepsServing() throws Exception {
    byte[] head = Fixtures.utf8("{\"v\":1,\"type\":\"user.message\",\"payload\":{\"text\":\"");
    try {
      RawHttp.Reply r = http.postChunked(BASE, head, 40L * SMALL_LIMIT, (byte) 'a');
      assertEquals(413, r.status(), r.body()); // when the client read the answer before the close
    } catch (java.util.concurrent.ExecutionException e) {
      assertTrue(e.getCause() instanceof IOException, e.toString());
    }
    assertEquals(0, server.store().lastSeq("vm1"));
    assertEquals(202, http.post(BASE, Fixtures.wire(Fixtures.userMessage("s", "still here"))).status());
  }

  @Test
  void poll_withoutChannelOrSession_matchesAny_asTheReferenceDaemon() throws Exception {
    http.post(BASE, Fixtures.wire(Fixtures.userMessage("other", "no")));
    http.post(BASE, Fixtures.wire(Frames.userMessage(new SessionKey("telegram", "default"), "t-1", "no", List.of(), null)));
    http.post(BASE, Fixtures.wire(Fixtures.userMessage("default", "yes")));
    assertEquals(3, http.get(BASE + "/poll").json().get("frames").size(), "absent filters match any");
    JsonNode page = http.get(BASE + "/poll?channel=host&session_id=default").json();
    assertEquals(1, page.get("frames").size(), page.toString());
    assertEquals("yes", page.get("frames").get(0).path("payload").path("text").asText());
    assertEquals(3, page.get("frames").get(0).get("seq").asLong());
    assertEquals(3, page.get("next_seq").asLong());
    assertFalse(page.get("timed_out").asBoolean());
    JsonNode any = http.get(BASE + "/poll?channel=*&session_id=*").json();
    assertEquals(3, any.get("frames").size());
    JsonNode telegram = http.get(BASE + "/poll?channel=telegram").json();
    assertEquals("t-1", telegram.get("frames").get(0).get("msg_id").asText());
  }

  @Test
  void poll_typesCommaSeparatedAndRepeated_replyToAndLimit() throws Exception {
    SessionKey s = SessionKey.host("default");
    for (Frame f : List.of(Frames.presence(s, "m1", "thinking"), Frames.assistantDelta(s, "m1", "a"),
        Frames.assistantDelta(s, "m2", "b"), Frames.assistantDone(s, "m1", "ab", List.of()),
        Frames.assistantDone(s, "m2", "b", List.of()))) {
      assertEquals(202, http.post(BASE, Fixtures.wire(f)).status());
    }
    assertEquals(List.of(2L, 3L, 4L, 5L), seqs(http.get(BASE + "/poll?types=assistant.delta,assistant.done").json()));
    assertEquals(List.of(1L, 4L, 5L), seqs(http.get(BASE + "/poll?types=status.presence&types=assistant.done").json()));
    assertEquals(List.of(1L, 2L, 4L), seqs(http.get(BASE + "/poll?reply_to_msg_id=m1").json()));
    JsonNode limited = http.get(BASE + "/poll?limit=2&after_seq=1").json();
    assertEquals(List.of(2L, 3L), seqs(limited));
    assertEquals(3, limited.get("next_seq").asLong());
    assertEquals(5, seqs(http.get(BASE + "/poll?limit=-7").json()).size(), "0 or negative means the default, 50");
    assertEquals(5, seqs(http.get(BASE + "/poll?limit=0").json()).size());
  }

  @Test
  void poll_badNumbers_400InvalidParameterNamingIt() throws Exception {
    for (String q : List.of("after_seq=x", "after_seq=-1", "limit=ten", "wait_ms=1e3")) {
      RawHttp.Reply r = http.get(BASE + "/poll?" + q);
      assertEquals(400, r.status(), q);
      assertEquals("INVALID_ARGUMENT", r.errorCode());
      assertTrue(r.json().path("error").path("message").asText().contains(q.substring(0, q.indexOf('='))), r.body());
    }
  }

  @Test
  void poll_longPollIsAnsweredByALaterFrame() throws Exception {
    CompletableFuture<RawHttp.Reply> poll = async(() -> http.get(BASE + "/poll?after_seq=0&wait_ms=30000&types=assistant.done"));
    awaitWaits(1);
    assertFalse(poll.isDone());
    http.post(BASE, Fixtures.wire(Frames.assistantDelta(SessionKey.host("default"), "m", "not this")));
    http.post(BASE, Fixtures.wire(Frames.assistantDone(SessionKey.host("default"), "m", "this", List.of())));
    JsonNode page = poll.get(20, TimeUnit.SECONDS).json();
    assertFalse(page.get("timed_out").asBoolean());
    assertEquals(1, page.get("frames").size());
    assertEquals("assistant.done", page.get("frames").get(0).get("type").asText());
    assertEquals(2, page.get("next_seq").asLong());
  }

  @Test
  void poll_waitWithoutFrames_timesOutKeepingTheCursor() throws Exception {
    http.post(BASE, Fixtures.wire(Fixtures.userMessage("default", "x")));
    JsonNode page = http.get(BASE + "/poll?after_seq=1&wait_ms=1").json();
    assertTrue(page.get("timed_out").asBoolean());
    assertEquals(0, page.get("frames").size());
    assertEquals(1, page.get("next_seq").asLong());
  }

  @Test
  void shutdown_answersPollsInProgressInsteadOfCuttingThem() throws Exception {
    List<CompletableFuture<RawHttp.Reply>> polls = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      polls.add(async(() -> http.get(BASE + "/poll?after_seq=7&wait_ms=30000")));
    }
    awaitWaits(5);
    server.close();
    for (CompletableFuture<RawHttp.Reply> p : polls) {
      JsonNode page = p.get(20, TimeUnit.SECONDS).json();
      assertTrue(page.get("timed_out").asBoolean());
      assertEquals(7, page.get("next_seq").asLong());
    }
    assertFalse(Files.exists(address.path()), "the socket file is removed");
  }

  @Test
  void stream_sendsNdjsonOfNewFramesAndResumesFromAfterSeq() throws Exception {
    for (int i = 1; i <= 3; i++) {
      http.post(BASE, Fixtures.wire(Fixtures.userMessage("s" + i, "m" + i)));
    }
    try (var lines = new StreamReader(address, BASE + "/stream?after_seq=1")) {
      assertEquals(2, lines.nextFrame().get("seq").asLong());
      assertEquals(3, lines.nextFrame().get("seq").asLong());
      http.post(BASE, Fixtures.wire(Fixtures.userMessage("s4", "m4")));
      JsonNode live = lines.nextFrame();
      assertEquals(4, live.get("seq").asLong());
      assertEquals("m4", live.path("payload").path("text").asText());
    }
  }

  @Test
  void stream_endsCleanlyWhenTheServerShutsDown() throws Exception {
    try (var lines = new StreamReader(address, BASE + "/stream?after_seq=0")) {
      http.post(BASE, Fixtures.wire(Fixtures.userMessage("s", "one")));
      assertEquals(1, lines.nextFrame().get("seq").asLong());
      server.close();
      assertThrows(IllegalStateException.class, lines::nextFrame, "the stream ends instead of hanging");
    }
  }

  @Test
  void unknownPathsAndMethods_jsonErrors() throws Exception {
    RawHttp.Reply notFound = http.get("/v1/instances/vm1/other");
    assertEquals(404, notFound.status());
    assertEquals("NOT_FOUND", notFound.errorCode());
    RawHttp.Reply wrong = http.method("GET", BASE);
    assertEquals(405, wrong.status());
    assertEquals("METHOD_NOT_ALLOWED", wrong.errorCode());
    assertEquals(405, http.method("DELETE", BASE + "/poll").status());
  }

  @Test
  void socket_isOwnerOnly_andItsNewDirectoryToo() throws Exception {
    assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(address.path())));
    assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(address.path().getParent())));
  }

  @Test
  void secondServerOnALiveSocket_isRefused_butAStaleFileIsReplaced() throws Exception {
    IOException e = assertThrows(IOException.class,
        () -> Daemon.start(address, MemoryTetherStore.create(), null, 8));
    assertTrue(e.getMessage().contains("already listening"), e.getMessage());
    Path stale = dir.resolve("stale.sock");
    try (var dead = java.nio.channels.ServerSocketChannel.open(java.net.StandardProtocolFamily.UNIX)) {
      dead.bind(java.net.UnixDomainSocketAddress.of(stale)); // closed without unlinking: a dead server's socket
    }
    assertTrue(Files.exists(stale));
    try (Daemon other = Daemon.start(new HostAddress.Unix(stale), MemoryTetherStore.create(), null, 8);
        RawHttp h = new RawHttp(new HostAddress.Unix(stale))) {
      assertEquals(new HostAddress.Unix(stale), other.boundAddress());
      assertEquals(200, h.get("/v1/health").status());
    }
  }

  @Test
  void tcp_everyRequestNeedsTheBearerToken() throws Exception {
    try (Daemon tcp = Daemon.start(new HostAddress.Tcp("127.0.0.1", 0), MemoryTetherStore.create(), "s3cret", 8);
        RawHttp h = new RawHttp(tcp.boundAddress())) {
      RawHttp.Reply none = h.get("/v1/health");
      assertEquals(401, none.status());
      assertEquals("UNAUTHORIZED", none.errorCode());
      assertEquals(401, h.get("/v1/health", "Bearer wrong").status());
      assertEquals(401, h.get("/v1/health", "Bearer s3cre").status());
      assertEquals(401, h.get("/v1/health", "s3cret").status());
      assertEquals(200, h.get("/v1/health", "Bearer s3cret").status());
      RawHttp.Reply sent = h.send("POST", "/v1/instances/vm/tether", "application/json",
          Fixtures.wire(Fixtures.userMessage("default", "over tcp")), "Bearer s3cret");
      assertEquals(202, sent.status(), sent.body());
      assertEquals(1, sent.json().get("ingress_seq").asLong());
    }
  }

  @Test
  void socketPathHoldingARegularFile_isRefused_andTheFileIsNeverDeleted() throws Exception {
    Path notes = dir.resolve("notes.txt");
    Files.writeString(notes, "precious");
    IOException e = assertThrows(IOException.class,
        () -> Daemon.start(new HostAddress.Unix(notes), MemoryTetherStore.create(), null, 8));
    assertTrue(e.getMessage().contains("is not a socket"), e.getMessage());
    assertEquals("precious", Files.readString(notes));
  }

  @Test
  void socketPermissionsCannotBeSet_serverStopsAndSocketIsGone() throws Exception {
    HostAddress.Unix other = new HostAddress.Unix(dir.resolve("noperm.sock"));
    MemoryTetherStore store = MemoryTetherStore.create();
    IOException e = assertThrows(IOException.class, () -> Daemon.start(other, store, FrameValidator.standard(), null, 8,
        p -> {
          throw new IOException("chmod refused");
        }));
    assertTrue(e.getMessage().contains("owner-only") && e.getMessage().contains("chmod refused"), e.getMessage());
    assertFalse(Files.exists(other.path()), "the socket file is removed");
    assertThrows(IOException.class, () -> RawSocket.connect(other).close(), "nobody can connect");
  }

  @Test
  void tcp_bearerSchemeIsCaseInsensitive() throws Exception {
    try (Daemon tcp = Daemon.start(new HostAddress.Tcp("127.0.0.1", 0), MemoryTetherStore.create(), "s3cret", 8);
        RawHttp h = new RawHttp(tcp.boundAddress())) {
      assertEquals(200, h.get("/v1/health", "bearer s3cret").status());
      assertEquals(200, h.get("/v1/health", "BEARER s3cret").status());
      assertEquals(200, h.get("/v1/health", "BeArEr  s3cret").status());
      assertEquals(401, RawSocket.exchange(tcp.boundAddress(),
          "GET /v1/health HTTP/1.1\r\nHost: x\r\nAuthorization: bearer S3CRET\r\n\r\n").status(), "fresh connection");
      assertEquals(401, h.get("/v1/health", "bearer S3CRET").status(), "the token itself is case-sensitive");
      assertEquals(401, h.get("/v1/health", "Basic s3cret").status());
      assertEquals(401, h.get("/v1/health", "bearers3cret").status());
    }
  }

  private static CompletableFuture<RawHttp.Reply> async(java.util.concurrent.Callable<RawHttp.Reply> call) {
    return CompletableFuture.supplyAsync(() -> {
      try {
        return call.call();
      } catch (Exception e) {
        throw new java.util.concurrent.CompletionException(e);
      }
    });
  }

  private void awaitWaits(int n) throws InterruptedException {
    for (int i = 0; i < 2000 && server.handler().waitsInProgress() < n; i++) {
      Thread.sleep(5);
    }
    assertEquals(n, server.handler().waitsInProgress());
  }

  private static List<Long> seqs(JsonNode page) {
    List<Long> seqs = new ArrayList<>();
    page.get("frames").forEach(f -> seqs.add(f.get("seq").asLong()));
    return seqs;
  }

  private static final class Set {
    static java.util.Set<String> of(String... s) {
      return java.util.Set.of(s);
    }
  }
}
