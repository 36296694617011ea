package dev.tether.coven.internal;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tether.api.RawJson;
import dev.tether.api.TetherException;
import dev.tether.api.ToolPayload;
import dev.tether.api.json.TetherJson;
import dev.tether.coven.internal.proto.AgentMessage;
import dev.tether.coven.internal.proto.ExecutePackTool;
import dev.tether.coven.internal.proto.MessageResponse;
import dev.tether.coven.internal.proto.PackToolResult;
import dev.tether.coven.internal.proto.SessionInit;
import dev.tether.coven.internal.proto.SessionOrphaned;
import dev.tether.coven.internal.proto.ToolApprovalRequest;
import dev.tether.coven.internal.proto.ToolApprovalResponse;
import dev.tether.coven.internal.proto.ToolResult;
import dev.tether.coven.internal.proto.ToolState;
import dev.tether.coven.internal.proto.ToolStateUpdate;
import dev.tether.coven.internal.proto.ToolUse;
import java.util.Optional;

/**
 * The one mapping between the tool frames ({@link ToolPayload}) and coven's protobuf messages,
 * both ways. Stateless; correlation and timeouts are {@link ToolBroker}'s.
 *
 * <ul>
 *   <li>{@code event.tool_use}, {@code event.tool_result}, {@code event.tool_approval_request},
 *       {@code event.session_init}, {@code event.session_orphaned} become the
 *       {@code MessageResponse} events of the same names ({@code input} as {@code input_json});
 *   <li>{@code event.pack_tool_request} becomes an {@code ExecutePackTool} ({@code id} is its
 *       {@code request_id});
 *   <li>{@code ToolApprovalResponse} becomes {@code control.tool_approval} with decision
 *       {@code approve_all} when {@code approve_all} is set, else {@code approve} or {@code deny};
 *   <li>{@code PackToolResult} becomes {@code control.pack_tool_result}: {@code output_json} as
 *       {@code output} (a JSON string when it is not JSON), {@code error} as {@code error}.
 * </ul>
 */
final class ToolEvents {
  private static final ObjectMapper JSON = new ObjectMapper(TetherJson.newFactory());

  private ToolEvents() {}

  /** The gateway event for the agent's {@code payload}, or null for a pack-tool request. */
  static MessageResponse response(String requestId, ToolPayload payload) {
    MessageResponse.Builder b = MessageResponse.newBuilder().setRequestId(requestId);
    if (payload instanceof ToolPayload.ToolUse u) {
      return b.setToolUse(ToolUse.newBuilder().setId(u.id()).setName(u.name()).setInputJson(u.input().toString())).build();
    } else if (payload instanceof ToolPayload.ToolResult r) {
      return b.setToolResult(ToolResult.newBuilder().setId(r.id()).setOutput(r.output()).setIsError(r.isError())).build();
    } else if (payload instanceof ToolPayload.ApprovalRequest a) {
      return b.setToolApprovalRequest(ToolApprovalRequest.newBuilder().setId(a.id()).setName(a.name())
          .setInputJson(a.input().toString())).build();
    } else if (payload instanceof ToolPayload.SessionInit s) {
      return b.setSessionInit(SessionInit.newBuilder().setSessionId(s.sessionId())).build();
    } else if (payload instanceof ToolPayload.SessionOrphaned s) {
      return b.setSessionOrphaned(SessionOrphaned.newBuilder().setReason(s.reason())).build();
    }
    return null;
  }

  /** The {@code ExecutePackTool} for the agent's request. */
  static AgentMessage execute(ToolPayload.PackToolRequest request) {
    return AgentMessage.newBuilder().setExecutePackTool(ExecutePackTool.newBuilder().setRequestId(request.id())
        .setToolName(request.tool()).setInputJson(request.input().toString())).build();
  }

  /** A {@code tool_state} event. */
  static MessageResponse state(String requestId, String toolId, ToolState state, String detail) {
    return MessageResponse.newBuilder().setRequestId(requestId)
        .setToolState(ToolStateUpdate.newBuilder().setId(toolId).setState(state).setDetail(detail)).build();
  }

  /** The decision a {@code ToolApprovalResponse} carries. */
  static ToolPayload.Decision decision(ToolApprovalResponse response) {
    if (response.getApproveAll()) {
      return ToolPayload.Decision.APPROVE_ALL;
    }
    return response.getApproved() ? ToolPayload.Decision.APPROVE : ToolPayload.Decision.DENY;
  }

  /**
   * The frame payload for the gateway's {@code result}; a result the wire cannot carry (too large,
   * or neither output nor error) becomes a failure that says why.
   */
  static ToolPayload.PackToolResult result(PackToolResult result) {
    String id = result.getRequestId();
    try {
      return switch (result.getResultCase()) {
        case OUTPUT_JSON -> ToolPayload.PackToolResult.success(id, json(result.getOutputJson()));
        case ERROR -> ToolPayload.PackToolResult.failure(id, clip(result.getError()));
        default -> ToolPayload.PackToolResult.failure(id, "the gateway sent a result with neither output nor error");
      };
    } catch (IllegalArgumentException e) {
      return ToolPayload.PackToolResult.failure(id, "the pack tool's result could not be passed on: " + e.getMessage());
    }
  }

  /** {@code text} as JSON: itself when it is one JSON value, else a JSON string of it. */
  private static RawJson json(String text) {
    try {
      return RawJson.of(text);
    } catch (TetherException e) {
      try {
        return RawJson.of(JSON.writeValueAsString(text));
      } catch (JsonProcessingException impossible) {
        throw new IllegalStateException(impossible);
      }
    }
  }

  private static String clip(String text) {
    return text.length() <= ToolPayload.MAX_TEXT_CHARS ? text : text.substring(0, ToolPayload.MAX_TEXT_CHARS - 3) + "...";
  }

  /** An approval answer the bridge gives on a human's behalf, with {@code reason}. */
  static ToolPayload.ApprovalAnswer answer(String id, ToolPayload.Decision decision, String reason) {
    return new ToolPayload.ApprovalAnswer(id, decision, Optional.of(reason));
  }
}
