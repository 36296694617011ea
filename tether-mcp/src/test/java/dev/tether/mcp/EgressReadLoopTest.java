package dev.tether.mcp;

import dev.tether.api.TetherException;
import dev.tether.api.ErrorCode;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tether.api.Frame;
import dev.tether.api.Frames;
import dev.tether.api.Payload;
import dev.tether.api.SessionKey;
import dev.tether.client.FramePage;
import dev.tether.store.MemoryTetherStore;
import dev.tether.store.StoreTetherClient;
import dev.tether.store.Retention;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** {@code tether_read}'s egress loop over the in-process client and a real {@link MemoryTetherStore}. */
class EgressReadLoopTest {
  private static final String VM = "vm1";
  private static final SessionKey SESSION = SessionKey.host("s");

  private final MemoryTetherStore store = MemoryTetherStore.create();
  private final StoreTetherClient client = client(store);

  @AfterEach
  void close() {
    store.close();
  }

  @Test
  void unknownInstance_failsTheReadWithInstanceNotFound() {
    ExecutionException read = assertThrows(ExecutionException.class, () -> EgressReadLoop.read(client, "vm2", ReadRequest.after(0)).get());
    assertEquals(ErrorCode.INSTANCE_NOT_FOUND, assertInstanceOf(TetherException.class, read.getCause()).code());
    assertEquals(0, store.lastSeq("vm2"));
  }

  @Test
  void read_leavesOutTheSessionsOwnMessages() throws Exception {
    store.append(VM, Frames.hostUserMessage("s", "q", List.of()));
    store.append(VM, Frames.presence(SESSION, "m", "thinking"));
    store.append(VM, Frames.hostUserMessage("s", "q2", List.of()));
    store.append(VM, Frames.assistantDone(SESSION, "m", "a", List.of()));

    FramePage result = read(client, request(0, 0)).get();

    assertEquals(List.of("status.presence", "assistant.done"), result.frames().stream().map(Frame::type).toList());
    assertEquals(4, result.nextSeq());
    assertFalse(result.timedOut());
  }

  @Test
  void longPoll_waitsPastNewUserMessagesUntilTheAgentAnswers() throws Exception {
    CompletableFuture<FramePage> poll = read(client, request(0, 30_000));
    assertFalse(poll.isDone());

    store.append(VM, Frames.hostUserMessage("s", "another question", List.of()));
    assertFalse(poll.isDone(), "a user.message on the session is not an answer");
    // The store completes the first wait on its executor; the read then waits again from after
    // the user.message. Bounded: 10 s.
    long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (store.pendingWaits(VM) != 1 && System.nanoTime() < until) {
      Thread.sleep(5);
    }
    assertEquals(1, store.pendingWaits(VM), "the wait goes on from after the user.message");
    assertFalse(poll.isDone(), "still no answer");

    long seq = store.append(VM, Frames.assistantDone(SESSION, "m", "answer", List.of()));
    FramePage result = poll.get(10, TimeUnit.SECONDS);
    assertEquals(List.of(seq), result.frames().stream().map(Frame::seq).toList());
    assertEquals(seq, result.nextSeq());
  }

  @Test
  void cancellingAPoll_removesTheStoreWait() {
    CompletableFuture<FramePage> poll = read(client, request(0, 30_000));
    assertEquals(1, store.pendingWaits(VM));

    poll.cancel(false);

    assertEquals(0, store.pendingWaits(VM));
  }

  @Test
  void read_reportsAGapWhenFramesAfterTheCursorWereEvicted() throws Exception {
    try (MemoryTetherStore small = MemoryTetherStore.create(Retention.builder().maxFrames(2).build())) {
      StoreTetherClient smallClient = client(small);
      for (int i = 0; i < 5; i++) {
        small.append(VM, Frames.assistantDone(SESSION, "m", "answer " + i, List.of()));
      }

      FramePage result = read(smallClient, request(0, 0)).get();

      assertTrue(result.gap());
      assertEquals(4, result.oldestSeq());
      assertEquals(List.of(4L, 5L), result.frames().stream().map(Frame::seq).toList());
    }
  }

  @Test
  void read_filtersByTypeAndReply() throws Exception {
    store.append(VM, Frames.assistantDone(SESSION, "a", "for a", List.of()));
    store.append(VM, Frames.assistantDelta(SESSION, "b", "partial b"));
    long wanted = store.append(VM, Frames.assistantDone(SESSION, "b", "for b", List.of()));

    ReadRequest request = new ReadRequest("s", 0, 50, 0, List.of("assistant.done"), Optional.of("b"));
    FramePage result = read(client, request).get();

    assertEquals(List.of(wanted), result.frames().stream().map(Frame::seq).toList());
    assertEquals("for b", ((Payload.AssistantDone) result.frames().get(0).payloadView()).text());
  }

  private static StoreTetherClient client(MemoryTetherStore store) {
    return StoreTetherClient.builder(store).knownInstances(Set.of(VM)::contains).build();
  }

  private static CompletableFuture<FramePage> read(StoreTetherClient client, ReadRequest request) {
    return EgressReadLoop.read(client, VM, request);
  }

  private static ReadRequest request(long afterSeq, long waitMs) {
    return new ReadRequest("s", afterSeq, 50, waitMs, List.of(), Optional.empty());
  }

  @Test
  void read_gapInTheFirstRound_isKeptWhenASecondRoundFindsTheAnswer() throws Exception {
    try (MemoryTetherStore small = MemoryTetherStore.create(Retention.builder().maxFrames(2).build())) {
      StoreTetherClient tight = client(small);
      for (int i = 1; i <= 3; i++) {
        small.append(VM, Frames.hostUserMessage("s", "q" + i, List.of()));
      }
      // Seq 1 is evicted and the rest are our own messages: round one sees the gap, round two waits.
      CompletableFuture<FramePage> read = read(tight, new ReadRequest("s", 0, 50, 30_000, List.of(), Optional.empty()));
      Thread.sleep(100);
      small.append(VM, Frames.assistantDone(SESSION, "host-1", "answer", List.of()));
      FramePage r = read.get(20, TimeUnit.SECONDS);
      assertEquals(1, r.frames().size(), r.toString());
      assertTrue(r.gap(), "the second round overwrote the first round's gap: " + r);
      assertEquals(2, r.oldestSeq());
    }
  }

  @Test
  void hostRefusals_becomeDefiniteToolErrors_neverUnavailable() {
    assertEquals(ErrorCode.INVALID_ARGUMENT, ToolSpecs.classify("tether_read",
        TetherException.of(ErrorCode.INVALID_ARGUMENT, "400 BAD_REQUEST: limit")).code());
    ToolError unauthorized = ToolSpecs.classify("tether_send", new java.util.concurrent.CompletionException(
        TetherException.of(ErrorCode.UNAUTHORIZED, "401 UNAUTHORIZED: bad token")));
    assertEquals(ErrorCode.UNAUTHORIZED, unauthorized.code());
    assertFalse(unauthorized.getMessage().contains("try again"), unauthorized.getMessage());
    assertEquals(ErrorCode.NOT_FOUND, ToolSpecs.classify("tether_read",
        TetherException.of(ErrorCode.NOT_FOUND, "404 NOT_FOUND")).code());
  }

  @Test
  void longRunOfOwnMessages_readAPageAtATime_findsTheAnswerWithoutDeepeningTheStack() throws Exception {
    try (MemoryTetherStore big = MemoryTetherStore.create(Retention.builder().maxFrames(30_000).build())) {
      for (int i = 0; i < 20_000; i++) {
        big.append(VM, Frames.hostUserMessage("s", "q" + i, List.of()));
      }
      long answer = big.append(VM, Frames.assistantDone(SESSION, "m", "answer", List.of()));
      // limit 1: 20,000 rounds whose pages are complete at once; a round per stack frame overflows.
      CompletableFuture<FramePage> read = read(client(big), new ReadRequest("s", 0, 1, 30_000, List.of(), Optional.empty()));
      FramePage r = read.get(60, TimeUnit.SECONDS);
      assertEquals(List.of(answer), r.frames().stream().map(Frame::seq).toList());
    }
  }

  @Test
  void deadlineRunningOutBetweenRounds_answersTimedOut_notAnEmptySuccess() throws Exception {
    store.append(VM, Frames.hostUserMessage("s", "only our own message", List.of()));
    // The clock stands still for the first round (deadline, its wait, its time check), so the
    // round continues past our own message; then it jumps past the deadline, so the second round
    // polls with no wait and finds nothing.
    java.util.concurrent.atomic.AtomicInteger calls = new java.util.concurrent.atomic.AtomicInteger();
    java.util.function.LongSupplier clock = () -> calls.incrementAndGet() <= 3 ? 0 : TimeUnit.SECONDS.toNanos(5);

    FramePage r = EgressReadLoop.read(client, VM, request(0, 1_000), clock).get(10, TimeUnit.SECONDS);

    assertTrue(calls.get() > 3, "the read went into a second round");
    assertTrue(r.frames().isEmpty(), r.toString());
    assertTrue(r.timedOut(), "an empty answer to a read that waited is a timeout: " + r);
    assertEquals(1, r.nextSeq());
  }
}
