package dev.tether.examples;

import dev.tether.api.Frame;
import dev.tether.api.FrameTypes;
import dev.tether.api.Frames;
import dev.tether.api.Payload;
import dev.tether.api.SessionKey;
import dev.tether.store.FrameQuery;
import dev.tether.store.MemoryTetherStore;
import dev.tether.store.QueryResult;
import dev.tether.store.TetherStore;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * A host: it appends a user message, and an "agent" callback answers it on the same store when
 * the message arrives; the host long-polls for the answer. Prints the answer and exits 0.
 */
public final class HostExample {
  public static void main(String[] args) throws Exception {
    try (TetherStore store = MemoryTetherStore.create()) {
      SessionKey session = SessionKey.host("demo");

      // The agent side: wait for the next user.message and answer it from the callback.
      FrameQuery userMessages = FrameQuery.builder().session(session).types(FrameTypes.USER_MESSAGE).build();
      CompletableFuture<Long> answered = store.waitForFrames("vm-1", userMessages, Duration.ofSeconds(10))
          .thenApply(result -> {
            Frame question = result.frames().get(0);
            String text = ((Payload.UserMessage) question.payloadView()).text();
            return store.append("vm-1", Frames.assistantDone(session, question.msgId().orElseThrow(), "You said: " + text, List.of()));
          });

      // The host side: send, then long-poll for the agent's assistant.done.
      long seq = store.append("vm-1", Frames.hostUserMessage("demo", "hello from the host", List.of()));
      FrameQuery answers = FrameQuery.builder().session(session).afterSeq(seq)
          .types(FrameTypes.ASSISTANT_DONE).build();
      QueryResult reply = store.awaitFrames("vm-1", answers, Duration.ofSeconds(10));
      answered.get();
      Frame done = reply.frames().get(0);
      System.out.println("seq " + done.seq() + ": " + ((Payload.AssistantDone) done.payloadView()).text());
    }
  }
}
