package dev.tether.api;

import java.time.Instant;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * The payloads of the tool frames: an agent's tool use, tool result, approval request, pack-tool
 * request and backend-session events (guest to host), and a human's approval answer and a pack
 * tool's result (host to guest). They carry coven's agent protocol over tether; see
 * {@code docs/tool-frames.md} for the wire form.
 *
 * <p>These types are not part of {@link Payload}: {@link Frame#payloadView()} gives
 * {@link Payload.Other} for them, so reference clients that do not use tools pass them through
 * untouched. {@link #read(Frame)} gives the typed view; {@link #frame} writes one.
 *
 * <p>Every field is bounded (the constants below). A constructor refuses a value outside its
 * bounds with {@link IllegalArgumentException}; {@link #read} refuses a payload outside them with
 * {@link TetherException} {@link ErrorCode#MALFORMED_FRAME} naming the field. Ids and names are
 * 1 to {@value #MAX_ID_CHARS} characters without control characters. All variants are immutable.
 */
public sealed interface ToolPayload
    permits ToolPayload.ToolUse,
        ToolPayload.ToolResult,
        ToolPayload.ApprovalRequest,
        ToolPayload.PackToolRequest,
        ToolPayload.SessionInit,
        ToolPayload.SessionOrphaned,
        ToolPayload.ApprovalAnswer,
        ToolPayload.PackToolResult {

  /** Longest id, name or session id, in chars. */
  int MAX_ID_CHARS = 128;
  /** Largest tool input ({@code input}, any JSON value), in bytes of its JSON. */
  int MAX_INPUT_BYTES = 64 * 1024;
  /** Largest tool output or pack-tool output, in bytes of its UTF-8 or JSON. */
  int MAX_OUTPUT_BYTES = 256 * 1024;
  /** Longest error, reason or detail text, in chars. */
  int MAX_TEXT_CHARS = 4096;
  /** Largest tool payload, in bytes of its JSON (escapes included). */
  int MAX_PAYLOAD_BYTES = 512 * 1024;

  /** The frame type that carries this payload. */
  String frameType();

  /** Whether {@code type} is one of the tool frame types. */
  static boolean isToolType(String type) {
    return ToolPayloadJson.isToolType(type);
  }

  /**
   * The typed payload of {@code frame}.
   *
   * @throws IllegalArgumentException when the frame's type is not a tool frame type
   * @throws TetherException {@link ErrorCode#MALFORMED_FRAME} when a field is missing, of the
   *     wrong JSON type, or outside its bounds
   */
  static ToolPayload read(Frame frame) {
    return read(frame.type(), frame.payload());
  }

  /** As {@link #read(Frame)}, for a payload of {@code type}. */
  static ToolPayload read(String type, RawJson payload) {
    return ToolPayloadJson.read(type, payload);
  }

  /** This payload as JSON. */
  default RawJson toJson() {
    return ToolPayloadJson.write(this);
  }

  /** A frame of this payload's type in {@code session}, for the request {@code msgId}, stamped now. */
  static Frame frame(SessionKey session, String msgId, ToolPayload payload) {
    return Frame.builder(payload.frameType()).ts(Instant.now()).session(session).msgId(msgId)
        .payload(payload.toJson()).build();
  }

  /** {@code event.tool_use}: the agent starts tool {@code name} with {@code input} (any JSON). */
  record ToolUse(String id, String name, RawJson input) implements ToolPayload {
    public ToolUse {
      ToolPayloadJson.requireId("id", id);
      ToolPayloadJson.requireId("name", name);
      ToolPayloadJson.requireInput(input);
    }

    @Override
    public String frameType() {
      return FrameTypes.EVENT_TOOL_USE;
    }
  }

  /** {@code event.tool_result}: tool {@code id} returned {@code output}, failed when {@code isError}. */
  record ToolResult(String id, String output, boolean isError) implements ToolPayload {
    public ToolResult {
      ToolPayloadJson.requireId("id", id);
      ToolPayloadJson.requireOutput(output);
    }

    @Override
    public String frameType() {
      return FrameTypes.EVENT_TOOL_RESULT;
    }
  }

  /**
   * {@code event.tool_approval_request}: the agent waits for a human's {@link ApprovalAnswer} to
   * {@code id} before it runs tool {@code name} with {@code input}.
   */
  record ApprovalRequest(String id, String name, RawJson input) implements ToolPayload {
    public ApprovalRequest {
      ToolPayloadJson.requireId("id", id);
      ToolPayloadJson.requireId("name", name);
      ToolPayloadJson.requireInput(input);
    }

    @Override
    public String frameType() {
      return FrameTypes.EVENT_TOOL_APPROVAL_REQUEST;
    }
  }

  /**
   * {@code event.pack_tool_request}: the agent asks its host to run pack tool {@code tool} with
   * {@code input}; the answer is a {@link PackToolResult} with the same {@code id}.
   */
  record PackToolRequest(String id, String tool, RawJson input) implements ToolPayload {
    public PackToolRequest {
      ToolPayloadJson.requireId("id", id);
      ToolPayloadJson.requireId("tool", tool);
      ToolPayloadJson.requireInput(input);
    }

    @Override
    public String frameType() {
      return FrameTypes.EVENT_PACK_TOOL_REQUEST;
    }
  }

  /** {@code event.session_init}: the agent's backend session {@code sessionId} started. */
  record SessionInit(String sessionId) implements ToolPayload {
    public SessionInit {
      ToolPayloadJson.requireId("session_id", sessionId);
    }

    @Override
    public String frameType() {
      return FrameTypes.EVENT_SESSION_INIT;
    }
  }

  /** {@code event.session_orphaned}: the agent's backend session was lost, for {@code reason}. */
  record SessionOrphaned(String reason) implements ToolPayload {
    public SessionOrphaned {
      ToolPayloadJson.requireText("reason", reason);
    }

    @Override
    public String frameType() {
      return FrameTypes.EVENT_SESSION_ORPHANED;
    }
  }

  /** A human's answer to an approval request. */
  enum Decision {
    /** Run this tool. */
    APPROVE,
    /** Do not run it. */
    DENY,
    /** Run it, and every further tool of the same request, without asking again. */
    APPROVE_ALL;

    /** The wire name: {@code approve}, {@code deny} or {@code approve_all}. */
    public String wireName() {
      return name().toLowerCase(Locale.ROOT);
    }

    /** The decision named {@code wire}, if it is one. */
    public static Optional<Decision> parse(String wire) {
      for (Decision d : values()) {
        if (d.wireName().equals(wire)) {
          return Optional.of(d);
        }
      }
      return Optional.empty();
    }

    /** Whether the tool may run. */
    public boolean approved() {
      return this != DENY;
    }
  }

  /**
   * {@code control.tool_approval}: the answer to approval request {@code id}; {@code reason}
   * says why when a host answered on a human's behalf (such as a timeout).
   */
  record ApprovalAnswer(String id, Decision decision, Optional<String> reason) implements ToolPayload {
    public ApprovalAnswer {
      ToolPayloadJson.requireId("id", id);
      Objects.requireNonNull(decision, "decision");
      Objects.requireNonNull(reason, "reason");
      reason.ifPresent(r -> ToolPayloadJson.requireText("reason", r));
    }

    public static ApprovalAnswer of(String id, Decision decision) {
      return new ApprovalAnswer(id, decision, Optional.empty());
    }

    @Override
    public String frameType() {
      return FrameTypes.CONTROL_TOOL_APPROVAL;
    }
  }

  /**
   * {@code control.pack_tool_result}: the result of pack-tool request {@code id}: exactly one of
   * {@code output} (any JSON) and {@code error}.
   */
  record PackToolResult(String id, Optional<RawJson> output, Optional<String> error) implements ToolPayload {
    public PackToolResult {
      ToolPayloadJson.requireId("id", id);
      Objects.requireNonNull(output, "output");
      Objects.requireNonNull(error, "error");
      if (output.isPresent() == error.isPresent()) {
        throw new IllegalArgumentException("a pack tool result needs exactly one of output and error");
      }
      output.ifPresent(o -> ToolPayloadJson.requireBytes("output", o, MAX_OUTPUT_BYTES));
      error.ifPresent(e -> ToolPayloadJson.requireText("error", e));
    }

    public static PackToolResult success(String id, RawJson output) {
      return new PackToolResult(id, Optional.of(output), Optional.empty());
    }

    public static PackToolResult failure(String id, String error) {
      return new PackToolResult(id, Optional.empty(), Optional.of(error));
    }

    @Override
    public String frameType() {
      return FrameTypes.CONTROL_PACK_TOOL_RESULT;
    }
  }
}
