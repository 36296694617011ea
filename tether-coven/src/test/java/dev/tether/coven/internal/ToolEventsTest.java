package dev.tether.coven.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tether.api.ToolPayload;
import dev.tether.coven.internal.proto.PackToolResult;
import dev.tether.coven.internal.proto.ToolApprovalResponse;
import org.junit.jupiter.api.Test;

/** The gateway's hostile or odd answers, mapped to tool frames the wire can carry. */
class ToolEventsTest {
  @Test
  void packOutputThatIsNotJson_travelsAsAJsonString() {
    ToolPayload.PackToolResult r = ToolEvents.result(PackToolResult.newBuilder().setRequestId("p").setOutputJson("plain \"text\"").build());
    assertEquals("\"plain \\\"text\\\"\"", r.output().orElseThrow().toString());
  }

  @Test
  void oversizedOrEmptyResults_becomeFailuresThatSayWhy() {
    String huge = "\"" + "x".repeat(ToolPayload.MAX_OUTPUT_BYTES) + "\"";
    ToolPayload.PackToolResult big = ToolEvents.result(PackToolResult.newBuilder().setRequestId("p").setOutputJson(huge).build());
    assertTrue(big.error().orElseThrow().startsWith("the pack tool's result could not be passed on: output is"), big.toString());
    ToolPayload.PackToolResult empty = ToolEvents.result(PackToolResult.newBuilder().setRequestId("p").build());
    assertTrue(empty.error().orElseThrow().contains("neither output nor error"));
    ToolPayload.PackToolResult longError = ToolEvents.result(PackToolResult.newBuilder().setRequestId("p").setError("e".repeat(10_000)).build());
    assertEquals(ToolPayload.MAX_TEXT_CHARS, longError.error().orElseThrow().length());
  }

  @Test
  void approveAll_winsOverApproved_andNeitherIsDeny() {
    assertEquals(ToolPayload.Decision.APPROVE_ALL, ToolEvents.decision(ToolApprovalResponse.newBuilder().setApproveAll(true).build()));
    assertEquals(ToolPayload.Decision.APPROVE, ToolEvents.decision(ToolApprovalResponse.newBuilder().setApproved(true).build()));
    assertEquals(ToolPayload.Decision.DENY, ToolEvents.decision(ToolApprovalResponse.newBuilder().build()));
  }
}
