package dev.tether.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tether.api.Frame;
import dev.tether.api.Frames;
import dev.tether.api.Image;
import dev.tether.api.MediaType;
import dev.tether.api.SessionKey;
import dev.tether.client.FramePage;
import dev.tether.client.PollRequest;
import dev.tether.llm.McpContent;
import dev.tether.llm.McpReadResult;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.ImageContent;
import io.modelcontextprotocol.spec.McpSchema.TextContent;
import java.awt.Color;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The conversion of a read into MCP content, and the arguments the tool passes to the client. */
class ReadToolTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @Test
  void toResult_withGap_keepsStubsAndAddsTheEvictionReport() throws Exception {
    Image gif = new Image(MediaType.GIF, TestImages.base64("gif", 2, 2, Color.RED));
    Frame done = Frames.assistantDone(SessionKey.host("s"), "m", "chart", List.of(gif)).withSeq(7);

    CallToolResult result = ReadTool.toResult(new FramePage(List.of(done), 7, false, true, 5));

    JsonNode body = JSON.readTree(((TextContent) result.content().get(0)).text());
    assertEquals(true, body.get("gap").asBoolean());
    assertEquals(5, body.get("oldest_seq").asLong());
    assertEquals(7, body.get("next_seq").asLong());
    assertEquals(0, body.get("frames").get(0).get("payload").get("images").get(0).get("_mcp_index").asInt());
    ImageContent image = assertInstanceOf(ImageContent.class, result.content().get(1));
    assertEquals(new ImageContent(null, gif.data(), "image/gif", null), image);
    McpReadResult back = McpReadResult.fromContent(List.of(
        new McpContent.Text(((TextContent) result.content().get(0)).text()),
        new McpContent.Image(image.data(), image.mimeType())));
    assertEquals(new McpReadResult(List.of(done), 7, false, true, 5), back);
  }

  @Test
  void toResult_endsTheObjectWithGapAndOldestSeqOnlyWhenThereIsAGap() {
    Frame delta = Frames.assistantDelta(SessionKey.host("s"), "m", "hi").withSeq(9);

    String noGap = ((TextContent) ReadTool.toResult(new FramePage(List.of(delta), 9, true, false, 0))
        .content().get(0)).text();
    String gap = ((TextContent) ReadTool.toResult(new FramePage(List.of(), 9, false, true, 4))
        .content().get(0)).text();

    assertTrue(noGap.endsWith("],\"next_seq\":9,\"timed_out\":true}"), noGap);
    assertFalse(noGap.contains("\"gap\""), noGap);
    assertFalse(noGap.contains("oldest_seq"), noGap);
    assertEquals("{\"frames\":[],\"next_seq\":9,\"timed_out\":false,\"gap\":true,\"oldest_seq\":4}", gap);
  }

  @Test
  void call_passesClampedLimitsAndDefaultsToTheClient() {
    RecordingClient client = new RecordingClient();
    ReadTool tool = new ReadTool(client);

    tool.call(Map.of("instance", "vm")).join();
    tool.call(Map.of("instance", "vm", "session_id", "x", "after_seq", 9, "limit", 5000, "wait_ms", 90_000,
        "types", List.of("assistant.done"), "reply_to_msg_id", "host-1")).join();

    assertEquals(new PollRequest("host", "default", 0, 50, 0, java.util.Set.of(), null), client.polls.get(0));
    assertEquals(new PollRequest("host", "x", 9, 200, 30_000, java.util.Set.of("assistant.done"), "host-1"),
        client.polls.get(1));
  }

  @Test
  void builder_failsFastOnABlankVersion() {
    TetherMcpServer.Builder builder = TetherMcpServer.builder(new RecordingClient());
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> builder.version(" "));
    assertEquals("version must not be blank but was ' '", e.getMessage());
    assertThrows(NullPointerException.class, () -> TetherMcpServer.builder(null));
  }
}
