package dev.tether.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import java.awt.Color;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Bad tool calls, over the stdio of a child server: each is a tool result with
 * {@code isError: true} carrying a code (and the image index where one image is at fault), and the
 * server keeps serving afterwards. Invalid messages are never stored.
 */
class BadInputTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String INSTANCE = TestServerMain.INSTANCE;
  @RegisterExtension
  static final ChildServerPerClass server = new ChildServerPerClass();

  static Stream<Arguments> badCalls() {
    Map<String, Object> png = TestImages.png(Color.GREEN);
    String pngData = (String) png.get("data");
    return Stream.of(
        // Arguments: missing, extra, wrongly typed.
        bad("send without instance", "tether_send", Map.of("text", "hi"), "INVALID_ARGUMENT", null, "instance"),
        bad("send without text", "tether_send", Map.of("instance", INSTANCE), "INVALID_ARGUMENT", null, "text"),
        bad("send with no arguments", "tether_send", Map.of(), "INVALID_ARGUMENT", null, "instance"),
        bad("send with an extra argument", "tether_send", Map.of("instance", INSTANCE, "text", "hi", "priority", 1),
            "INVALID_ARGUMENT", null, "'priority'"),
        bad("send with numeric text", "tether_send", Map.of("instance", INSTANCE, "text", 42),
            "INVALID_ARGUMENT", null, "text must be a string"),
        bad("send with images as a string", "tether_send", Map.of("instance", INSTANCE, "text", "hi", "images", pngData),
            "INVALID_ARGUMENT", null, "images must be an array"),
        bad("send with an image that is a string", "tether_send",
            Map.of("instance", INSTANCE, "text", "hi", "images", List.of(pngData)), "INVALID_ARGUMENT", null, "images[0]"),
        bad("send with a ref instead of data", "tether_send", Map.of("instance", INSTANCE, "text", "hi",
            "images", List.of(Map.of("media_type", "image/png", "ref", "sha256:00"))), "INVALID_ARGUMENT", null, "'ref'"),
        bad("send with an empty instance", "tether_send", Map.of("instance", "", "text", "hi"),
            "INVALID_ARGUMENT", null, "instance"),
        bad("read with a string cursor", "tether_read", Map.of("instance", INSTANCE, "after_seq", "5"),
            "INVALID_ARGUMENT", null, "after_seq must be a whole number"),
        bad("read with a fractional wait", "tether_read", Map.of("instance", INSTANCE, "wait_ms", 1.5),
            "INVALID_ARGUMENT", null, "wait_ms"),
        bad("read with a negative cursor", "tether_read", Map.of("instance", INSTANCE, "after_seq", -1),
            "INVALID_ARGUMENT", null, "after_seq"),
        bad("read with types as a string", "tether_read", Map.of("instance", INSTANCE, "types", "assistant.done"),
            "INVALID_ARGUMENT", null, "types must be an array"),
        bad("read with a numeric type", "tether_read", Map.of("instance", INSTANCE, "types", List.of(7)),
            "INVALID_ARGUMENT", null, "types[0]"),
        bad("read with an extra argument", "tether_read", Map.of("instance", INSTANCE, "cursor", 3),
            "INVALID_ARGUMENT", null, "'cursor'"),
        // Images that break the wire rules.
        bad("five images", "tether_send", Map.of("instance", INSTANCE, "text", "hi",
            "images", Collections.nCopies(5, png)), "TOO_MANY_IMAGES", null, "5 images"),
        bad("bad base64 in the second image", "tether_send", Map.of("instance", INSTANCE, "text", "hi",
            "images", List.of(png, TestImages.arg("image/png", pngData.substring(0, 12) + "*" + pngData.substring(13)))),
            "INVALID_BASE64", 1, "image 1"),
        bad("a data URI", "tether_send", Map.of("instance", INSTANCE, "text", "hi",
            "images", List.of(TestImages.arg("image/png", "data:image/png;base64," + pngData))),
            "DATA_URI_NOT_ALLOWED", 0, "data:"),
        bad("a PNG declared as JPEG", "tether_send", Map.of("instance", INSTANCE, "text", "hi",
            "images", List.of(TestImages.arg("image/jpeg", pngData))), "MEDIA_TYPE_MISMATCH", 0, "image/png"),
        bad("an unsupported media type", "tether_send", Map.of("instance", INSTANCE, "text", "hi",
            "images", List.of(TestImages.arg("image/bmp", pngData))), "UNSUPPORTED_MEDIA_TYPE", 0, "image/bmp"),
        bad("an oversized image", "tether_send", Map.of("instance", INSTANCE, "text", "hi",
            "images", List.of(TestImages.arg("image/png", oversizedPng()))), "IMAGE_TOO_LARGE", 0, "10 MiB"),
        // Unknown instance, on both tools.
        bad("send to an unknown instance", "tether_send", Map.of("instance", "no-such-vm", "text", "hi"),
            "INSTANCE_NOT_FOUND", null, "no-such-vm"),
        bad("read from an unknown instance", "tether_read", Map.of("instance", "no-such-vm"),
            "INSTANCE_NOT_FOUND", null, "no-such-vm"));
  }

  private static Arguments bad(String name, String tool, Map<String, Object> args, String code, Integer imageIndex,
      String mentions) {
    return Arguments.of(name, tool, args, code, imageIndex, mentions);
  }

  /** A PNG signature followed by zeros: one byte over the 10 MiB image limit. */
  private static String oversizedPng() {
    byte[] bytes = new byte[(10 << 20) + 1];
    byte[] signature = {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    System.arraycopy(signature, 0, bytes, 0, signature.length);
    return Base64.getEncoder().encodeToString(bytes);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("badCalls")
  void badCall_isACodedToolErrorAndTheServerKeepsServing(
      String name, String tool, Map<String, Object> args, String code, Integer imageIndex, String mentions)
      throws Exception {
    CallToolResult result = server.call(tool, args);

    assertTrue(result.isError(), name + ": " + ChildServer.text(result));
    JsonNode error = JSON.readTree(ChildServer.text(result)).get("error");
    assertEquals(code, error.get("code").asText(), error.toString());
    String message = error.get("message").asText();
    assertTrue(message.contains(mentions), "message should mention '" + mentions + "': " + message);
    if (imageIndex == null) {
      assertFalse(error.has("image_index"), error.toString());
    } else {
      assertEquals(imageIndex.intValue(), error.get("image_index").asInt(), error.toString());
    }
    assertServing();
  }

  @Test
  void rejectedSends_storeNothing() throws Exception {
    long before = sendAndAwaitAnswers("before");
    for (Arguments arguments : badCalls().toList()) {
      if ("tether_send".equals(arguments.get()[1])) {
        assertTrue(server.call("tether_send", castArgs(arguments.get()[2])).isError());
      }
    }
    long after = sendAndAwaitAnswers("after");
    // One presence and two answers follow each accepted message; nothing else took a seq.
    assertEquals(before + 4, after);
  }

  @Test
  void imageBeyondJacksonsDefaultStringLimit_isStillACodedToolError() throws Exception {
    // 15 MiB decoded is 20,971,520 base64 characters: over Jackson's default 20,000,000-character
    // string limit, which would fail the whole JSON-RPC line instead of giving a tool error.
    byte[] bytes = new byte[15 << 20];
    byte[] signature = {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    System.arraycopy(signature, 0, bytes, 0, signature.length);
    String data = Base64.getEncoder().encodeToString(bytes);
    CallToolResult result = server.call("tether_send",
        Map.of("instance", INSTANCE, "text", "big", "images", List.of(TestImages.arg("image/png", data))));
    assertTrue(result.isError(), ChildServer.text(result));
    assertEquals("IMAGE_TOO_LARGE", JSON.readTree(ChildServer.text(result)).get("error").get("code").asText());
    assertServing();
  }

  @Test
  void unknownTool_isAProtocolErrorAndTheServerKeepsServing() throws Exception {
    McpError error = assertThrows(McpError.class, () -> server.client()
        .callTool(CallToolRequest.builder("tether_explode").arguments(Map.of()).build())
        .block(ChildServer.TIMEOUT));
    assertTrue(String.valueOf(error.getJsonRpcError().data()).contains("tether_explode"), error.toString());
    assertServing();
  }

  @Test
  void nullArguments_areReportedAsMissing() throws Exception {
    Map<String, Object> args = new HashMap<>();
    args.put("instance", null);
    args.put("text", "hi");
    CallToolResult result = server.call("tether_send", args);
    assertTrue(result.isError());
    assertEquals("INVALID_ARGUMENT", JSON.readTree(ChildServer.text(result)).get("error").get("code").asText());
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> castArgs(Object args) {
    return (Map<String, Object>) args;
  }

  private static long sendAndAwaitAnswers(String session) throws Exception {
    CallToolResult sent = server.call("tether_send", Map.of("instance", INSTANCE, "session_id", session, "text", "hi"));
    assertFalse(sent.isError(), ChildServer.text(sent));
    JsonNode receipt = JSON.readTree(ChildServer.text(sent));
    long seq = receipt.get("ingress_seq").asLong();
    List<JsonNode> frames = new ArrayList<>();
    long cursor = seq;
    while (frames.size() < 3) {
      Map<String, Object> args = new LinkedHashMap<>();
      args.put("instance", INSTANCE);
      args.put("session_id", session);
      args.put("after_seq", cursor);
      args.put("wait_ms", 10_000);
      JsonNode body = JSON.readTree(ChildServer.text(server.call("tether_read", args)));
      body.get("frames").forEach(frames::add);
      cursor = body.get("next_seq").asLong();
    }
    return seq;
  }

  private static void assertServing() throws Exception {
    CallToolResult ok = server.call("tether_read", Map.of("instance", INSTANCE, "session_id", "health"));
    assertFalse(ok.isError(), ChildServer.text(ok));
    assertEquals(0, JSON.readTree(ChildServer.text(ok)).get("frames").size());
  }
}
