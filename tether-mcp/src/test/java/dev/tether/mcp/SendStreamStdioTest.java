package dev.tether.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.ImageContent;
import io.modelcontextprotocol.spec.McpSchema.ProgressNotification;
import java.awt.Color;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * {@code tether_send_stream} over stdio, driven by the MCP Java SDK's client: the scripted agent's
 * presence and deltas arrive as progress notifications with the call's token before the
 * {@code assistant.done} result, which carries the answer's image; a call with no answer in time answers timed out; bad arguments
 * are refused before anything is sent.
 */
class SendStreamStdioTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @Test
  void sendStream_reportsPresenceAndDeltasThenReturnsTheDone() throws Exception {
    List<ProgressNotification> notes = new CopyOnWriteArrayList<>();
    try (ChildServer child = ChildServer.start(notes::add)) {
      Map<String, Object> png = TestImages.png(Color.RED);
      CallToolResult result = child.client.callTool(CallToolRequest.builder("tether_send_stream").progressToken(7)
          .arguments(Map.of("instance", TestServerMain.INSTANCE, "session_id", "s1",
              "text", ScriptedResponder.STREAM_PREFIX + "one two three", "images", List.of(png))).build()).block(ChildServer.TIMEOUT);
      assertFalse(result.isError(), ChildServer.text(result));
      // The scripted agent answers with the message's image: the result carries it as an image item.
      assertTrue(result.content().stream().anyMatch(c -> c instanceof ImageContent i && i.mimeType().equals("image/png")
          && i.data().equals(png.get("data"))), result.toString());
      JsonNode body = JSON.readTree(ChildServer.text(result));
      assertEquals("assistant.done", body.get("frames").get(0).get("type").asText());
      assertEquals(ScriptedResponder.FIRST_PREFIX + ScriptedResponder.STREAM_PREFIX + "one two three",
          body.get("frames").get(0).get("payload").get("text").asText());
      assertEquals(body.get("frames").get(0).get("msg_id").asText(), body.get("msg_id").asText());
      // The client may hand notifications over concurrently: the server's progress numbers order them.
      List<ProgressNotification> sorted = new ArrayList<>(notes);
      sorted.sort(Comparator.comparingDouble(ProgressNotification::progress));
      List<JsonNode> events = new ArrayList<>();
      for (ProgressNotification n : sorted) {
        assertEquals(7, ((Number) n.progressToken()).intValue());
        events.add(JSON.readTree(n.message()));
      }
      assertEquals("status.presence", events.get(0).get("type").asText(), events.toString());
      StringBuilder text = new StringBuilder();
      events.stream().filter(e -> e.get("type").asText().equals("assistant.delta")).forEach(e -> text.append(e.get("text").asText()));
      assertEquals("one two three ", text.toString(), events.toString());
      assertEquals(4.0, sorted.get(sorted.size() - 1).progress(), "four events reported, however coalesced");
    }
  }

  @Test
  void sendStream_withoutProgressToken_stillReturnsTheDone_andTimesOutWhenNobodyAnswers() throws Exception {
    try (ChildServer child = ChildServer.start()) {
      CallToolResult done = child.call("tether_send_stream", Map.of("instance", TestServerMain.INSTANCE, "text", "plain"));
      assertFalse(done.isError(), ChildServer.text(done));
      assertTrue(ChildServer.text(done).contains(ScriptedResponder.FIRST_PREFIX + "plain"));
      CallToolResult bad = child.call("tether_send_stream", Map.of("instance", TestServerMain.INSTANCE, "text", "x", "wait_ms", -1));
      assertTrue(bad.isError());
      assertEquals("INVALID_ARGUMENT", JSON.readTree(ChildServer.text(bad)).get("error").get("code").asText());
      CallToolResult unknown = child.call("tether_send_stream", Map.of("instance", "nobody", "text", "x", "wait_ms", 200));
      assertTrue(unknown.isError());
      assertEquals("INSTANCE_NOT_FOUND", JSON.readTree(ChildServer.text(unknown)).get("error").get("code").asText());
    }
  }
}
