package dev.tether.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tether.api.Frame;
import dev.tether.api.FrameTypes;
import dev.tether.api.RawJson;
import dev.tether.api.SessionKey;
import dev.tether.api.ToolPayload;
import dev.tether.store.MemoryTetherStore;
import dev.tether.store.StoreTetherClient;
import io.modelcontextprotocol.server.McpServerFeatures.AsyncToolSpecification;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.TextContent;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** tether_approvals and tether_approve over an in-memory store, through the SDK tool specifications. */
class ApprovalToolsTest {
  private static final String VM = "vm";
  private static final SessionKey SESSION = new SessionKey("host", "s1");

  private final MemoryTetherStore store = MemoryTetherStore.create();
  private final StoreTetherClient client = StoreTetherClient.of(store);
  private final TetherMcpServer server = TetherMcpServer.builder(client).build();

  @AfterEach
  void close() {
    store.close();
  }

  private void agentAsks(String id, String msgId) {
    store.append(VM, ToolPayload.frame(SESSION, msgId, new ToolPayload.ApprovalRequest(id, "draw_chart",
        RawJson.of("{\"request\":\"a chart of 1 2 3\"}"))));
  }

  @Test
  void pendingRequests_areListed_untilAnsweredOrSettled() throws Exception {
    agentAsks("a1", "m1");
    agentAsks("a2", "m2");
    JsonNode listed = json(call(ApprovalTools.LIST, Map.of("instance", VM)));
    assertEquals(2, listed.path("pending").size(), listed.toString());
    JsonNode first = listed.path("pending").get(0);
    assertEquals("a1", first.path("request_id").asText());
    assertEquals("draw_chart", first.path("tool").asText());
    assertEquals("a chart of 1 2 3", first.path("input").path("request").asText());
    assertEquals("m1", first.path("msg_id").asText());
    assertEquals("s1", first.path("session").path("id").asText());

    store.append(VM, ToolPayload.frame(SESSION, "m1", ToolPayload.ApprovalAnswer.of("a1", ToolPayload.Decision.DENY)));
    store.append(VM, Frame.builder(FrameTypes.EVENT_TOOL_STATE).session(SESSION).msgId("m2")
        .payload(RawJson.of("{\"id\":\"a2\",\"state\":\"timeout\"}")).build());
    assertEquals(0, json(call(ApprovalTools.LIST, Map.of("instance", VM))).path("pending").size());
  }

  @Test
  void approve_sendsTheAnswerInTheRequestsSessionAndMsgId_once() throws Exception {
    agentAsks("a1", "m1");
    CallToolResult ok = call(ApprovalTools.APPROVE, Map.of("instance", VM, "request_id", "a1", "decision", "approve_all"));
    assertFalse(ok.isError(), text(ok));
    Frame sent = store.retained(VM).stream().filter(f -> f.type().equals(FrameTypes.CONTROL_TOOL_APPROVAL)).findFirst().orElseThrow();
    assertEquals(SESSION, sent.session().orElseThrow());
    assertEquals("m1", sent.msgId().orElseThrow());
    assertEquals(ToolPayload.ApprovalAnswer.of("a1", ToolPayload.Decision.APPROVE_ALL), ToolPayload.read(sent));
    assertEquals(sent.seq(), json(ok).path("ingress_seq").asLong());

    CallToolResult again = call(ApprovalTools.APPROVE, Map.of("instance", VM, "request_id", "a1", "decision", "deny"));
    assertTrue(again.isError());
    assertTrue(text(again).contains("NOT_FOUND"), text(again));
  }

  @Test
  void unknownIdsAndBadArguments_areRefused_andNothingIsSent() throws Exception {
    agentAsks("a1", "m1");
    assertRefused(Map.of("instance", VM, "request_id", "never-asked", "decision", "approve"), "NOT_FOUND");
    assertRefused(Map.of("instance", VM, "request_id", "a1", "decision", "yes"), "INVALID_ARGUMENT");
    assertRefused(Map.of("instance", VM, "request_id", "a1", "decision", "APPROVE"), "INVALID_ARGUMENT");
    assertRefused(Map.of("instance", VM, "request_id", "x".repeat(10_000), "decision", "deny"), "INVALID_ARGUMENT");
    assertRefused(Map.of("instance", VM, "request_id", "a1\u001b[2J", "decision", "deny"), "INVALID_ARGUMENT");
    assertRefused(Map.of("instance", VM, "request_id", "a1", "decision", "deny", "reason", "r".repeat(5000)), "INVALID_ARGUMENT");
    assertRefused(Map.of("instance", VM, "request_id", 7, "decision", "deny"), "INVALID_ARGUMENT");
    assertRefused(Map.of("instance", VM, "request_id", "a1", "decision", "deny", "extra", true), "INVALID_ARGUMENT");
    assertTrue(store.retained(VM).stream().noneMatch(f -> f.type().equals(FrameTypes.CONTROL_TOOL_APPROVAL)));
  }

  private void assertRefused(Map<String, Object> args, String code) {
    CallToolResult result = call(ApprovalTools.APPROVE, args);
    assertTrue(result.isError(), text(result));
    assertTrue(text(result).contains(code), text(result));
  }

  private CallToolResult call(String tool, Map<String, Object> args) {
    AsyncToolSpecification spec = server.tools().stream().filter(t -> t.tool().name().equals(tool)).findFirst().orElseThrow();
    return spec.callHandler().apply(null, CallToolRequest.builder(tool).arguments(args).build()).block(Duration.ofSeconds(30));
  }

  private static String text(CallToolResult result) {
    return ((TextContent) result.content().get(0)).text();
  }

  private static JsonNode json(CallToolResult result) throws Exception {
    return McpJson.MAPPER.readTree(text(result));
  }
}
