package dev.tether.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tether.api.Frame;
import dev.tether.api.FrameTypes;
import dev.tether.api.Frames;
import dev.tether.api.Payload;
import dev.tether.api.SessionKey;
import dev.tether.api.ToolPayload;
import dev.tether.client.FramePage;
import dev.tether.client.HostAddress;
import dev.tether.client.PollRequest;
import dev.tether.client.TetherClient;
import dev.tether.client.http.HttpTetherClient;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code tether serve --with-agent --agent-approval} as a child JVM, driven over its socket with
 * the HTTP client: a chart request gets an approval request first, and the chart only after an
 * approving {@code control.tool_approval}; a denied one gets no chart, and an answer for an id
 * nobody asked is refused by the agent (never drawn twice).
 */
class AgentApprovalE2eTest {
  private static final long START_MS = 60_000;
  private static final SessionKey SESSION = new SessionKey("host", "approvals");

  @TempDir Path dir;

  @Test
  void chartRequest_asksApproval_drawsOnlyAfterApprove_andNotAfterDeny() throws Exception {
    Path socket = dir.resolve("tether.sock");
    try (ChildJvm serve = ChildJvm.start(dir, "serve", Map.of(), "serve", "--socket", socket.toString(),
            "--with-agent", "--agent-approval");
        HttpTetherClient client = Clients.of(new HostAddress.Unix(socket), null)) {
      serve.awaitStderr("tether agent: ready on", START_MS);

      // Approve: ask -> event.tool_approval_request -> control.tool_approval approve -> image.
      long cursor = client.send("default", Frames.userMessage(SESSION, "m-approve", "Please draw a chart of 2, 4 and 8", List.of(), null))
          .get(30, TimeUnit.SECONDS).ingressSeq();
      List<Frame> seen = new ArrayList<>();
      Frame ask = awaitFrame(client, cursor, "m-approve", seen, f -> f.type().equals(FrameTypes.EVENT_TOOL_APPROVAL_REQUEST));
      ToolPayload.ApprovalRequest request = (ToolPayload.ApprovalRequest) ToolPayload.read(ask);
      assertEquals(ToolApproval.TOOL, request.name());
      assertTrue(seen.stream().noneMatch(f -> f.type().equals(FrameTypes.ASSISTANT_DONE)), "nothing drawn before the answer");
      // An answer for an id nobody asked is refused: it does not release the real one.
      client.send("default", ToolPayload.frame(SESSION, "m-approve",
          ToolPayload.ApprovalAnswer.of("draw-nobody-asked", ToolPayload.Decision.APPROVE))).get(30, TimeUnit.SECONDS);
      serve.awaitStderr("refused a control.tool_approval", START_MS);
      client.send("default", ToolPayload.frame(SESSION, "m-approve",
          ToolPayload.ApprovalAnswer.of(request.id(), ToolPayload.Decision.APPROVE))).get(30, TimeUnit.SECONDS);
      Frame done = awaitFrame(client, cursor, "m-approve", seen, f -> f.type().equals(FrameTypes.ASSISTANT_DONE));
      assertEquals(1, done.payloadView().images().size(), "the chart, once approved");
      assertTrue(seen.stream().anyMatch(f -> f.type().equals(FrameTypes.EVENT_TOOL_RESULT)), "tool result: " + seen);
      assertTrue(seen.stream().anyMatch(f -> f.type().equals(FrameTypes.EVENT_TOOL_USE)), "tool use: " + seen);

      // Deny: no chart, and the answer says why.
      cursor = client.send("default", Frames.userMessage(SESSION, "m-deny", "Draw a chart of 1 and 3", List.of(), null))
          .get(30, TimeUnit.SECONDS).ingressSeq();
      seen.clear();
      ask = awaitFrame(client, cursor, "m-deny", seen, f -> f.type().equals(FrameTypes.EVENT_TOOL_APPROVAL_REQUEST));
      client.send("default", ToolPayload.frame(SESSION, "m-deny", ToolPayload.ApprovalAnswer.of(
          ((ToolPayload.ApprovalRequest) ToolPayload.read(ask)).id(), ToolPayload.Decision.DENY))).get(30, TimeUnit.SECONDS);
      done = awaitFrame(client, cursor, "m-deny", seen, f -> f.type().equals(FrameTypes.ASSISTANT_DONE));
      Payload.AssistantDone denied = (Payload.AssistantDone) done.payloadView();
      assertTrue(denied.images().isEmpty());
      assertTrue(denied.text().contains("was denied"), denied.text());
      assertTrue(seen.stream().anyMatch(f -> f.type().equals(FrameTypes.EVENT_TOOL_STATE) && f.payload().toString().contains("denied")),
          "a denied tool state: " + seen);
    }
  }

  /** Polls the agent's frames for {@code msgId} after {@code cursor} until one matches; collects all into {@code seen}. */
  private static Frame awaitFrame(TetherClient client, long cursor, String msgId, List<Frame> seen, Predicate<Frame> wanted)
      throws Exception {
    for (Frame f : seen) {
      if (wanted.test(f)) {
        return f;
      }
    }
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    long at = seen.isEmpty() ? cursor : seen.get(seen.size() - 1).seq();
    while (System.nanoTime() < deadline) {
      FramePage page = client.poll("default", new PollRequest(SESSION.channel(), SESSION.id(), at, PollRequest.MAX_LIMIT,
          5_000, Set.of(), msgId)).get(30, TimeUnit.SECONDS);
      for (Frame f : page.frames()) {
        if (f.isHostToGuest()) {
          continue;
        }
        seen.add(f);
        if (wanted.test(f)) {
          return f;
        }
      }
      at = Math.max(at, page.nextSeq());
    }
    throw new AssertionError("no matching frame for " + msgId + " within 60 s; saw " + seen);
  }
}
