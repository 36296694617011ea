package dev.tether.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tether.api.Frame;
import dev.tether.api.FrameTypes;
import dev.tether.api.RawJson;
import dev.tether.api.SessionKey;
import dev.tether.api.TetherException;
import dev.tether.api.ToolPayload;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;
import java.util.function.BooleanSupplier;

/**
 * One approval the demo agent asks before it draws: {@code event.tool_use} and
 * {@code event.tool_approval_request} for tool {@value #TOOL}, {@code event.tool_state}
 * {@code awaiting_approval}, then the wait for the host's {@code control.tool_approval}. Approved
 * ({@code approve} or {@code approve_all}): state {@code running}, and after the drawing
 * {@link #ran} posts the {@code event.tool_result} and {@code completed}. Denied, unanswered or
 * cancelled: state {@code denied}, {@code timeout} or {@code cancelled}, and a sentence to answer
 * with instead of the chart. Used by one reply thread.
 */
final class ToolApproval {
  static final String TOOL = "draw_chart";

  /** Posts a frame to the host. */
  interface Poster {
    void post(Frame frame) throws IOException, InterruptedException;
  }

  private final ApprovalGate gate;
  private final SessionKey session;
  private final String msgId;
  private final Poster poster;
  private final CommandLog log;
  private final String id = "draw-" + UUID.randomUUID();

  ToolApproval(ApprovalGate gate, SessionKey session, String msgId, Poster poster, CommandLog log) {
    this.gate = gate;
    this.session = session;
    this.msgId = msgId;
    this.poster = poster;
    this.log = log;
  }

  /** Asks; empty when the chart may be drawn, else the sentence to answer with instead. */
  Optional<String> ask(String request, Duration timeout, BooleanSupplier cancelled) throws IOException, InterruptedException {
    ObjectNode input = Json.MAPPER.createObjectNode()
        .put("request", request.length() > 1000 ? request.substring(0, 1000) + "..." : request);
    RawJson raw = json(input);
    if (!gate.ask(id)) {
      state("failed", "too many approvals are pending");
      return Optional.of("I did not draw the chart: too many approvals are already pending.");
    }
    poster.post(ToolPayload.frame(session, msgId, new ToolPayload.ToolUse(id, TOOL, raw)));
    poster.post(ToolPayload.frame(session, msgId, new ToolPayload.ApprovalRequest(id, TOOL, raw)));
    state("awaiting_approval", null);
    log.info("tether agent: " + msgId + " asks approval " + id + " for " + TOOL);
    Optional<ToolPayload.ApprovalAnswer> answer = gate.await(id, timeout, cancelled);
    if (answer.isEmpty()) {
      boolean wasCancelled = cancelled.getAsBoolean();
      state(wasCancelled ? "cancelled" : "timeout", wasCancelled ? "the request was cancelled" : "no answer within " + timeout.toSeconds() + " s");
      return Optional.of(wasCancelled ? "" : "I did not draw the chart: nobody approved " + TOOL + " within " + timeout.toSeconds() + " s.");
    }
    ToolPayload.ApprovalAnswer a = answer.get();
    log.info("tether agent: " + id + " was answered " + a.decision().wireName());
    if (!a.decision().approved()) {
      state("denied", a.reason().orElse(null));
      return Optional.of("I did not draw the chart: " + TOOL + " was denied" + a.reason().map(r -> " (" + r + ")").orElse("") + ".");
    }
    state("running", null);
    return Optional.empty();
  }

  /** After an approved drawing: the tool's result and its {@code completed} state. */
  void ran(int images) throws IOException, InterruptedException {
    poster.post(ToolPayload.frame(session, msgId, new ToolPayload.ToolResult(id, "drew " + images + " chart(s)", false)));
    state("completed", null);
  }

  /**
   * Passes a {@code control.tool_approval} to the approval waiting for it; one that names no
   * waiting approval (or does not parse) is refused with a log line.
   */
  static void deliver(ApprovalGate gate, Frame frame, CommandLog log) {
    try {
      ToolPayload payload = ToolPayload.read(frame);
      if (payload instanceof ToolPayload.ApprovalAnswer a && gate.answer(a)) {
        return;
      }
      log.info("tether agent: refused a control.tool_approval (seq " + frame.seq() + "): no approval with that id is waiting");
    } catch (TetherException e) {
      log.info("tether agent: refused a control.tool_approval (seq " + frame.seq() + "): " + e.getMessage());
    }
  }

  private void state(String state, String detail) throws IOException, InterruptedException {
    ObjectNode payload = Json.MAPPER.createObjectNode().put("id", id).put("state", state);
    if (detail != null) {
      payload.put("detail", detail);
    }
    poster.post(Frame.builder(FrameTypes.EVENT_TOOL_STATE).ts(Instant.now()).session(session).msgId(msgId)
        .payload(json(payload)).build());
  }

  private static RawJson json(ObjectNode node) {
    try {
      return RawJson.ofUtf8(Json.MAPPER.writeValueAsBytes(node));
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }
}
