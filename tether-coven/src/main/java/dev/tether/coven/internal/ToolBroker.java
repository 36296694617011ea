package dev.tether.coven.internal;

import dev.tether.api.Frame;
import dev.tether.api.TetherException;
import dev.tether.api.ToolPayload;
import dev.tether.coven.internal.proto.AgentMessage;
import dev.tether.coven.internal.proto.MessageResponse;
import dev.tether.coven.internal.proto.PackToolResult;
import dev.tether.coven.internal.proto.ToolApprovalResponse;
import dev.tether.coven.internal.proto.ToolState;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;

/**
 * The tool side of one agent stream: passes the agent's tool frames to the gateway, and routes
 * the gateway's approval answers and pack-tool results back to the request that asked.
 *
 * <p>Correlation: an {@code event.tool_approval_request} or {@code event.pack_tool_request}
 * registers its id as pending, bound to its {@link Turn}. An answer whose id is not pending
 * (never asked, already answered, timed out, or its request over) is refused: nothing reaches the
 * agent and the listener hears one line. A pending entry that gets no answer within
 * {@link Bridge#approvalTimeout()} or {@link Bridge#packToolTimeout()} ends in a
 * {@code TOOL_STATE_TIMEOUT} event for the gateway, and the agent is told (a {@code deny} with a
 * reason, or a pack-tool {@code error}), so neither side waits for ever.
 *
 * <p>Design: one lock guards both maps, each bounded by {@link #MAX_PENDING}; a request past the
 * bound is answered at once (denied, or failed) instead of queued. Nothing is sent or emitted
 * while the lock is held: sends go to the tether client (asynchronous) and events to the turn
 * (which has its own lock). Thread-safe.
 */
final class ToolBroker {
  /** Pending approvals, and separately pending pack tools, per stream. */
  static final int MAX_PENDING = 64;

  private final Bridge bridge;
  private final Consumer<AgentMessage> gateway;
  private final ReentrantLock lock = new ReentrantLock();
  private final Map<String, Pending> approvals = new HashMap<>(); // guarded by lock
  private final Map<String, Pending> packs = new HashMap<>(); // guarded by lock

  private static final class Pending {
    final String id;
    final Turn turn;
    final String tool;
    volatile Future<?> timeout;

    Pending(String id, Turn turn, String tool) {
      this.id = id;
      this.turn = turn;
      this.tool = tool;
    }
  }

  ToolBroker(Bridge bridge, Consumer<AgentMessage> gateway) {
    this.bridge = bridge;
    this.gateway = gateway;
  }

  /** Whether {@code frame} is a tool frame, for {@link #onAgentFrame}. */
  static boolean handles(Frame frame) {
    return ToolPayload.isToolType(frame.type());
  }

  /**
   * The gateway events for the agent's tool frame in {@code turn}. An approval request is
   * registered (or, after {@code approve_all}, approved at once); a pack-tool request is
   * registered and sent as {@code ExecutePackTool}.
   */
  List<MessageResponse> onAgentFrame(Turn turn, Frame frame) {
    ToolPayload payload;
    try {
      payload = ToolPayload.read(frame);
    } catch (TetherException e) {
      warn("skipped the agent's " + frame.type() + " for " + turn.requestId() + ": " + e.getMessage());
      return List.of();
    }
    if (payload instanceof ToolPayload.ApprovalRequest request) {
      return approvalRequested(turn, request);
    }
    if (payload instanceof ToolPayload.PackToolRequest request) {
      return packToolRequested(turn, request);
    }
    MessageResponse event = ToolEvents.response(turn.requestId(), payload);
    return event == null ? List.of() : List.of(event); // host-to-guest types never come here
  }

  private List<MessageResponse> approvalRequested(Turn turn, ToolPayload.ApprovalRequest request) {
    if (turn.approvesAll()) {
      tellAgent(turn, ToolEvents.answer(request.id(), ToolPayload.Decision.APPROVE,
          "approve_all was given for this request"));
      return List.of();
    }
    String refusal = register(approvals, turn, request.id(), request.name(), bridge.approvalTimeout(), "approval");
    if (refusal != null) {
      tellAgent(turn, ToolEvents.answer(request.id(), ToolPayload.Decision.DENY, refusal));
      return List.of(ToolEvents.state(turn.requestId(), request.id(), ToolState.TOOL_STATE_DENIED, refusal));
    }
    return List.of(ToolEvents.response(turn.requestId(), request));
  }

  private List<MessageResponse> packToolRequested(Turn turn, ToolPayload.PackToolRequest request) {
    String refusal = register(packs, turn, request.id(), request.tool(), bridge.packToolTimeout(), "pack tool");
    if (refusal != null) {
      tellAgent(turn, ToolPayload.PackToolResult.failure(request.id(), refusal));
      return List.of(ToolEvents.state(turn.requestId(), request.id(), ToolState.TOOL_STATE_FAILED, refusal));
    }
    gateway.accept(ToolEvents.execute(request));
    return List.of();
  }

  /** Registers a pending entry with its timeout; returns why it was refused, or null. */
  private String register(Map<String, Pending> map, Turn turn, String id, String tool, Duration timeout, String what) {
    Pending pending = new Pending(id, turn, tool);
    lock.lock();
    try {
      if (map.containsKey(id)) {
        return "a " + what + " with id " + id + " is already pending";
      }
      if (map.size() >= MAX_PENDING) {
        return MAX_PENDING + " " + what + " requests are already pending on this stream";
      }
      map.put(id, pending);
    } finally {
      lock.unlock();
    }
    pending.timeout = bridge.timer().schedule(() -> bridge.executor().execute(() -> timedOut(map, pending, timeout, what)),
        timeout.toMillis(), TimeUnit.MILLISECONDS);
    return null;
  }

  private void timedOut(Map<String, Pending> map, Pending pending, Duration timeout, String what) {
    if (!removeExact(map, pending)) {
      return; // answered meanwhile
    }
    String detail = "no " + what + " answer for " + pending.tool + " within " + shown(timeout) + "; it was not run";
    pending.turn.event(ToolEvents.state(pending.turn.requestId(), pending.id, ToolState.TOOL_STATE_TIMEOUT, detail));
    tellAgent(pending.turn, map == approvals
        ? ToolEvents.answer(pending.id, ToolPayload.Decision.DENY, "TIMEOUT: " + detail)
        : ToolPayload.PackToolResult.failure(pending.id, "TIMEOUT: " + detail));
    warn(what + " " + pending.id + " of " + pending.turn.requestId() + " timed out after " + shown(timeout));
  }

  /** The gateway's answer to an approval request; false (and a warning) when nobody asked. */
  boolean onApproval(ToolApprovalResponse response) {
    Pending pending = take(approvals, response.getId());
    if (pending == null) {
      warn("refused a ToolApprovalResponse for " + shown(response.getId()) + ": no approval with that id is pending");
      return false;
    }
    ToolPayload.Decision decision = ToolEvents.decision(response);
    if (decision == ToolPayload.Decision.APPROVE_ALL) {
      pending.turn.approveAll();
    }
    tellAgent(pending.turn, ToolPayload.ApprovalAnswer.of(pending.id, decision));
    return true;
  }

  /** The gateway's result of a pack tool; false (and a warning) when nobody asked. */
  boolean onPackToolResult(PackToolResult result) {
    Pending pending = take(packs, result.getRequestId());
    if (pending == null) {
      warn("refused a PackToolResult for " + shown(result.getRequestId()) + ": no pack tool with that id is pending");
      return false;
    }
    tellAgent(pending.turn, ToolEvents.result(result));
    return true;
  }

  /** Drops the entries of a request that ended; answers to them are refused from now on. */
  void forget(Turn turn) {
    List<Pending> dropped = new ArrayList<>();
    lock.lock();
    try {
      for (Map<String, Pending> map : List.of(approvals, packs)) {
        map.values().removeIf(p -> p.turn == turn && dropped.add(p));
      }
    } finally {
      lock.unlock();
    }
    dropped.forEach(ToolBroker::cancelTimeout);
  }

  /** How many answers are awaited, for tests and the bound. */
  int pending() {
    lock.lock();
    try {
      return approvals.size() + packs.size();
    } finally {
      lock.unlock();
    }
  }

  private Pending take(Map<String, Pending> map, String id) {
    Pending pending;
    lock.lock();
    try {
      pending = map.remove(id);
    } finally {
      lock.unlock();
    }
    if (pending != null) {
      cancelTimeout(pending);
    }
    return pending;
  }

  private boolean removeExact(Map<String, Pending> map, Pending pending) {
    lock.lock();
    try {
      return map.remove(pending.id, pending);
    } finally {
      lock.unlock();
    }
  }

  private static void cancelTimeout(Pending pending) {
    Future<?> t = pending.timeout;
    if (t != null) {
      t.cancel(false);
    }
  }

  private void tellAgent(Turn turn, ToolPayload payload) {
    Frame frame = ToolPayload.frame(turn.session(), turn.msgId(), payload);
    bridge.client().send(bridge.instance(), frame).whenComplete((r, t) -> {
      if (t != null) {
        warn("passing " + payload.frameType() + " to the agent failed: " + Turn.message(t));
      }
    });
  }

  private void warn(String message) {
    try {
      bridge.listener().onWarning(message);
    } catch (RuntimeException e) {
      // a listener's failure is not ours
    }
  }

  private static String shown(Duration d) {
    return d.toMillis() % 1000 == 0 ? d.toSeconds() + " s" : d.toMillis() + " ms";
  }

  private static String shown(String id) {
    String clipped = id.length() > 64 ? id.substring(0, 64) + "..." : id;
    return "'" + clipped.replaceAll("\\p{Cntrl}", "?") + "'"; // never a terminal escape in a log line
  }
}
