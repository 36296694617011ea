package dev.tether.coven;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tether.api.Frame;
import dev.tether.api.FrameTypes;
import dev.tether.coven.internal.proto.AgentMessage;
import dev.tether.coven.internal.proto.ExecutePackTool;
import dev.tether.coven.internal.proto.MessageResponse;
import dev.tether.coven.internal.proto.PackToolResult;
import dev.tether.coven.internal.proto.ServerMessage;
import dev.tether.coven.internal.proto.ToolApprovalResponse;
import dev.tether.coven.internal.proto.ToolState;
import dev.tether.coven.testing.FakeGateway;
import dev.tether.store.MemoryTetherStore;
import dev.tether.store.StoreTetherClient;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Coven's tool protocol through the bridge: a real grpc-java gateway double on 127.0.0.1, a
 * scripted tether agent that sends tool frames and waits for the host's answers.
 */
class CovenToolsTest {
  static final Duration WAIT = CovenAgentTest.WAIT;
  static final String INSTANCE = CovenAgentTest.INSTANCE;

  MemoryTetherStore store;
  ScriptedAgent scripted;
  FakeGateway gateway;
  RecordingListener listener;
  CovenAgent agent;

  @BeforeEach
  void setUp() throws Exception {
    store = MemoryTetherStore.create();
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
        .tether(StoreTetherClient.of(store), INSTANCE)
        .heartbeatInterval(Duration.ofSeconds(30))
        .listener(listener);
  }

  FakeGateway.Conn startRegistered() throws Exception {
    agent = builder().build();
    agent.start();
    FakeGateway.Conn conn = gateway.nextConnection(WAIT);
    assertTrue(conn.next(WAIT).hasRegister());
    return conn;
  }

  static ServerMessage approval(String id, boolean approved, boolean approveAll) {
    return ServerMessage.newBuilder().setToolApproval(ToolApprovalResponse.newBuilder().setId(id)
        .setApproved(approved).setApproveAll(approveAll)).build();
  }

  static ServerMessage packResult(String id, String outputJson, String error) {
    PackToolResult.Builder b = PackToolResult.newBuilder().setRequestId(id);
    if (outputJson != null) {
      b.setOutputJson(outputJson);
    } else {
      b.setError(error);
    }
    return ServerMessage.newBuilder().setPackToolResult(b).build();
  }

  @Test
  void approvalRequested_thenApproved_toolRunsAndTheAnswerSaysSo() throws Exception {
    FakeGateway.Conn conn = startRegistered();
    conn.send(CovenAgentTest.send("r1", "please ask approval"));
    MessageResponse request = awaitResponse(conn, "r1", MessageResponse::hasToolApprovalRequest);
    assertEquals("a1", request.getToolApprovalRequest().getId());
    assertEquals("draw", request.getToolApprovalRequest().getName());
    assertEquals("{\"values\":[1,2,3]}", request.getToolApprovalRequest().getInputJson());
    conn.send(approval("a1", true, false));
    List<MessageResponse> rest = conn.responsesUntilTerminal("r1", WAIT);
    assertTrue(rest.stream().anyMatch(r -> r.hasToolResult() && r.getToolResult().getOutput().equals("drew 3 bars")), rest.toString());
    assertEquals("a1=approve;", CovenAgentTest.last(rest).getDone().getFullResponse());
  }

  @Test
  void approvalDenied_toolDoesNotRun() throws Exception {
    FakeGateway.Conn conn = startRegistered();
    conn.send(CovenAgentTest.send("r2", "ask approval"));
    awaitResponse(conn, "r2", MessageResponse::hasToolApprovalRequest);
    conn.send(approval("a1", false, false));
    List<MessageResponse> rest = conn.responsesUntilTerminal("r2", WAIT);
    assertFalse(rest.stream().anyMatch(MessageResponse::hasToolResult), rest.toString());
    assertEquals("a1=deny;", CovenAgentTest.last(rest).getDone().getFullResponse());
  }

  @Test
  void approveAll_approvesTheRestOfTheRequestWithoutAskingAgain() throws Exception {
    FakeGateway.Conn conn = startRegistered();
    conn.send(CovenAgentTest.send("r3", "ask twice"));
    awaitResponse(conn, "r3", MessageResponse::hasToolApprovalRequest);
    conn.send(approval("a1", true, true));
    List<MessageResponse> rest = conn.responsesUntilTerminal("r3", WAIT);
    assertFalse(rest.stream().anyMatch(MessageResponse::hasToolApprovalRequest), "asked again: " + rest);
    assertEquals("a1=approve_all;a2=approve (approve_all was given for this request);",
        CovenAgentTest.last(rest).getDone().getFullResponse());
  }

  @Test
  void packTool_executedThroughTheGateway_resultReachesTheAgent() throws Exception {
    FakeGateway.Conn conn = startRegistered();
    conn.send(CovenAgentTest.send("r4", "use pack"));
    AgentMessage exec = awaitMessage(conn, AgentMessage::hasExecutePackTool);
    ExecutePackTool e = exec.getExecutePackTool();
    assertEquals("p1", e.getRequestId());
    assertEquals("weather", e.getToolName());
    assertEquals("{\"city\":\"Oslo\"}", e.getInputJson());
    conn.send(packResult("p1", "{\"temp_c\":3}", null));
    List<MessageResponse> rest = conn.responsesUntilTerminal("r4", WAIT);
    assertEquals("pack: {\"temp_c\":3}", CovenAgentTest.last(rest).getDone().getFullResponse());
    assertTrue(conn.all.stream().anyMatch(m -> m.hasResponse() && m.getResponse().hasSessionInit()
        && m.getResponse().getSessionInit().getSessionId().equals("backend-7")), "session_init");
  }

  @Test
  void packTool_failure_reachesTheAgentAsAnError() throws Exception {
    FakeGateway.Conn conn = startRegistered();
    conn.send(CovenAgentTest.send("r5", "use pack"));
    awaitMessage(conn, AgentMessage::hasExecutePackTool);
    conn.send(packResult("p1", null, "weather pack is offline"));
    List<MessageResponse> rest = conn.responsesUntilTerminal("r5", WAIT);
    assertEquals("pack failed: weather pack is offline", CovenAgentTest.last(rest).getDone().getFullResponse());
  }

  @Test
  void answersNobodyAskedFor_areRefused_andNeverReachTheAgent() throws Exception {
    FakeGateway.Conn conn = startRegistered();
    conn.send(approval("never-asked", true, false));
    conn.send(packResult("never-asked-either", "{}", null));
    CovenAgentTest.waitFor(() -> listener.lines.stream().filter(l -> l.startsWith("warning refused")).count() == 2, "two refusals");
    assertTrue(listener.lines.stream().anyMatch(l -> l.contains("refused a ToolApprovalResponse for 'never-asked'")), listener.lines.toString());
    assertTrue(listener.lines.stream().anyMatch(l -> l.contains("refused a PackToolResult for 'never-asked-either'")), listener.lines.toString());
    // An answer given twice is refused the second time: only one reaches the agent.
    conn.send(CovenAgentTest.send("r6", "ask approval"));
    awaitResponse(conn, "r6", MessageResponse::hasToolApprovalRequest);
    conn.send(approval("a1", false, false));
    conn.send(approval("a1", true, false));
    assertEquals("a1=deny;", CovenAgentTest.last(conn.responsesUntilTerminal("r6", WAIT)).getDone().getFullResponse());
    CovenAgentTest.waitFor(() -> listener.lines.stream().filter(l -> l.startsWith("warning refused")).count() == 3, "the repeat refused");
    assertEquals(1, scripted.toolAnswerFrames.size(), "frames the agent got: " + scripted.toolAnswerFrames);
    assertTrue(store.retained(INSTANCE).stream().map(Frame::type).filter(FrameTypes.CONTROL_TOOL_APPROVAL::equals).count() == 1);
  }

  @Test
  void approvalThatNeverComes_timesOutIntoToolStateTimeout_andTheAgentIsDenied() throws Exception {
    agent = builder().approvalTimeout(Duration.ofMillis(300)).build();
    agent.start();
    FakeGateway.Conn conn = gateway.nextConnection(WAIT);
    assertTrue(conn.next(WAIT).hasRegister());
    conn.send(CovenAgentTest.send("r7", "ask approval"));
    List<MessageResponse> all = conn.responsesUntilTerminal("r7", WAIT);
    MessageResponse timeout = all.stream().filter(r -> r.hasToolState() && r.getToolState().getState() == ToolState.TOOL_STATE_TIMEOUT)
        .findFirst().orElseThrow(() -> new AssertionError("no timeout state in " + all));
    assertEquals("a1", timeout.getToolState().getId());
    assertTrue(timeout.getToolState().getDetail().contains("within 300 ms"), timeout.getToolState().getDetail());
    String done = CovenAgentTest.last(all).getDone().getFullResponse();
    assertTrue(done.startsWith("a1=deny (TIMEOUT: no approval answer for draw"), done);
    conn.send(approval("a1", true, false)); // too late
    CovenAgentTest.waitFor(() -> listener.lines.stream().anyMatch(l -> l.startsWith("warning refused a ToolApprovalResponse for 'a1'")), "late refusal");
  }

  @Test
  void sessionOrphaned_isPassedToTheGateway() throws Exception {
    FakeGateway.Conn conn = startRegistered();
    conn.send(CovenAgentTest.send("r8", "orphan"));
    List<MessageResponse> all = conn.responsesUntilTerminal("r8", WAIT);
    assertTrue(all.stream().anyMatch(r -> r.hasSessionOrphaned()
        && r.getSessionOrphaned().getReason().equals("the backend restarted")), all.toString());
  }

  static MessageResponse awaitResponse(FakeGateway.Conn conn, String requestId,
      Predicate<MessageResponse> wanted) throws InterruptedException {
    AgentMessage m = awaitMessage(conn, a -> a.hasResponse() && a.getResponse().getRequestId().equals(requestId)
        && wanted.test(a.getResponse()));
    return m.getResponse();
  }

  static AgentMessage awaitMessage(FakeGateway.Conn conn,
      Predicate<AgentMessage> wanted) throws InterruptedException {
    long deadline = System.nanoTime() + WAIT.toNanos();
    while (System.nanoTime() < deadline) {
      AgentMessage m = conn.received.poll(100, TimeUnit.MILLISECONDS);
      if (m != null && wanted.test(m)) {
        return m;
      }
    }
    throw new AssertionError("not received within " + WAIT + "; got " + conn.all);
  }
}
