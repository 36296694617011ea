package dev.tether.coven;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import dev.tether.api.Frame;
import dev.tether.api.FrameTypes;
import dev.tether.coven.internal.proto.AgentMessage;
import dev.tether.coven.internal.proto.CancelRequest;
import dev.tether.coven.internal.proto.FileAttachment;
import dev.tether.coven.internal.proto.FileData;
import dev.tether.coven.internal.proto.InjectContext;
import dev.tether.coven.internal.proto.InjectionAck;
import dev.tether.coven.internal.proto.MessageResponse;
import dev.tether.coven.internal.proto.RegisterAgent;
import dev.tether.coven.internal.proto.RegistrationError;
import dev.tether.coven.internal.proto.SendMessage;
import dev.tether.coven.internal.proto.ServerMessage;
import dev.tether.coven.internal.proto.Shutdown;
import dev.tether.coven.internal.proto.ToolState;
import dev.tether.coven.testing.FakeGateway;
import dev.tether.store.MemoryTetherStore;
import dev.tether.store.StoreTetherClient;
import io.grpc.Status;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The agent against a real grpc-java server on 127.0.0.1 playing the gateway, bridged to a
 * scripted tether agent over an in-memory store.
 */
class CovenAgentTest {
  static final Duration WAIT = Duration.ofSeconds(20);
  static final String INSTANCE = "vm1";

  MemoryTetherStore store;
  StoreTetherClient client;
  ScriptedAgent scripted;
  FakeGateway gateway;
  RecordingListener listener;
  CovenAgent agent;

  @BeforeEach
  void setUp() throws Exception {
    store = MemoryTetherStore.create();
    client = StoreTetherClient.of(store);
    scripted = new ScriptedAgent(store, INSTANCE);
    gateway = FakeGateway.start();
    listener = new RecordingListener();
  }

  @AfterEach
  void tearDown() throws Exception {
    if (agent != null) {
      agent.close();
    }
    gateway.close();
    scripted.close();
    store.close();
  }

  CovenAgent.Builder builder() {
    return CovenAgent.builder()
        .gateway(gateway.target()).plaintext()
        .agentId("7f1c2d9e-agent").name("tether-test")
        .workspaces(List.of("dev"))
        .tether(client, INSTANCE)
        .heartbeatInterval(Duration.ofMillis(300))
        .reconnectBackoff(Duration.ofMillis(100), Duration.ofMillis(500))
        .listener(listener);
  }

  FakeGateway.Conn startRegistered() throws Exception {
    agent = builder().build();
    agent.start();
    FakeGateway.Conn conn = gateway.nextConnection(WAIT);
    assertTrue(conn.next(WAIT).hasRegister());
    waitFor(() -> !listener.welcomes.isEmpty(), "the welcome");
    return conn;
  }

  static ServerMessage send(String requestId, String content, FileAttachment... attachments) {
    return ServerMessage.newBuilder().setSendMessage(SendMessage.newBuilder().setRequestId(requestId)
        .setThreadId("thread-1").setSender("alice").setContent(content).addAllAttachments(Arrays.asList(attachments))).build();
  }

  static FileAttachment attachment(String name, String mime, byte[] data) {
    return FileAttachment.newBuilder().setFilename(name).setMimeType(mime).setData(ByteString.copyFrom(data)).build();
  }

  static MessageResponse last(List<MessageResponse> responses) {
    return responses.get(responses.size() - 1);
  }

  static String text(List<MessageResponse> responses) {
    StringBuilder sb = new StringBuilder();
    responses.stream().filter(MessageResponse::hasText).forEach(r -> sb.append(r.getText()));
    return sb.toString();
  }

  static void waitFor(java.util.function.BooleanSupplier condition, String what) throws InterruptedException {
    long deadline = System.nanoTime() + WAIT.toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("timed out waiting for " + what);
      }
      Thread.sleep(20);
    }
  }

  @Test
  void registerIsTheFirstMessage_withIdentityMetadataAndAllFourFeatures() throws Exception {
    agent = builder().build();
    agent.start();
    FakeGateway.Conn conn = gateway.nextConnection(WAIT);
    AgentMessage first = conn.next(WAIT);
    assertTrue(first.hasRegister(), "first message: " + first);
    RegisterAgent reg = first.getRegister();
    assertEquals("7f1c2d9e-agent", reg.getAgentId());
    assertEquals("tether-test", reg.getName());
    assertEquals(List.of("token_usage", "tool_states", "injection", "cancellation"), reg.getProtocolFeaturesList());
    assertEquals(List.of("dev"), reg.getMetadata().getWorkspacesList());
    assertEquals("tether", reg.getMetadata().getBackend());
    assertFalse(reg.getMetadata().getOs().isEmpty());
    waitFor(() -> !listener.welcomes.isEmpty(), "the welcome");
    CovenWelcome welcome = listener.welcomes.get(0);
    assertEquals("gw-test", welcome.serverId());
    assertEquals("inst-7f1c", welcome.instanceId());
  }

  @Test
  void heartbeats_areSentOnSchedule() throws Exception {
    FakeGateway.Conn conn = startRegistered();
    long beats = conn.drain(Duration.ofMillis(1500)).stream().filter(AgentMessage::hasHeartbeat).count();
    assertTrue(beats >= 2, "heartbeats in 1.5 s at 300 ms: " + beats);
  }

  @Test
  void pngAttachment_answerNamesIt_andEndsInOneDone() throws Exception {
    FakeGateway.Conn conn = startRegistered();
    conn.send(send("r1", "what is this?", attachment("cat.png", "image/png", ScriptedAgent.chartPng())));
    List<MessageResponse> responses = conn.responsesUntilTerminal("r1", WAIT);
    MessageResponse done = last(responses);
    assertTrue(done.hasDone(), "terminal: " + done);
    assertTrue(done.getDone().getFullResponse().contains("cat.png (image/png)"), done.getDone().getFullResponse());
    assertEquals(done.getDone().getFullResponse(), text(responses));
    // The tether side got one validated user.message on session coven/thread-1 with the image.
    Frame request = store.retained(INSTANCE).stream().filter(f -> f.type().equals(FrameTypes.USER_MESSAGE)).findFirst().orElseThrow();
    assertEquals("coven", request.session().orElseThrow().channel());
    assertEquals("thread-1", request.session().orElseThrow().id());
    assertEquals(1, request.payloadView().images().size());
  }

  @Test
  void chartRequest_returnsThePngAsFileData_beforeDone() throws Exception {
    FakeGateway.Conn conn = startRegistered();
    conn.send(send("r2", "draw a chart of 1 2 3 4"));
    List<MessageResponse> responses = conn.responsesUntilTerminal("r2", WAIT);
    assertTrue(last(responses).hasDone());
    FileData file = responses.stream().filter(MessageResponse::hasFile).findFirst().orElseThrow().getFile();
    assertEquals("image/png", file.getMimeType());
    assertEquals("image-1.png", file.getFilename());
    BufferedImage image = ImageIO.read(new ByteArrayInputStream(file.getData().toByteArray()));
    assertEquals(ScriptedAgent.CHART_WIDTH, image.getWidth());
    MessageResponse usage = responses.stream().filter(MessageResponse::hasUsage).findFirst().orElseThrow();
    assertEquals(12, usage.getUsage().getInputTokens());
    assertEquals(5, usage.getUsage().getOutputTokens());
  }

  @Test
  void mismatchedAttachment_endsInErrorNamingCodeAndFile_thenAPlainMessageWorks() throws Exception {
    FakeGateway.Conn conn = startRegistered();
    conn.send(send("bad", "look", attachment("photo.jpg", "image/jpeg", ScriptedAgent.chartPng())));
    MessageResponse error = last(conn.responsesUntilTerminal("bad", WAIT));
    assertTrue(error.getError().startsWith("MEDIA_TYPE_MISMATCH: attachment photo.jpg"), error.getError());
    assertPlainMessageWorks(conn, "after-bad");
  }

  @Test
  void oversizedAttachment_endsInImageTooLarge_thenAPlainMessageWorks() throws Exception {
    FakeGateway.Conn conn = startRegistered();
    byte[] big = Arrays.copyOf(ScriptedAgent.chartPng(), (10 << 20) + 1);
    conn.send(send("big", "look", attachment("huge.png", "image/png", big)));
    MessageResponse error = last(conn.responsesUntilTerminal("big", WAIT));
    assertTrue(error.getError().startsWith("IMAGE_TOO_LARGE: attachment huge.png"), error.getError());
    assertPlainMessageWorks(conn, "after-big");
  }

  @Test
  void fifthImage_endsInTooManyImages_thenAPlainMessageWorks() throws Exception {
    FakeGateway.Conn conn = startRegistered();
    byte[] png = ScriptedAgent.chartPng();
    FileAttachment[] five = new FileAttachment[5];
    for (int i = 0; i < 5; i++) {
      five[i] = attachment("p" + i + ".png", "image/png", png);
    }
    conn.send(send("five", "look", five));
    MessageResponse error = last(conn.responsesUntilTerminal("five", WAIT));
    assertTrue(error.getError().startsWith("TOO_MANY_IMAGES"), error.getError());
    assertPlainMessageWorks(conn, "after-five");
  }

  @Test
  void unsupportedImageType_endsInUnsupportedMediaType() throws Exception {
    FakeGateway.Conn conn = startRegistered();
    conn.send(send("bmp", "look", attachment("old.bmp", "image/bmp", new byte[] {'B', 'M', 0, 0})));
    MessageResponse error = last(conn.responsesUntilTerminal("bmp", WAIT));
    assertTrue(error.getError().startsWith("UNSUPPORTED_MEDIA_TYPE: attachment old.bmp"), error.getError());
  }

  void assertPlainMessageWorks(FakeGateway.Conn conn, String requestId) throws Exception {
    conn.send(send(requestId, "hi"));
    MessageResponse done = last(conn.responsesUntilTerminal(requestId, WAIT));
    assertEquals("You said: hi", done.getDone().getFullResponse());
  }

  @Test
  void injection_isAcknowledged_andReachesTheNextTurn() throws Exception {
    FakeGateway.Conn conn = startRegistered();
    conn.send(ServerMessage.newBuilder().setInjectContext(InjectContext.newBuilder().setInjectionId("inj-1")
        .setContent("the user prefers metric units").setSource("pack:prefs")).build());
    InjectionAck ack = nextNonHeartbeat(conn).getInjectionAck();
    assertEquals("inj-1", ack.getInjectionId());
    assertTrue(ack.getAccepted());
    conn.send(send("r3", "how far is it?"));
    String answer = last(conn.responsesUntilTerminal("r3", WAIT)).getDone().getFullResponse();
    assertTrue(answer.contains("[context from pack:prefs]\nthe user prefers metric units"), answer);
    assertTrue(answer.endsWith("how far is it?"), answer);
    // Consumed once: the turn after does not see it again.
    conn.send(send("r4", "again"));
    assertEquals("You said: again", last(conn.responsesUntilTerminal("r4", WAIT)).getDone().getFullResponse());
  }

  @Test
  void blankInjection_isRejectedWithAReason() throws Exception {
    FakeGateway.Conn conn = startRegistered();
    conn.send(ServerMessage.newBuilder().setInjectContext(InjectContext.newBuilder().setInjectionId("inj-2").setContent("  ")).build());
    InjectionAck ack = nextNonHeartbeat(conn).getInjectionAck();
    assertFalse(ack.getAccepted());
    assertTrue(ack.hasReason());
  }

  static AgentMessage nextNonHeartbeat(FakeGateway.Conn conn) throws InterruptedException {
    while (true) {
      AgentMessage m = conn.next(WAIT);
      if (!m.hasHeartbeat()) {
        return m;
      }
    }
  }

  @Test
  void cancelMidAnswer_givesExactlyOneCancelledAndNoDone_andTheAgentIsTold() throws Exception {
    FakeGateway.Conn conn = startRegistered();
    conn.send(send("slow-1", "be slow"));
    // Wait until the answer is streaming.
    while (true) {
      AgentMessage m = conn.next(WAIT);
      if (m.hasResponse() && m.getResponse().hasText()) {
        break;
      }
    }
    conn.send(ServerMessage.newBuilder().setCancelRequest(CancelRequest.newBuilder().setRequestId("slow-1").setReason("user_requested")).build());
    List<MessageResponse> after = conn.responsesUntilTerminal("slow-1", WAIT);
    assertTrue(last(after).hasCancelled(), "terminal: " + last(after));
    assertEquals("user_requested", last(after).getCancelled().getReason());
    // Nothing more for slow-1 after the cancel, while the agent stops and its done arrives.
    List<AgentMessage> later = conn.drain(Duration.ofSeconds(2));
    assertTrue(later.stream().noneMatch(m -> m.hasResponse() && m.getResponse().getRequestId().equals("slow-1")), later.toString());
    assertTrue(store.retained(INSTANCE).stream().anyMatch(f -> f.type().equals(FrameTypes.CONTROL_CANCEL)));
    assertPlainMessageWorks(conn, "after-cancel");
  }

  @Test
  void toolStatesAndAgentErrors_areTranslated() throws Exception {
    FakeGateway.Conn conn = startRegistered();
    conn.send(send("tool-1", "use a tool"));
    List<MessageResponse> responses = conn.responsesUntilTerminal("tool-1", WAIT);
    List<ToolState> states = responses.stream().filter(MessageResponse::hasToolState).map(r -> r.getToolState().getState()).toList();
    assertEquals(List.of(ToolState.TOOL_STATE_RUNNING, ToolState.TOOL_STATE_COMPLETED), states);
    assertTrue(last(responses).hasDone());
    conn.send(send("fail-1", "please fail"));
    assertEquals("AGENT_FAILED: scripted failure", last(conn.responsesUntilTerminal("fail-1", WAIT)).getError());
  }

  @Test
  void afterTheServerGoesAwayAndComesBack_theAgentReconnectsWithTheSameAgentId() throws Exception {
    startRegistered();
    int port = gateway.port();
    gateway.close();
    waitFor(() -> listener.lines.stream().anyMatch(l -> l.startsWith("disconnected")), "the disconnect");
    Thread.sleep(300); // a failed attempt or two against the closed port
    gateway = FakeGateway.start(port);
    FakeGateway.Conn again = gateway.nextConnection(WAIT);
    RegisterAgent reg = again.next(WAIT).getRegister();
    assertEquals("7f1c2d9e-agent", reg.getAgentId());
    waitFor(() -> listener.welcomes.size() == 2, "the second welcome");
    assertPlainMessageWorks(again, "after-reconnect");
  }

  @Test
  void shutdown_endsTheStreamCleanly_andTheAgentStops() throws Exception {
    FakeGateway.Conn conn = startRegistered();
    conn.send(ServerMessage.newBuilder().setShutdown(Shutdown.newBuilder().setReason("maintenance")).build());
    CovenTermination end = agent.awaitTermination(WAIT);
    assertEquals(CovenTermination.Reason.SHUTDOWN, end.reason());
    assertEquals("maintenance", end.detail());
    assertTrue(end.clean());
    assertEquals(Status.OK, conn.closed.get(WAIT.toMillis(), TimeUnit.MILLISECONDS));
    Thread.sleep(500);
    assertTrue(gateway.connections.isEmpty(), "no reconnect after Shutdown");
  }

  @Test
  void registrationError_stopsTheAgentWithTheReason_andDoesNotRetry() throws Exception {
    gateway.onRegister = reg -> ServerMessage.newBuilder().setRegistrationError(
        RegistrationError.newBuilder().setReason("agent not approved").setSuggestedId("other-id")).build();
    agent = builder().build();
    CovenTermination end = agent.start().get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
    assertEquals(CovenTermination.Reason.REGISTRATION_REJECTED, end.reason());
    assertTrue(end.detail().contains("agent not approved") && end.detail().contains("other-id"), end.detail());
    assertFalse(end.clean());
    Thread.sleep(500);
    assertEquals(1, gateway.connections.size(), "one stream only");
  }

  @Test
  void theListenerHearsWhyItStopped_beforeTheTerminationCompletes() throws Exception {
    gateway.onRegister = reg -> ServerMessage.newBuilder().setRegistrationError(
        RegistrationError.newBuilder().setReason("agent not approved")).build();
    AtomicReference<CovenTermination> heard = new AtomicReference<>();
    agent = builder().listener(new CovenListener() {
      @Override
      public void onTerminated(CovenTermination t) {
        try {
          Thread.sleep(300); // a slow listener: a waiter that woke first would find nothing heard
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
        heard.set(t);
      }
    }).build();
    CovenTermination end = agent.start().get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
    assertSame(end, heard.get(), "the listener was told before start()'s future completed");
  }
}
