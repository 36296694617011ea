package dev.tether.images;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tether.api.ErrorCode;
import dev.tether.api.FrameTypes;
import dev.tether.api.RawJson;
import dev.tether.api.TetherException;
import dev.tether.api.ToolPayload;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/** The validator's own rules for the tool frame types, on wire bytes and on payloads. */
class ToolFrameValidationTest {
  private static final FrameValidator V = FrameValidator.standard();

  private static byte[] frame(String type, String payload) {
    return ("{\"v\":1,\"type\":\"" + type + "\",\"session\":{\"channel\":\"coven\",\"id\":\"t\"},"
        + "\"msg_id\":\"m\",\"payload\":" + payload + "}").getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void wellFormedToolFrames_pass() {
    assertDoesNotThrow(() -> V.validate(frame(FrameTypes.EVENT_TOOL_APPROVAL_REQUEST,
        "{\"id\":\"a1\",\"name\":\"draw\",\"input\":{\"values\":[1,2,3]},\"extra\":true}")));
    assertDoesNotThrow(() -> V.validate(frame(FrameTypes.CONTROL_TOOL_APPROVAL, "{\"id\":\"a1\",\"decision\":\"approve_all\"}")));
    assertDoesNotThrow(() -> V.validate(frame(FrameTypes.CONTROL_PACK_TOOL_RESULT, "{\"id\":\"p\",\"error\":\"nope\"}")));
    assertDoesNotThrow(() -> V.validatePayload(FrameTypes.EVENT_SESSION_INIT, RawJson.of("{\"session_id\":\"s\"}")));
    // Unknown types stay untouched, whatever their payload.
    assertDoesNotThrow(() -> V.validate(frame("event.something_else", "{\"id\":42}")));
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "{\"name\":\"draw\"}",
      "{\"id\":7,\"name\":\"draw\"}",
      "{\"id\":\"a\",\"name\":\"draw\",\"id\":\"b\"}",
      "{\"id\":\"a\\u001b[31m\",\"name\":\"draw\"}",
      "{\"id\":\"a\",\"name\":[\"draw\"]}"
  })
  void hostileApprovalRequests_areRefusedOnTheWire(String payload) {
    TetherException e = assertThrows(TetherException.class,
        () -> V.validate(frame(FrameTypes.EVENT_TOOL_APPROVAL_REQUEST, payload)));
    assertEquals(ErrorCode.MALFORMED_FRAME, e.code());
  }

  @Test
  void missingOrNullPayload_isRefusedForToolTypes() {
    byte[] none = "{\"v\":1,\"type\":\"control.tool_approval\"}".getBytes(StandardCharsets.UTF_8);
    TetherException e = assertThrows(TetherException.class, () -> V.validate(none));
    assertTrue(e.getMessage().contains("needs a payload"), e.getMessage());
    assertThrows(TetherException.class, () -> V.validate(frame(FrameTypes.CONTROL_TOOL_APPROVAL, "null")));
  }

  @Test
  void oversizedInputAndPayload_areRefusedWithTheirBound() {
    String input = "\"" + "x".repeat(ToolPayload.MAX_INPUT_BYTES) + "\"";
    TetherException e = assertThrows(TetherException.class, () -> V.validate(
        frame(FrameTypes.EVENT_TOOL_USE, "{\"id\":\"a\",\"name\":\"n\",\"input\":" + input + "}")));
    assertTrue(e.getMessage().contains("at most " + ToolPayload.MAX_INPUT_BYTES), e.getMessage());
    String big = "y".repeat(ToolPayload.MAX_PAYLOAD_BYTES);
    e = assertThrows(TetherException.class, () -> V.validate(
        frame(FrameTypes.EVENT_TOOL_RESULT, "{\"id\":\"a\",\"output\":\"" + big + "\"}")));
    assertTrue(e.getMessage().contains("a tool payload may have at most"), e.getMessage());
  }

  @Test
  void badDecisionAndBothResults_areRefused() {
    assertThrows(TetherException.class, () -> V.validate(frame(FrameTypes.CONTROL_TOOL_APPROVAL,
        "{\"id\":\"a\",\"decision\":\"APPROVE\"}")));
    assertThrows(TetherException.class, () -> V.validatePayload(FrameTypes.CONTROL_PACK_TOOL_RESULT,
        RawJson.of("{\"id\":\"a\",\"output\":{},\"error\":\"e\"}")));
  }
}
