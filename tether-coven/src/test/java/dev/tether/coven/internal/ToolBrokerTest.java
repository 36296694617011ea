package dev.tether.coven.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;

import dev.tether.api.FrameTypes;
import dev.tether.api.RawJson;
import dev.tether.api.SessionKey;
import dev.tether.api.ToolPayload;
import dev.tether.coven.CovenListener;
import dev.tether.coven.internal.proto.MessageResponse;
import dev.tether.coven.internal.proto.ToolApprovalResponse;
import dev.tether.coven.internal.proto.ToolState;
import dev.tether.images.FrameValidator;
import dev.tether.store.MemoryTetherStore;
import dev.tether.store.StoreTetherClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import org.junit.jupiter.api.Test;

/** The broker's bounds: at most {@link ToolBroker#MAX_PENDING} approvals wait; the rest are denied at once. */
class ToolBrokerTest {
  @Test
  void pendingApprovals_neverExceedTheBound_andTheRestAreDeniedAtOnce() {
    ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();
    try {
      qt().withExamples(12).withFixedSeed(64L).forAll(integers().between(0, 3 * ToolBroker.MAX_PENDING)).checkAssert(n -> {
        MemoryTetherStore store = MemoryTetherStore.create();
        try {
          Bridge bridge = new Bridge(StoreTetherClient.of(store), "vm", Runnable::run, timer, FrameValidator.standard(),
              Duration.ofMinutes(1), 1000, Duration.ofSeconds(1), Duration.ofSeconds(30), new CovenListener() { }, null,
              Duration.ofMinutes(5), Duration.ofMinutes(1));
          ToolBroker broker = new ToolBroker(bridge, m -> { });
          List<MessageResponse> events = new ArrayList<>();
          SessionKey session = new SessionKey("coven", "t");
          Turn turn = new Turn(bridge, "r1", "m1", session, events::add, broker);
          for (int i = 0; i < n; i++) {
            events.addAll(broker.onAgentFrame(turn, ToolPayload.frame(session, "m1",
                new ToolPayload.ApprovalRequest("a" + i, "draw", RawJson.EMPTY_OBJECT))));
          }
          int kept = Math.min(n, ToolBroker.MAX_PENDING);
          assertEquals(kept, broker.pending());
          assertEquals(kept, events.stream().filter(MessageResponse::hasToolApprovalRequest).count());
          assertEquals(n - kept, events.stream().filter(e -> e.hasToolState()
              && e.getToolState().getState() == ToolState.TOOL_STATE_DENIED).count());
          assertEquals(n - kept, store.retained("vm").stream().filter(f -> f.type().equals(FrameTypes.CONTROL_TOOL_APPROVAL)).count(),
              "each refused request is denied to the agent");
          broker.forget(turn);
          assertEquals(0, broker.pending());
          assertFalse(broker.onApproval(ToolApprovalResponse.newBuilder().setId("a0").setApproved(true).build()),
              "an answer after the request ended is refused");
        } finally {
          store.close();
        }
      });
    } finally {
      timer.shutdownNow();
    }
  }
}
