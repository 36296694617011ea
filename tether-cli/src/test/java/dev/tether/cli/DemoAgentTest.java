package dev.tether.cli;

import dev.tether.server.TetherServer;
import dev.tether.client.http.HttpTetherClient;
import dev.tether.server.testing.Fixtures;
import dev.tether.client.HostAddress;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tether.api.Frame;
import dev.tether.api.FrameCodec;
import dev.tether.api.FrameTypes;
import dev.tether.api.Frames;
import dev.tether.api.Payload;
import dev.tether.api.SessionKey;
import dev.tether.api.Turn;
import dev.tether.sessions.FileBlobStore;
import dev.tether.store.FrameQuery;
import dev.tether.sessions.SessionStore;
import dev.tether.store.MemoryTetherStore;
import dev.tether.store.QueryResult;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The demo agent against an in-process server on a real socket. */
class DemoAgentTest {
  private static final String INSTANCE = "vm";

  @TempDir Path dir;
  private MemoryTetherStore store;
  private TetherServer server;
  private HttpTetherClient client;
  private Thread agentThread;
  private DemoAgent agent;
  private SessionStore sessions;

  @BeforeEach
  void start() throws Exception {
    HostAddress.Unix address = new HostAddress.Unix(dir.resolve("t.sock"));
    store = MemoryTetherStore.create();
    server = TetherServer.builder().listen(address).store(store).autoCreate(true).workspaces(dir.resolve("ws")).start();
    client = Clients.of(address, null);
  }

  private void startAgent(Replier replier) throws Exception {
    startAgent(replier, 0);
  }

  private void startAgent(Replier replier, long afterSeq) throws Exception {
    if (sessions == null) {
      sessions = SessionStore.builder(dir.resolve("agent/sessions"), FileBlobStore.open(dir.resolve("agent/blobs"))).build();
    }
    agent = new DemoAgent(client, INSTANCE, replier, sessions);
    CountDownLatch ready = new CountDownLatch(1);
    agentThread = new Thread(() -> {
      try {
        agent.run(afterSeq, ready::countDown);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    });
    agentThread.setDaemon(true);
    agentThread.start();
    assertTrue(ready.await(30, TimeUnit.SECONDS));
  }

  @AfterEach
  void stop() throws Exception {
    if (agent != null) {
      agent.close();
    }
    if (sessions != null) {
      sessions.close();
    }
    server.close();
    client.close();
  }

  private long send(Frame f) throws Exception {
    return store.append(INSTANCE, f);
  }

  /** Every frame answering {@code msgId}, up to and including its status.presence idle. */
  private List<Frame> replyTo(SessionKey session, String msgId) throws Exception {
    List<Frame> frames = new ArrayList<>();
    long cursor = 0;
    while (frames.stream().noneMatch(f -> f.type().equals(FrameTypes.STATUS_PRESENCE) && f.payload().toString().contains("idle"))) {
      QueryResult r = store.awaitFrames(INSTANCE,
          FrameQuery.builder().session(session).replyToMsgId(msgId).afterSeq(cursor).build(), Duration.ofSeconds(20));
      assertTrue(!r.timedOut(), "no reply to " + msgId + " so far: " + frames);
      frames.addAll(r.frames().stream().filter(f -> !f.isHostToGuest()).toList());
      cursor = r.nextSeq();
    }
    return frames;
  }

  private static Payload.AssistantDone done(List<Frame> frames) {
    return frames.stream().filter(f -> f.type().equals(FrameTypes.ASSISTANT_DONE))
        .map(f -> (Payload.AssistantDone) f.payloadView()).findFirst().orElseThrow();
  }

  @Test
  void answer_followsTheProtocolOrder_withTheRequestsMsgId() throws Exception {
    startAgent(new DemoReplier());
    SessionKey s = SessionKey.host("a");
    send(Frames.userMessage(s, "m-1", "hello", List.of(), null));
    List<Frame> reply = replyTo(s, "m-1");
    List<String> types = reply.stream().map(Frame::type).toList();
    assertEquals(FrameTypes.STATUS_PRESENCE, types.get(0));
    assertEquals("thinking", ((Payload.Presence) reply.get(0).payloadView()).state());
    assertEquals(FrameTypes.ASSISTANT_DONE, types.get(types.size() - 2));
    assertEquals("idle", ((Payload.Presence) reply.get(types.size() - 1).payloadView()).state());
    assertTrue(types.subList(1, types.size() - 2).stream().allMatch(FrameTypes.ASSISTANT_DELTA::equals), types.toString());
    StringBuilder joined = new StringBuilder();
    reply.stream().filter(f -> f.type().equals(FrameTypes.ASSISTANT_DELTA))
        .forEach(f -> joined.append(((Payload.AssistantDelta) f.payloadView()).text()));
    assertEquals(done(reply).text(), joined.toString(), "the deltas add up to the done text");
    assertTrue(done(reply).text().startsWith("You said: hello"), done(reply).text());
  }

  @Test
  void sessions_areKeyedByChannelAndId() throws Exception {
    startAgent(new DemoReplier());
    SessionKey host = SessionKey.host("42");
    SessionKey telegram = new SessionKey("telegram", "42");
    send(Frames.userMessage(host, "h1", "one", List.of(), null));
    assertTrue(done(replyTo(host, "h1")).text().contains("session turn 1"));
    send(Frames.userMessage(host, "h2", "two", List.of(), null));
    assertTrue(done(replyTo(host, "h2")).text().contains("session turn 2"));
    send(Frames.userMessage(telegram, "t1", "three", List.of(), null));
    Payload.AssistantDone t = done(replyTo(telegram, "t1"));
    assertTrue(t.text().contains("session turn 1"), "telegram:42 is not host:42: " + t.text());
  }

  @Test
  void sessions_surviveAnAgentRestart_withImagesAsBlobsNotInline() throws Exception {
    startAgent(new DemoReplier());
    SessionKey s = SessionKey.host("photos");
    dev.tether.api.Image photo = Fixtures.png(12, 8);
    send(Frames.userMessage(s, "p1", "keep this", List.of(photo), null));
    assertTrue(done(replyTo(s, "p1")).text().contains("session turn 1"));
    send(Frames.userMessage(s, "p2", "and draw a chart", List.of(), null));
    assertEquals(1, done(replyTo(s, "p2")).images().size());

    agent.close();
    agentThread.join(20_000);
    assertTrue(!agentThread.isAlive(), "close() ends the agent's long-poll at once");
    sessions.close();
    sessions = null;
    startAgent(new DemoReplier(), store.lastSeq(INSTANCE)); // a new agent on the same directory
    send(Frames.userMessage(s, "p3", "still there?", List.of(), null));
    assertTrue(done(replyTo(s, "p3")).text().contains("session turn 3"), "the session was reloaded from disk");

    String jsonl = java.nio.file.Files.readString(sessions.file(s));
    assertEquals(6, jsonl.lines().count(), jsonl);
    assertTrue(!jsonl.contains(photo.data().substring(0, 40)), "images are blob refs, not inline base64");
    String sha = java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-256")
        .digest(java.util.Base64.getDecoder().decode(photo.data())));
    try (var files = java.nio.file.Files.walk(dir.resolve("agent/blobs"))) {
      assertTrue(files.anyMatch(p -> p.getFileName().toString().equals(sha + ".png")),
          "the received image is in the blob store under its sha-256");
    }
    List<Turn> context = sessions.open(s).assembleContext("", 40, 1_000_000).turns();
    assertTrue(context.get(0).parts().stream().anyMatch(p -> p instanceof dev.tether.api.Part.Image), "the image is read back into the context");
    assertTrue(context.get(3).parts().stream().anyMatch(p -> p instanceof dev.tether.api.Part.Image), "the agent's chart is kept too");
  }

  @Test
  void controlCancel_stopsTheAnswer_andDoneSaysCancelled() throws Exception {
    CountDownLatch started = new CountDownLatch(1);
    startAgent(new Replier() {
      @Override
      public Reply reply(List<Turn> history, Payload.UserMessage message, Consumer<String> deltas, BooleanSupplier cancelled)
          throws InterruptedException {
        deltas.accept("partial");
        started.countDown();
        for (int i = 0; i < 3000 && !cancelled.getAsBoolean(); i++) {
          Thread.sleep(10);
        }
        return new Reply(cancelled.getAsBoolean() ? "partial" : "finished without a cancel", List.of());
      }

      @Override
      public String describe() {
        return "slow";
      }
    });
    SessionKey s = SessionKey.host("c");
    send(Frames.userMessage(s, "long-1", "take your time", List.of(), null));
    assertTrue(started.await(20, TimeUnit.SECONDS));
    send(Frame.of(s, "long-1", new Payload.Cancel(Map.of())));
    List<Frame> reply = replyTo(s, "long-1");
    Frame doneFrame = reply.stream().filter(f -> f.type().equals(FrameTypes.ASSISTANT_DONE)).findFirst().orElseThrow();
    assertEquals("partial", ((Payload.AssistantDone) doneFrame.payloadView()).text());
    assertTrue(new String(FrameCodec.standard().write(doneFrame)).contains("\"cancelled\":true"));
  }

  @Test
  void emptyAnswer_isNotKeptAsATurn_soTheNextRequestHasNoEmptyAssistantTurn() throws Exception {
    List<List<Turn>> histories = new java.util.concurrent.CopyOnWriteArrayList<>();
    startAgent(new Replier() {
      @Override
      public Reply reply(List<Turn> history, Payload.UserMessage message, Consumer<String> deltas, BooleanSupplier cancelled) {
        histories.add(history);
        return new Reply(histories.size() == 1 ? "" : "second answer", List.of());
      }

      @Override
      public String describe() {
        return "empty first";
      }
    });
    SessionKey s = SessionKey.host("e");
    send(Frames.userMessage(s, "e-1", "first", List.of(), null));
    assertEquals("", done(replyTo(s, "e-1")).text());
    send(Frames.userMessage(s, "e-2", "second", List.of(), null));
    assertEquals("second answer", done(replyTo(s, "e-2")).text());

    List<Turn> second = histories.get(1);
    assertEquals(1, second.size(), second.toString());
    assertEquals(dev.tether.api.Role.USER, second.get(0).role());
    assertEquals("first", second.get(0).text());
    List<Turn> context = sessions.open(s).assembleContext("", 40, 1_000_000).turns();
    assertEquals(List.of("first", "second", "second answer"), context.stream().map(Turn::text).toList());
  }

  @Test
  void requestTheAdaptersRefuse_isAnsweredWithTheReasonInsteadOfSilence() throws Exception {
    startAgent(new Replier() {
      @Override
      public Reply reply(List<Turn> history, Payload.UserMessage message, Consumer<String> deltas, BooleanSupplier cancelled) {
        throw new IllegalArgumentException("turn 1 (assistant) holds only empty text");
      }

      @Override
      public String describe() {
        return "refused";
      }
    });
    SessionKey s = SessionKey.host("r");
    send(Frames.userMessage(s, "r-1", "hello", List.of(), null));
    assertEquals("Sorry, the model call failed: turn 1 (assistant) holds only empty text", done(replyTo(s, "r-1")).text());
  }

  /** Answers "ok" at once, whatever the message: for tests about the agent, not the replier. */
  private static final class OkReplier implements Replier {
    @Override
    public Reply reply(List<Turn> history, Payload.UserMessage message, Consumer<String> deltas, BooleanSupplier cancelled) {
      return new Reply("ok " + message.text().length(), List.of());
    }

    @Override
    public String describe() {
      return "ok";
    }
  }

  @Test
  void replierFailingUnexpectedly_endsTheTurnWithAnErrorFrameAndIdle_insteadOfSilence() throws Exception {
    startAgent(new Replier() {
      @Override
      public Reply reply(List<Turn> history, Payload.UserMessage message, Consumer<String> deltas, BooleanSupplier cancelled) {
        throw new IllegalStateException("the model client broke");
      }

      @Override
      public String describe() {
        return "broken";
      }
    });
    SessionKey s = SessionKey.host("e");
    send(Frames.userMessage(s, "e-1", "hello", List.of(), null));
    List<Frame> reply = replyTo(s, "e-1");
    Frame error = reply.stream().filter(f -> f.type().equals(FrameTypes.ERROR)).findFirst()
        .orElseThrow(() -> new AssertionError("no error frame: " + reply));
    assertTrue(error.payload().toString().contains("\"code\":\"AGENT_FAILED\""), error.payload().toString());
    assertTrue(error.payload().toString().contains("the model client broke"), error.payload().toString());
    assertEquals(FrameTypes.STATUS_PRESENCE, reply.get(reply.size() - 1).type());
    // The agent goes on answering.
    send(Frames.userMessage(s, "e-2", "again", List.of(), null));
    assertTrue(replyTo(s, "e-2").stream().anyMatch(f -> f.type().equals(FrameTypes.ERROR)));
  }

  @Test
  void userMessageWith300KiBOfText_isStoredAndAnswered() throws Exception {
    startAgent(new OkReplier());
    SessionKey s = SessionKey.host("big");
    String text = "y".repeat(300 * 1024);
    send(Frames.userMessage(s, "b-1", text, List.of(), null));
    assertEquals("ok " + text.length(), done(replyTo(s, "b-1")).text());
    assertEquals(2, sessions.open(s).size(), "the request and the answer are in the session");
  }

  @Test
  void threeUnread27MegabyteMessages_doNotStopTheAgentsReads() throws Exception {
    SessionKey s = SessionKey.host("huge");
    for (int i = 0; i < 3; i++) {
      send(Frames.userMessage(s, "h-" + i, "z".repeat(27_000_000), List.of(), null));
    }
    send(Frames.userMessage(s, "small", "hi", List.of(), null));
    startAgent(new OkReplier());
    // One page holds all four (about 81 MB): it used to exceed the client's 64 MiB response cap forever.
    assertEquals("ok 2", done(replyTo(s, "small")).text());
  }
}
