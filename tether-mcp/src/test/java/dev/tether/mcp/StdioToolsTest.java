package dev.tether.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.ImageContent;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import java.awt.Color;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The tools driven through the MCP SDK's client over the stdio of a child server process. */
class StdioToolsTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  @RegisterExtension
  static final ChildServerPerClass server = new ChildServerPerClass();

  @Test
  void listTools_describesSendAndReadWithStrictSchemas() {
    List<Tool> tools = server.client().listTools().block(ChildServer.TIMEOUT).tools();
    Map<String, Tool> byName = new LinkedHashMap<>();
    tools.forEach(t -> byName.put(t.name(), t));
    assertTrue(byName.keySet().containsAll(List.of("tether_send", "tether_read")), byName.keySet().toString());

    Tool send = byName.get("tether_send");
    assertEquals(List.of("instance", "text"), send.inputSchema().get("required"));
    assertEquals(false, send.inputSchema().get("additionalProperties"));
    assertTrue(send.description().contains("ingress_seq"), send.description());
    Tool read = byName.get("tether_read");
    assertEquals(List.of("instance"), read.inputSchema().get("required"));
    assertTrue(read.description().contains("next_seq") && read.description().contains("_mcp_index"));
    assertEquals(Boolean.TRUE, read.annotations().readOnlyHint());
  }

  @Test
  void sendWithImages_repliesArriveAsImageContentWithStubsAcrossTwoDoneFrames() throws Exception {
    Map<String, Object> red = TestImages.png(Color.RED);
    Map<String, Object> blue = TestImages.gif(Color.BLUE);
    JsonNode receipt = send("images", "look at these", List.of(red, blue));
    String msgId = receipt.get("msg_id").asText();
    long ingressSeq = receipt.get("ingress_seq").asLong();
    assertEquals("images", receipt.get("session_id").asText());
    assertTrue(ingressSeq >= 1);

    // The cursor loop, long-polling for the two answers.
    List<JsonNode> done = new ArrayList<>();
    long cursor = ingressSeq;
    while (done.size() < 2) {
      CallToolResult poll = read(Map.of("session_id", "images", "after_seq", cursor, "wait_ms", 10_000,
          "types", List.of("assistant.done"), "reply_to_msg_id", msgId));
      JsonNode body = JSON.readTree(ChildServer.text(poll));
      body.get("frames").forEach(done::add);
      cursor = body.get("next_seq").asLong();
    }

    // Both answers in one poll: the stubs count image items across the frames.
    CallToolResult both = read(Map.of("session_id", "images", "after_seq", ingressSeq,
        "types", List.of("assistant.done")));
    assertFalse(both.isError());
    JsonNode body = JSON.readTree(ChildServer.text(both));
    JsonNode frames = body.get("frames");
    assertEquals(2, frames.size());
    assertEquals(false, body.get("timed_out").asBoolean());
    assertEquals(frames.get(1).get("seq").asLong(), body.get("next_seq").asLong());
    List<Map<String, Object>> expected = List.of(red, blue, blue, red);
    assertEquals(1 + expected.size(), both.content().size());
    int index = 0;
    for (JsonNode frame : frames) {
      assertEquals(msgId, frame.get("msg_id").asText());
      for (JsonNode stub : frame.get("payload").get("images")) {
        assertEquals(1, stub.size(), "a stub has only _mcp_index: " + stub);
        int n = stub.get("_mcp_index").asInt();
        assertEquals(index, n);
        ImageContent image = assertInstanceOf(ImageContent.class, both.content().get(1 + n));
        assertEquals(expected.get(index).get("media_type"), image.mimeType());
        assertEquals(expected.get(index).get("data"), image.data());
        index++;
      }
    }
    assertEquals(4, index);
    assertTrue(frames.get(0).get("payload").get("text").asText().startsWith(ScriptedResponder.FIRST_PREFIX));
  }

  @Test
  void longPoll_doesNotHoldUpOtherRequests() throws Exception {
    // Subscribing sends the request now, ahead of everything below on the same connection.
    CompletableFuture<CallToolResult> longPoll = server.client().callTool(CallToolRequest.builder("tether_read")
            .arguments(Map.of("instance", TestServerMain.INSTANCE, "session_id", "quiet",
                "after_seq", 0, "wait_ms", 30_000, "types", List.of("assistant.done")))
            .build())
        .toFuture();

    JsonNode busy = send("busy", "are you there?", List.of());
    CallToolResult answered = read(Map.of("session_id", "busy", "after_seq", busy.get("ingress_seq").asLong(),
        "wait_ms", 10_000, "types", List.of("assistant.done")));
    assertFalse(JSON.readTree(ChildServer.text(answered)).get("frames").isEmpty(), ChildServer.text(answered));
    assertFalse(longPoll.isDone(), "the long-poll on 'quiet' must still be waiting");

    String quietMsg = send("quiet", "now answer", List.of()).get("msg_id").asText();
    CallToolResult woken = longPoll.get(ChildServer.TIMEOUT.toSeconds(), java.util.concurrent.TimeUnit.SECONDS);
    JsonNode body = JSON.readTree(ChildServer.text(woken));
    assertFalse(body.get("timed_out").asBoolean());
    assertTrue(body.get("frames").size() >= 1);
    assertEquals(quietMsg, body.get("frames").get(0).get("msg_id").asText());
  }

  @Test
  void manyConcurrentCalls_areAllAnswered() throws Exception {
    // Results complete on several threads at once; the transport must still send every one.
    List<CompletableFuture<CallToolResult>> calls = new ArrayList<>();
    for (int i = 0; i < 400; i++) {
      Map<String, Object> args = new LinkedHashMap<>();
      args.put("instance", TestServerMain.INSTANCE);
      args.put("session_id", "crowd-" + (i % 10));
      if (i % 4 == 0) {
        args.put("text", "message " + i);
      }
      String tool = i % 4 == 0 ? "tether_send" : "tether_read";
      calls.add(server.client().callTool(CallToolRequest.builder(tool).arguments(args).build()).toFuture());
    }
    for (CompletableFuture<CallToolResult> call : calls) {
      CallToolResult result = call.get(ChildServer.TIMEOUT.toSeconds(), java.util.concurrent.TimeUnit.SECONDS);
      assertFalse(result.isError(), ChildServer.text(result));
    }
    assertFalse(read(Map.of("session_id", "crowd-0")).isError(), "still serving afterwards");
  }

  @Test
  void read_withoutTypeFilter_returnsOnlyTheAgentsFrames() throws Exception {
    JsonNode receipt = send("egress", "hi", List.of());
    List<String> types = new ArrayList<>();
    long cursor = 0;
    while (!types.contains("assistant.done") || types.stream().filter("assistant.done"::equals).count() < 2) {
      JsonNode body = JSON.readTree(ChildServer.text(read(Map.of("session_id", "egress", "after_seq", cursor,
          "wait_ms", 10_000))));
      body.get("frames").forEach(f -> types.add(f.get("type").asText()));
      cursor = body.get("next_seq").asLong();
    }
    assertEquals(List.of("status.presence", "assistant.done", "assistant.done"), types);
    assertTrue(cursor > receipt.get("ingress_seq").asLong());
  }

  @Test
  void read_ofAQuietSession_timesOutWithTheCursorUnchanged() throws Exception {
    CallToolResult result = read(Map.of("session_id", "nobody-here", "after_seq", 0, "wait_ms", 50));
    JsonNode body = JSON.readTree(ChildServer.text(result));
    assertTrue(body.get("timed_out").asBoolean());
    assertEquals(0, body.get("frames").size());
    assertEquals(1, result.content().size());
  }

  private static JsonNode send(String session, String text, List<Map<String, Object>> images) throws Exception {
    Map<String, Object> args = new LinkedHashMap<>();
    args.put("instance", TestServerMain.INSTANCE);
    args.put("session_id", session);
    args.put("text", text);
    if (!images.isEmpty()) {
      args.put("images", images);
    }
    CallToolResult result = server.call("tether_send", args);
    assertFalse(result.isError(), ChildServer.text(result));
    return JSON.readTree(ChildServer.text(result));
  }

  private static CallToolResult read(Map<String, Object> arguments) {
    Map<String, Object> args = new LinkedHashMap<>(arguments);
    args.put("instance", TestServerMain.INSTANCE);
    CallToolResult result = server.call("tether_read", args);
    assertFalse(result.isError(), ChildServer.text(result));
    return result;
  }
}
