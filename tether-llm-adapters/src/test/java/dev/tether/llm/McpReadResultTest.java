package dev.tether.llm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tether.api.ErrorCode;
import dev.tether.api.Frame;
import dev.tether.api.Frames;
import dev.tether.api.Image;
import dev.tether.api.Payload;
import dev.tether.api.SessionKey;
import dev.tether.api.TetherException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.Test;

class McpReadResultTest {
  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static final SessionKey SESSION = new SessionKey("host", "default");
  private static final Image PNG = new Image(dev.tether.api.MediaType.PNG, Fixtures.PNG_1X1);
  private static final Image JPEG = new Image(dev.tether.api.MediaType.JPEG, Fixtures.JPEG_2X1);
  private static final Image GIF = new Image(dev.tether.api.MediaType.GIF,
      Base64.getEncoder().encodeToString(Fixtures.gifOf(3, 2)));

  static List<Frame> twoDoneFramesAndADelta() {
    return List.of(
        Frames.assistantDone(SESSION, "req-1", "Here is the chart.", List.of(PNG, JPEG)).withSeq(5),
        Frames.assistantDelta(SESSION, "req-2", "Thinking").withSeq(6),
        Frames.assistantDone(SESSION, "req-2", "And a GIF.", List.of(GIF)).withSeq(7));
  }

  @Test
  void toContent_indexesCountImageItemsAcrossSeveralDoneFrames() throws Exception {
    List<McpContent> content = new McpReadResult(twoDoneFramesAndADelta(), 8, false).toContent();

    assertEquals(4, content.size());
    JsonNode json = MAPPER.readTree(((McpContent.Text) content.get(0)).text());
    assertEquals(8, json.get("next_seq").asLong());
    assertEquals(false, json.get("timed_out").asBoolean());
    JsonNode frames = json.get("frames");
    assertEquals(3, frames.size());
    assertEquals(MAPPER.readTree("[{\"_mcp_index\":0},{\"_mcp_index\":1}]"), frames.get(0).get("payload").get("images"));
    assertEquals(MAPPER.readTree("[{\"_mcp_index\":2}]"), frames.get(2).get("payload").get("images"));
    assertEquals("req-2", frames.get(2).get("msg_id").asText());
    assertEquals(7, frames.get(2).get("seq").asLong());
    assertEquals("Here is the chart.", frames.get(0).get("payload").get("text").asText());
    assertEquals(new McpContent.Image(PNG.data(), "image/png"), content.get(1));
    assertEquals(new McpContent.Image(JPEG.data(), "image/jpeg"), content.get(2));
    assertEquals(new McpContent.Image(GIF.data(), "image/gif"), content.get(3));
    assertTrue(!((McpContent.Text) content.get(0)).text().contains(Fixtures.PNG_1X1), "no base64 in the JSON text");
  }

  @Test
  void toContent_readsImagesInPlaceFromWireBytes_andEscapedDataAsItsJsonText() throws Exception {
    String wire = "{\"v\":1,\"type\":\"assistant.done\",\"seq\":3,\"payload\": { \"images\" : [ { \"data\" : \""
        + Fixtures.PNG_1X1 + "\" , \"media_type\" : \"image/png\" } , {\"media_type\":\"image/png\",\"data\":\"\\u0041B\\/\"\n},"
        + "{\"data\":\"\u00e9t\u00e9\",\"media_type\":\"image/png\"}\t] , \"text\" : \"three\" } }";
    Frame frame = dev.tether.api.FrameCodec.standard().read(wire.getBytes(java.nio.charset.StandardCharsets.UTF_8));
    List<McpContent> content = new McpReadResult(List.of(frame), 4, false).toContent();
    assertEquals(new McpContent.Image(Fixtures.PNG_1X1, "image/png"), content.get(1));
    assertEquals(new McpContent.Image("AB/", "image/png"), content.get(2));
    assertEquals(new McpContent.Image("\u00e9t\u00e9", "image/png"), content.get(3));
    JsonNode json = MAPPER.readTree(((McpContent.Text) content.get(0)).text());
    assertEquals(MAPPER.readTree("[{\"_mcp_index\":0},{\"_mcp_index\":1},{\"_mcp_index\":2}]"),
        json.get("frames").get(0).get("payload").get("images"));
    assertEquals("three", json.get("frames").get(0).get("payload").get("text").asText());
  }

  @Test
  void toContent_withoutImagesIsOneTextItem() throws Exception {
    Frame delta = Frames.assistantDelta(SESSION, "m", "hi").withSeq(1);
    List<McpContent> content = new McpReadResult(List.of(delta), 2, true).toContent();
    assertEquals(1, content.size());
    JsonNode json = MAPPER.readTree(((McpContent.Text) content.get(0)).text());
    assertEquals(true, json.get("timed_out").asBoolean());
    assertEquals("hi", json.get("frames").get(0).get("payload").get("text").asText());
  }

  @Test
  void fromContent_reattachesEachImageToItsFrame() {
    McpReadResult original = new McpReadResult(twoDoneFramesAndADelta(), 8, false);
    McpReadResult back = McpReadResult.fromContent(original.toContent());

    assertEquals(original, back);
    Payload.AssistantDone second = assertInstanceOf(Payload.AssistantDone.class, back.frames().get(2).payloadView());
    assertEquals(List.of(GIF), second.images());
  }

  @Test
  void toContent_writesGapAndOldestSeqOnlyWhenThereIsAGap() {
    // Same field names, order and rule as tether-cli's HTTP poll body (FrameJson.pollResult).
    String withoutGap = ((McpContent.Text) new McpReadResult(List.of(), 9, true).toContent().get(0)).text();
    String withGap = ((McpContent.Text) new McpReadResult(List.of(), 9, false, true, 4).toContent().get(0)).text();

    assertEquals("{\"frames\":[],\"next_seq\":9,\"timed_out\":true}", withoutGap);
    assertEquals("{\"frames\":[],\"next_seq\":9,\"timed_out\":false,\"gap\":true,\"oldest_seq\":4}", withGap);
  }

  @Test
  void fromContent_roundTripsWithAndWithoutAGap() {
    McpReadResult gap = new McpReadResult(twoDoneFramesAndADelta(), 8, true, true, 3);
    McpReadResult gapNothingRetained = new McpReadResult(List.of(), 8, false, true, 0);
    McpReadResult noGap = new McpReadResult(twoDoneFramesAndADelta(), 8, false);

    assertEquals(gap, McpReadResult.fromContent(gap.toContent()));
    assertEquals(gapNothingRetained, McpReadResult.fromContent(gapNothingRetained.toContent()));
    McpReadResult back = McpReadResult.fromContent(noGap.toContent());
    assertEquals(noGap, back);
    assertEquals(false, back.gap());
    assertEquals(0, back.oldestSeq());
  }

  @Test
  void constructor_rejectsAnOldestSeqThatIsNegativeOrHasNoGap() {
    IllegalArgumentException noGap = assertThrows(IllegalArgumentException.class,
        () -> new McpReadResult(List.of(), 1, false, false, 2));
    assertEquals("oldestSeq is only set with gap but was 2", noGap.getMessage());
    IllegalArgumentException negative = assertThrows(IllegalArgumentException.class,
        () -> new McpReadResult(List.of(), 1, false, true, -1));
    assertEquals("oldestSeq must be >= 0 but was -1", negative.getMessage());
  }

  @Test
  void fromContent_rejectsMalformedGapFields() {
    assertTrue(rejected("{\"frames\":[],\"next_seq\":1,\"gap\":1,\"oldest_seq\":1}").getMessage()
        .contains("gap must be true or false"));
    assertTrue(rejected("{\"frames\":[],\"next_seq\":1,\"gap\":true,\"oldest_seq\":-3}").getMessage()
        .contains("oldest_seq must be a non-negative integer"));
    assertTrue(rejected("{\"frames\":[],\"next_seq\":1,\"gap\":true,\"oldest_seq\":\"3\"}").getMessage()
        .contains("oldest_seq must be a non-negative integer"));
    assertTrue(rejected("{\"frames\":[],\"next_seq\":1,\"gap\":true}").getMessage().contains("only gap"));
    assertTrue(rejected("{\"frames\":[],\"next_seq\":1,\"oldest_seq\":3}").getMessage().contains("only oldest_seq"));
    assertTrue(rejected("{\"frames\":[],\"next_seq\":1,\"gap\":false,\"oldest_seq\":0}").getMessage()
        .contains("only oldest_seq"));
    assertEquals(new McpReadResult(List.of(), 1, false),
        McpReadResult.fromContent(List.of(new McpContent.Text("{\"frames\":[],\"next_seq\":1,\"gap\":false}"))));
  }

  @Test
  void fromContent_ignoresItemsThatAreNeitherFirstTextNorImage() {
    List<McpContent> content = new ArrayList<>(new McpReadResult(twoDoneFramesAndADelta(), 8, false).toContent());
    content.add(new McpContent.Text("a trailing note"));
    assertEquals(3, McpReadResult.fromContent(content).frames().size());
  }

  private static TetherException rejected(String json, McpContent... images) {
    List<McpContent> content = new ArrayList<>();
    content.add(new McpContent.Text(json));
    content.addAll(List.of(images));
    return assertThrows(TetherException.class, () -> McpReadResult.fromContent(content));
  }

  private static String doneWith(String images) {
    return "{\"frames\":[{\"v\":1,\"type\":\"assistant.done\",\"seq\":3,\"payload\":{\"text\":\"x\",\"images\":" + images
        + "}}],\"next_seq\":4}";
  }

  private static McpContent.Image png() {
    return new McpContent.Image(Fixtures.PNG_1X1, "image/png");
  }

  @Test
  void fromContent_rejectsHostileAndMalformedResults() {
    assertEquals(ErrorCode.MALFORMED_FRAME,
        assertThrows(TetherException.class, () -> McpReadResult.fromContent(List.of(png()))).code());
    assertEquals(ErrorCode.MALFORMED_FRAME,
        assertThrows(TetherException.class, () -> McpReadResult.fromContent(List.of())).code());
    assertTrue(rejected(doneWith("[{\"_mcp_index\":1}]"), png()).getMessage().contains("points past"));
    assertTrue(rejected(doneWith("[{\"_mcp_index\":-1}]"), png()).getMessage().contains("points past"));
    assertTrue(rejected(doneWith("[{\"_mcp_index\":0},{\"_mcp_index\":0}]"), png()).getMessage().contains("used by two"));
    assertTrue(rejected(doneWith("[]"), png()).getMessage().contains("not referenced"));
    assertTrue(rejected(doneWith("[{\"_mcp_index\":0,\"data\":\"AAAA\"}]"), png()).getMessage().contains("exactly"));
    assertTrue(rejected(doneWith("[{\"_mcp_index\":\"0\"}]"), png()).getMessage().contains("exactly"));
    assertTrue(rejected(doneWith("[{\"_mcp_index\":99999999999}]"), png()).getMessage().contains("exactly"));
    assertTrue(rejected(doneWith("[0]"), png()).getMessage().contains("stubs"));
    assertEquals(ErrorCode.UNSUPPORTED_MEDIA_TYPE,
        rejected(doneWith("[{\"_mcp_index\":0}]"), new McpContent.Image("AAAA", "image/svg+xml")).code());
    assertTrue(rejected("not json").getMessage().contains("not valid JSON"));
    assertTrue(rejected("[]").getMessage().contains("object"));
    assertTrue(rejected("{\"frames\":{},\"next_seq\":1}").getMessage().contains("array"));
    assertTrue(rejected("{\"frames\":[]}").getMessage().contains("required"));
    assertTrue(rejected("{\"frames\":[],\"next_seq\":-1}").getMessage().contains("non-negative"));
    assertTrue(rejected("{\"frames\":[],\"next_seq\":1.5}").getMessage().contains("non-negative"));
    assertTrue(rejected("{\"frames\":[],\"next_seq\":1,\"timed_out\":\"no\"}").getMessage().contains("true or false"));
    assertTrue(rejected("{\"frames\":[],\"next_seq\":1} {}").getMessage().contains("more than one"));
    assertTrue(rejected("{\"frames\":[7],\"next_seq\":1}").getMessage().contains("object"));
    assertEquals(ErrorCode.MALFORMED_FRAME, rejected("{\"frames\":[{\"seq\":1}],\"next_seq\":1}").code());
    assertEquals(ErrorCode.MALFORMED_FRAME, rejected("{\"frames\":[],\"frames\":[],\"next_seq\":1}").code());
    assertEquals(ErrorCode.MALFORMED_FRAME, rejected("[".repeat(10_000)).code());
    String deep = "{\"frames\":[{\"type\":\"x\",\"payload\":{\"a\":" + "[".repeat(5_000) + "]".repeat(5_000) + "}}],\"next_seq\":1}";
    assertEquals(ErrorCode.MALFORMED_FRAME, rejected(deep).code());
  }

  @Test
  void fromContent_enforcesTheWireFrameLimitOnRebuiltFrames() {
    // A stub whose image is 29 MiB of base64 rebuilds a frame over MaxFrameBytes (28 MiB).
    McpContent.Image huge = new McpContent.Image("A".repeat(29 << 20), "image/png");
    assertEquals(ErrorCode.FRAME_TOO_LARGE, rejected(doneWith("[{\"_mcp_index\":0}]"), huge).code());
  }

  @Test
  void aBlobRefTheReaderCouldNotFetch_isShownAsTheRef_andRoundTrips() throws Exception {
    String key = "ab".repeat(32) + ".png";
    Frame inline = Frames.assistantDone(SESSION, "req-1", "x", List.of(JPEG)).withSeq(3);
    McpReadResult result = new McpReadResult(List.of(refOnly(key), inline), 4, false);

    List<McpContent> content = result.toContent();

    assertEquals(2, content.size(), "one image item: the inline JPEG");
    JsonNode images = MAPPER.readTree(((McpContent.Text) content.get(0)).text()).at("/frames/0/payload/images/0");
    assertEquals(key, images.get("blob").asText());
    assertEquals(result, McpReadResult.fromContent(content));
  }

  private static Frame refOnly(String key) {
    return dev.tether.api.FrameCodec.standard().read(("{\"v\":1,\"type\":\"assistant.done\",\"seq\":2,"
        + "\"session\":{\"channel\":\"host\",\"id\":\"s\"},\"reply_to_msg_id\":\"req-1\",\"payload\":{\"text\":\"gone\","
        + "\"images\":[{\"media_type\":\"image/png\",\"blob\":\"" + key + "\",\"size\":8}]}}").getBytes(java.nio.charset.StandardCharsets.UTF_8));
  }
}
