package dev.tether.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Every JSON example of the two specs (copied into {@code src/test/resources/golden/}, see its
 * README) parses and re-serialises to equivalent JSON. Equivalence is equality of Jackson
 * databind trees: field order and whitespace do not matter, names, values and types do.
 */
class GoldenExamplesTest {
  /** Strict, so that a golden file with a duplicate key or trailing content fails here too. */
  private static final ObjectMapper JSON = JsonMapper.builder()
      .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
      .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
      .build();
  private static final FrameCodec CODEC = FrameCodec.standard();

  static byte[] golden(String name) throws IOException {
    try (InputStream in = GoldenExamplesTest.class.getResourceAsStream("/golden/" + name)) {
      assertNotNull(in, "missing golden file " + name);
      return in.readAllBytes();
    }
  }

  private static JsonNode tree(byte[] json) throws IOException {
    return JSON.readTree(json);
  }

  private static JsonNode tree(RawJson json) throws IOException {
    return JSON.readTree(json.toByteArray());
  }

  /** A frame of {@code type} whose payload is the golden file's bytes, verbatim. */
  private static byte[] wrap(String type, byte[] payload) {
    byte[] head = ("{\"v\":1,\"type\":\"" + type + "\",\"payload\":").getBytes(StandardCharsets.UTF_8);
    byte[] frame = new byte[head.length + payload.length + 1];
    System.arraycopy(head, 0, frame, 0, head.length);
    System.arraycopy(payload, 0, frame, head.length, payload.length);
    frame[frame.length - 1] = '}';
    return frame;
  }

  /** Reads a frame, writes it, and checks both the codec's copy and the typed view's canonical form. */
  private static Frame assertFrameRoundTrips(byte[] wire) throws IOException {
    JsonNode expected = tree(wire);
    Frame frame = CODEC.read(wire);
    assertEquals(frame, CODEC.read(new ByteArrayInputStream(wire)));
    assertEquals(expected, tree(CODEC.write(frame)), "codec re-serialisation");
    Payload view = frame.payloadView();
    Frame canonical = frame.toBuilder().payload(view).build();
    assertEquals(expected, tree(CODEC.write(canonical)), "typed view re-serialisation");
    assertEquals(view, canonical.payloadView());
    return frame;
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource({
      "image-support-2.1-user-message-before.json, user.message",
      "image-support-2.1-user-message-after.json, user.message",
      "image-support-2.2-assistant-done-before.json, assistant.done",
      "image-support-2.2-assistant-done-after.json, assistant.done",
      "host-agent-5-presence-payload.json, status.presence"})
  void payloadExamples_parseAndReserialiseEquivalently(String file, String type) throws IOException {
    byte[] payload = golden(file);
    Frame frame = assertFrameRoundTrips(wrap(type, payload));
    // The raw payload is carried byte for byte; the canonical form is equivalent JSON.
    assertEquals(new String(payload, StandardCharsets.UTF_8).strip(), frame.payload().toString());
    Frame canonical = Frame.builder(type).payload(frame.payloadView()).build();
    assertEquals(tree(payload), tree(canonical.payload()));
  }

  @Test
  void userMessageAfter_hasTheModelledParts() throws IOException {
    Payload.UserMessage m = (Payload.UserMessage) CODEC.read(wrap("user.message",
        golden("image-support-2.1-user-message-after.json"))).payloadView();
    assertEquals("Analyze this chart", m.text());
    assertEquals(List.of(new Image(MediaType.PNG, "<base64>")), m.images());
    assertEquals(new User("123", "Alice"), m.user().orElseThrow());
    assertTrue(m.extra().isEmpty());
  }

  @Test
  void imageObject_readsAndWritesBackEqual() throws IOException {
    byte[] image = golden("image-support-2.4-image-object.json");
    byte[] payload = ("{\"text\":\"\",\"images\":[" + new String(image, StandardCharsets.UTF_8) + "]}").getBytes(StandardCharsets.UTF_8);
    Frame frame = assertFrameRoundTrips(wrap("user.message", payload));
    Payload.UserMessage m = (Payload.UserMessage) frame.payloadView();
    assertEquals(List.of(new Image(MediaType.PNG, "iVBORw0KGgo...")), m.images());
    JsonNode written = tree(Frame.builder("user.message").payload(m).build().payload()).get("images").get(0);
    assertEquals(tree(image), written);
  }

  @Test
  void reservedRef_withoutData_isRejectedAndWithDataIsIgnored() throws IOException {
    byte[] ref = golden("image-support-2.6-reserved-ref.json");
    JsonNode refTree = tree(ref);
    assertEquals(Set.of("media_type", "ref", "size"), fieldNames(refTree));
    String image = new String(ref, StandardCharsets.UTF_8);

    Frame refOnly = CODEC.read(wrap("user.message", ("{\"text\":\"\",\"images\":[" + image + "]}").getBytes(StandardCharsets.UTF_8)));
    TetherException e = assertThrows(TetherException.class, refOnly::payloadView);
    assertEquals(ErrorCode.MALFORMED_FRAME, e.code());
    assertEquals(0, e.imageIndex().orElseThrow());
    assertTrue(e.getMessage().contains("\"ref\" is reserved"), e.getMessage());

    ObjectNode withData = ((ObjectNode) refTree.deepCopy()).put("data", "iVBORw0KGgo=");
    byte[] payload = ("{\"text\":\"\",\"images\":[" + JSON.writeValueAsString(withData) + "]}").getBytes(StandardCharsets.UTF_8);
    Payload view = CODEC.read(wrap("assistant.done", payload)).payloadView();
    JsonNode written = tree(Frame.builder("assistant.done").payload(view).build().payload()).get("images").get(0);
    withData.remove(List.of("ref", "size"));
    assertEquals(withData, written);
  }

  @Test
  void tetherReadMcpResult_parsesAndTheFrameInsideRoundTrips() throws IOException {
    JsonNode result = tree(golden("image-support-3.2-tether-read-mcp-result.json"));
    JsonNode content = result.get("content");
    assertEquals(3, content.size());
    assertEquals("text", content.get(0).get("type").asText());
    JsonNode inner = tree(content.get(0).get("text").asText().getBytes(StandardCharsets.UTF_8));
    assertEquals(5, inner.get("next_seq").asInt());
    JsonNode frames = inner.get("frames");
    assertEquals(1, frames.size());
    // The spec's example omits v, which the wire requires: refused as is, read once v is set.
    assertMissingVersionIsRefused(JSON.writeValueAsBytes(frames.get(0)));
    ObjectNode versioned = withVersion(frames.get(0));
    Frame frame = CODEC.read(JSON.writeValueAsBytes(versioned));
    assertEquals("assistant.done", frame.type());
    assertEquals(5, frame.seq());
    assertEquals("resp-1", frame.msgId().orElseThrow());
    assertEquals(versioned, tree(CODEC.write(frame)));
    // The {"_mcp_index": N} stubs are MCP output, not wire images: a typed view refuses them.
    TetherException e = assertThrows(TetherException.class, frame::payloadView);
    assertEquals(ErrorCode.UNSUPPORTED_MEDIA_TYPE, e.code());
    assertEquals(0, e.imageIndex().orElseThrow());
    // The image items name media types the wire supports.
    for (int i = 1; i < content.size(); i++) {
      assertEquals("image", content.get(i).get("type").asText());
      assertTrue(MediaType.parse(content.get(i).get("mimeType").asText()).isPresent());
    }
  }

  @Test
  void tetherReadOutput_everyFrameInsideRoundTrips() throws IOException {
    JsonNode result = tree(golden("host-agent-2-tether-read-output.json"));
    assertEquals(Set.of("frames", "next_seq", "timed_out"), fieldNames(result));
    List<String> types = new ArrayList<>();
    long maxSeq = 0;
    for (JsonNode node : result.get("frames")) {
      // The spec's frames omit v, which the wire requires: refused as is, read once v is set.
      assertMissingVersionIsRefused(JSON.writeValueAsBytes(node));
      Frame frame = assertFrameRoundTrips(JSON.writeValueAsBytes(withVersion(node)));
      types.add(frame.type());
      maxSeq = Math.max(maxSeq, frame.seq());
      assertTrue(frame.ts().isPresent());
    }
    assertEquals(List.of("status.presence", "assistant.delta", "assistant.done"), types);
    assertEquals(result.get("next_seq").asLong(), maxSeq);
    assertFalse(result.get("timed_out").asBoolean());
  }

  /** The spec example with {@code "v": 1} put first, as every frame on the wire must carry it. */
  private static ObjectNode withVersion(JsonNode frame) {
    ObjectNode versioned = JSON.createObjectNode().put("v", 1);
    versioned.setAll((ObjectNode) frame);
    return versioned;
  }

  private static void assertMissingVersionIsRefused(byte[] wire) {
    TetherException e = assertThrows(TetherException.class, () -> CODEC.read(wire));
    assertEquals(ErrorCode.MALFORMED_FRAME, e.code());
    assertEquals(dev.tether.api.internal.WireRules.VERSION_MISSING, e.getMessage());
  }

  @Test
  void pollResponse_parses() throws IOException {
    JsonNode result = tree(golden("host-agent-4-poll-response.json"));
    assertEquals(Set.of("frames", "next_seq", "timed_out"), fieldNames(result));
    assertTrue(result.get("frames").isArray());
    assertEquals(12, result.get("next_seq").asInt());
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource({
      "image-support-3.1-tether-send-schema.json, tether_send",
      "host-agent-2-tether-send-schema.json, tether_send",
      "host-agent-2-tether-read-schema.json, tether_read"})
  void mcpSchemas_parseAndReserialise(String file, String name) throws IOException {
    JsonNode schema = tree(golden(file));
    assertEquals(schema, tree(JSON.writeValueAsBytes(schema)));
    assertEquals(name, schema.get("name").asText());
    assertEquals("object", schema.at("/inputSchema/type").asText());
    assertTrue(schema.at("/inputSchema/required").toString().contains("\"instance\""));
  }

  @Test
  void tetherSendSchema_imageItemsMatchTheWireImage() throws IOException {
    JsonNode items = tree(golden("image-support-3.1-tether-send-schema.json")).at("/inputSchema/properties/images/items");
    assertEquals(Set.of("media_type", "data"), fieldNames(items.get("properties")));
    assertEquals("[\"media_type\",\"data\"]", items.get("required").toString());
    for (MediaType type : MediaType.values()) {
      assertTrue(items.at("/properties/media_type/description").asText().contains(type.mimeType()), type.mimeType());
    }
  }

  @Test
  void llmContentBlocks_parseAndNameASupportedType() throws IOException {
    JsonNode claude = tree(golden("image-support-4.2-claude-content.json"));
    assertEquals(claude, tree(JSON.writeValueAsBytes(claude)));
    assertTrue(MediaType.parse(claude.at("/content/1/source/media_type").asText()).isPresent());
    assertEquals("base64", claude.at("/content/1/source/type").asText());

    JsonNode openai = tree(golden("image-support-4.2-openai-content.json"));
    String url = openai.at("/content/1/image_url/url").asText();
    assertTrue(url.startsWith("data:image/png;base64,"), url);
    assertTrue(MediaType.parse(url.substring(5, url.indexOf(';'))).isPresent());
  }

  @Test
  void sessionLine_parses() throws IOException {
    byte[] line = golden("image-support-4.3-session-line.jsonl");
    JsonNode node = tree(line);
    assertEquals("user", node.get("role").asText());
    assertEquals(MediaType.PNG, MediaType.of(node.at("/content/1/media_type").asText()));
    assertEquals(1, new String(line, StandardCharsets.UTF_8).strip().lines().count(), "one JSON line");
  }

  private static Set<String> fieldNames(JsonNode node) {
    Set<String> names = new java.util.HashSet<>();
    node.fieldNames().forEachRemaining(names::add);
    return names;
  }
}
