package dev.tether.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tether.api.ErrorCode;
import dev.tether.api.Frame;
import dev.tether.api.FrameTypes;
import dev.tether.api.SessionKey;
import dev.tether.api.TetherException;
import dev.tether.api.ToolPayload;
import dev.tether.client.FramePage;
import dev.tether.client.PollRequest;
import dev.tether.client.TetherClient;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * {@code tether_approvals} and {@code tether_approve}: the approval requests an agent is waiting
 * on ({@code event.tool_approval_request} frames), and a human's answer to one
 * ({@code control.tool_approval} with {@code approve}, {@code deny} or {@code approve_all}).
 *
 * <p>Pending is read from the instance's retained frames (at most {@link #MAX_SCANNED}, newest
 * last): a request is pending until a {@code control.tool_approval} with its id or an
 * {@code event.tool_state} that moves it on (running, denied, timeout, cancelled, completed,
 * failed) follows. {@code tether_approve} answers only a pending request, in its own session and
 * for its own {@code msg_id}; any other id is refused with {@code NOT_FOUND}, so a typo never
 * reaches an agent. Stateless and thread-safe; calls hold no thread while they poll.
 */
final class ApprovalTools {
  static final String LIST = "tether_approvals";
  static final String APPROVE = "tether_approve";
  /** Frames looked at per call (pages of {@link PollRequest#MAX_LIMIT}). */
  static final int MAX_SCANNED = 2_000;
  /** Pending requests listed per call, newest kept. */
  static final int MAX_LISTED = 50;
  private static final Set<String> LIST_ARGS = Set.of("instance");
  private static final Set<String> APPROVE_ARGS = Set.of("instance", "request_id", "decision", "reason");
  private static final Set<String> SETTLED = Set.of("running", "denied", "timeout", "cancelled", "completed", "failed");
  private static final Set<String> TYPES = Set.of(FrameTypes.EVENT_TOOL_APPROVAL_REQUEST, FrameTypes.CONTROL_TOOL_APPROVAL,
      FrameTypes.EVENT_TOOL_STATE);

  private final TetherClient client;

  ApprovalTools(TetherClient client) {
    this.client = Objects.requireNonNull(client, "client");
  }

  /** {@code tether_approvals(instance)}: {@code {"pending": [...]}}, oldest first. */
  CompletableFuture<CallToolResult> list(Map<String, Object> arguments) {
    Args args = Args.of(LIST, arguments, LIST_ARGS);
    String instance = args.requireNonBlank("instance");
    return pending(instance).thenApply(pending -> {
      List<Map<String, Object>> shown = new ArrayList<>();
      for (Frame f : pending.values()) {
        shown.add(describe(f));
      }
      List<Map<String, Object>> newest = shown.subList(Math.max(0, shown.size() - MAX_LISTED), shown.size());
      Map<String, Object> body = new LinkedHashMap<>();
      body.put("pending", newest);
      body.put("hint", newest.isEmpty() ? "no agent is waiting for an approval"
          : "answer one with tether_approve(request_id, decision: approve | deny | approve_all)");
      return ToolResults.json(body);
    });
  }

  /** {@code tether_approve(instance, request_id, decision, reason?)}: sends the answer to a pending request. */
  CompletableFuture<CallToolResult> approve(Map<String, Object> arguments) {
    Args args = Args.of(APPROVE, arguments, APPROVE_ARGS);
    String instance = args.requireNonBlank("instance");
    String id = args.requireNonBlank("request_id");
    String decisionName = args.requireNonBlank("decision");
    ToolPayload.Decision decision = ToolPayload.Decision.parse(decisionName).orElseThrow(() -> ToolError.invalidArguments(
        APPROVE + ": decision must be approve, deny or approve_all but was " + Args.describe(decisionName)));
    Optional<String> reason = args.optString("reason");
    ToolPayload.ApprovalAnswer answer;
    try {
      answer = new ToolPayload.ApprovalAnswer(id, decision, reason);
    } catch (IllegalArgumentException e) {
      throw ToolError.invalidArguments(APPROVE + ": " + e.getMessage());
    }
    return pending(instance).thenCompose(pending -> {
      Frame request = pending.get(id);
      if (request == null) {
        throw ToolError.of(ErrorCode.NOT_FOUND, "no approval request " + Args.describe(id) + " is pending on instance '"
            + instance + "' (answered, timed out, or never asked); tether_approvals lists the pending ones");
      }
      Frame frame = ToolPayload.frame(request.session().orElse(SessionKey.host(SessionKey.DEFAULT_ID)),
          request.msgId().orElse(null), answer);
      return client.send(instance, frame).thenApply(receipt -> {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("request_id", id);
        body.put("decision", decision.wireName());
        body.put("ingress_seq", receipt.ingressSeq());
        return ToolResults.json(body);
      });
    });
  }

  /** The pending approval requests of {@code instance}, by id, oldest first. */
  private CompletableFuture<Map<String, Frame>> pending(String instance) {
    Map<String, Frame> pending = new LinkedHashMap<>();
    return scan(instance, 0, 0, pending).thenApply(v -> pending);
  }

  private CompletableFuture<Void> scan(String instance, long cursor, int scanned, Map<String, Frame> pending) {
    PollRequest request = new PollRequest(null, null, cursor, PollRequest.MAX_LIMIT, 0, TYPES, null);
    return client.poll(instance, request).thenCompose(page -> {
      apply(page, pending);
      int seen = scanned + page.frames().size();
      if (page.frames().isEmpty() || seen >= MAX_SCANNED || page.nextSeq() <= cursor) {
        return CompletableFuture.completedFuture(null);
      }
      return scan(instance, page.nextSeq(), seen, pending);
    });
  }

  private static void apply(FramePage page, Map<String, Frame> pending) {
    for (Frame f : page.frames()) {
      switch (f.type()) {
        case FrameTypes.EVENT_TOOL_APPROVAL_REQUEST -> read(f).ifPresent(p -> pending.put(((ToolPayload.ApprovalRequest) p).id(), f));
        case FrameTypes.CONTROL_TOOL_APPROVAL -> read(f).ifPresent(p -> pending.remove(((ToolPayload.ApprovalAnswer) p).id()));
        case FrameTypes.EVENT_TOOL_STATE -> {
          JsonNode state = tree(f);
          if (SETTLED.contains(state.path("state").asText(""))) {
            pending.remove(state.path("id").asText(""));
          }
        }
        default -> { }
      }
    }
  }

  private static Map<String, Object> describe(Frame f) {
    ToolPayload.ApprovalRequest request = (ToolPayload.ApprovalRequest) ToolPayload.read(f);
    Map<String, Object> item = new LinkedHashMap<>();
    item.put("request_id", request.id());
    item.put("tool", request.name());
    item.put("input", tree(request.input().toString()));
    f.session().ifPresent(s -> item.put("session", Map.of("channel", s.channel(), "id", s.id())));
    f.msgId().ifPresent(m -> item.put("msg_id", m));
    item.put("seq", f.seq());
    return item;
  }

  private static Optional<ToolPayload> read(Frame f) {
    try {
      return Optional.of(ToolPayload.read(f));
    } catch (TetherException e) {
      return Optional.empty(); // the host validated it; a store that did not is not ours to judge
    }
  }

  private static JsonNode tree(Frame f) {
    return tree(f.payload().toString());
  }

  private static JsonNode tree(String json) {
    try {
      return McpJson.MAPPER.readTree(json);
    } catch (IOException e) {
      return McpJson.MAPPER.createObjectNode();
    }
  }
}
