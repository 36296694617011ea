package dev.tether.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ToolPayloadTest {
  private static final SessionKey SESSION = new SessionKey("coven", "t1");

  @Test
  void everyVariant_roundTripsThroughItsFrame() {
    List<ToolPayload> all = List.of(
        new ToolPayload.ToolUse("t-1", "draw_chart", RawJson.of("{\"values\":[1,2]}")),
        new ToolPayload.ToolResult("t-1", "drew it", false),
        new ToolPayload.ToolResult("t-2", "boom", true),
        new ToolPayload.ApprovalRequest("t-1", "draw_chart", RawJson.of("{}")),
        new ToolPayload.PackToolRequest("p-1", "weather", RawJson.of("{\"city\":\"Oslo\"}")),
        new ToolPayload.SessionInit("backend-42"),
        new ToolPayload.SessionOrphaned("the backend restarted"),
        ToolPayload.ApprovalAnswer.of("t-1", ToolPayload.Decision.APPROVE_ALL),
        new ToolPayload.ApprovalAnswer("t-1", ToolPayload.Decision.DENY, Optional.of("timed out")),
        ToolPayload.PackToolResult.success("p-1", RawJson.of("{\"temp\":3}")),
        ToolPayload.PackToolResult.failure("p-1", "no such tool"));
    for (ToolPayload p : all) {
      Frame frame = ToolPayload.frame(SESSION, "m-1", p);
      Frame back = FrameCodec.standard().read(FrameCodec.standard().write(frame));
      assertEquals(p, ToolPayload.read(back), p.frameType());
      assertInstanceOf(Payload.Other.class, back.payloadView(), "reference clients see them untouched");
    }
  }

  @Test
  void read_refusesMissingWrongAndDuplicateFields() {
    assertMalformed(FrameTypes.EVENT_TOOL_USE, "{\"name\":\"x\"}", "needs a string \"id\"");
    assertMalformed(FrameTypes.EVENT_TOOL_USE, "{\"id\":1,\"name\":\"x\"}", "id must be a string");
    assertMalformed(FrameTypes.EVENT_TOOL_USE, "{\"id\":\"a\",\"id\":\"b\",\"name\":\"x\"}", "uplicate field");
    assertMalformed(FrameTypes.EVENT_TOOL_RESULT, "{\"id\":\"a\",\"output\":\"o\",\"is_error\":\"yes\"}", "is_error");
    assertMalformed(FrameTypes.CONTROL_TOOL_APPROVAL, "{\"id\":\"a\",\"decision\":\"maybe\"}", "approve, deny or approve_all");
    assertMalformed(FrameTypes.CONTROL_PACK_TOOL_RESULT, "{\"id\":\"a\"}", "exactly one of output and error");
    assertMalformed(FrameTypes.CONTROL_PACK_TOOL_RESULT, "{\"id\":\"a\",\"output\":1,\"error\":\"e\"}", "exactly one");
    assertMalformed(FrameTypes.EVENT_TOOL_USE, "{\"id\":\"\",\"name\":\"x\"}", "id must be 1 to 128");
    assertMalformed(FrameTypes.EVENT_TOOL_USE, "{\"id\":\"a\\u0000b\",\"name\":\"x\"}", "control characters");
    assertMalformed(FrameTypes.EVENT_TOOL_USE, "[1]", "must be a JSON object");
  }

  @Test
  void read_refusesOversizedFieldsBeforeCopyingThem() {
    String input = "\"" + "a".repeat(ToolPayload.MAX_INPUT_BYTES) + "\"";
    assertMalformed(FrameTypes.EVENT_TOOL_USE, "{\"id\":\"a\",\"name\":\"x\",\"input\":" + input + "}", "input is");
    String output = "b".repeat(ToolPayload.MAX_OUTPUT_BYTES + 1);
    assertMalformed(FrameTypes.EVENT_TOOL_RESULT, "{\"id\":\"a\",\"output\":\"" + output + "\"}", "output is");
    String huge = "c".repeat(ToolPayload.MAX_PAYLOAD_BYTES);
    assertMalformed(FrameTypes.EVENT_SESSION_ORPHANED, "{\"reason\":\"" + huge + "\"}", "a tool payload may have at most");
  }

  @Test
  void idLimit_holdsForEveryLength() {
    qt().withExamples(200).withFixedSeed(33L).forAll(integers().between(0, 3 * ToolPayload.MAX_ID_CHARS))
        .checkAssert(n -> {
          String json = "{\"session_id\":\"" + "x".repeat(n) + "\"}";
          boolean ok = n >= 1 && n <= ToolPayload.MAX_ID_CHARS;
          if (ok) {
            assertEquals(n, ((ToolPayload.SessionInit) ToolPayload.read(FrameTypes.EVENT_SESSION_INIT, RawJson.of(json)))
                .sessionId().length());
          } else {
            assertThrows(TetherException.class, () -> ToolPayload.read(FrameTypes.EVENT_SESSION_INIT, RawJson.of(json)));
          }
        });
  }

  @Test
  void constructors_failFastNamingTheField() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> new ToolPayload.ToolUse("x".repeat(129), "n", RawJson.EMPTY_OBJECT));
    assertTrue(e.getMessage().startsWith("id must be 1 to 128"), e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> ToolPayload.read(FrameTypes.USER_MESSAGE, RawJson.EMPTY_OBJECT));
  }

  private static void assertMalformed(String type, String payload, String words) {
    TetherException e = assertThrows(TetherException.class, () -> ToolPayload.read(type, RawJson.of(payload)));
    assertEquals(ErrorCode.MALFORMED_FRAME, e.code());
    assertTrue(e.getMessage().contains(words), e.getMessage());
  }
}
