package dev.tether.store;

import dev.tether.api.testing.TestFrames;
import static dev.tether.api.testing.TestFrames.done;
import static dev.tether.api.testing.TestFrames.text;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tether.api.Frame;
import dev.tether.api.SessionKey;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class WaitAndSubscribeTest {
  static final SessionKey A = SessionKey.host("a");
  static final SessionKey B = SessionKey.host("b");
  static final Duration LONG = Duration.ofMinutes(5);

  final MemoryTetherStore store = MemoryTetherStore.create();

  @AfterEach
  void close() {
    store.close();
  }

  static long seqOf(SubscriptionEvent e) {
    return ((SubscriptionEvent.Delivered) e).frame().seq();
  }

  @Test
  void wait_returnsAtOnceWhenMatchingFramesExist() {
    store.append("vm", text(A, "x"));
    CompletableFuture<QueryResult> f = store.waitForFrames("vm", FrameQuery.session(A, 0), LONG);
    assertTrue(f.isDone());
    assertEquals(1, f.join().frames().size());
    assertEquals(0, store.pendingWaits("vm"));
  }

  @Test
  void wait_completesOnMatchingAppendOnly() throws Exception {
    CompletableFuture<QueryResult> f = store.waitForFrames("vm",
        FrameQuery.builder().session(A).types("assistant.done").build(), LONG);
    store.append("vm", text(A, "delta: wrong type"));
    store.append("vm", done(B, null, "wrong session"));
    assertFalse(f.isDone());
    long seq = store.append("vm", done(A, null, "yes"));
    QueryResult r = f.get(10, TimeUnit.SECONDS);
    assertEquals(List.of(seq), r.frames().stream().map(Frame::seq).toList());
    assertEquals(seq, r.nextSeq());
    assertFalse(r.timedOut());
    assertEquals(0, store.pendingWaits("vm"));
  }

  @Test
  void wait_onOtherSessionIsNotWokenButUnkeyedWaiterIs() throws Exception {
    CompletableFuture<QueryResult> onB = store.waitForFrames("vm", FrameQuery.session(B, 0), LONG);
    CompletableFuture<QueryResult> any = store.waitForFrames("vm", FrameQuery.all(), LONG);
    CompletableFuture<QueryResult> reply = store.waitForFrames("vm",
        FrameQuery.builder().replyToMsgId("host-7").build(), LONG);
    store.append("vm", text(A, "x"));
    // Waits complete through the store's executor, so "done" is a moment after the append returns.
    assertEquals(1, any.get(10, TimeUnit.SECONDS).frames().size());
    assertFalse(onB.isDone());
    assertFalse(reply.isDone());
    store.append("vm", done(A, "host-7", "answer"));
    assertEquals("host-7", reply.get(10, TimeUnit.SECONDS).frames().get(0).msgId().orElseThrow());
    assertEquals(1, store.pendingWaits("vm"));
  }

  @Test
  void wait_timesOutWithCursorPastExaminedFrames() throws Exception {
    store.append("vm", text(B, "b"));
    // The timeout only has to outlast the next statement; 500 ms keeps a loaded machine from
    // firing it before the second append (20 ms did, once).
    CompletableFuture<QueryResult> f = store.waitForFrames("vm", FrameQuery.session(A, 0), Duration.ofMillis(500));
    store.append("vm", text(B, "b2"));
    assertFalse(f.isDone(), "the wait ended before the second append; the test's premise failed");
    QueryResult r = f.get(30, TimeUnit.SECONDS);
    assertTrue(r.timedOut());
    assertTrue(r.frames().isEmpty());
    assertEquals(2, r.nextSeq());
    assertEquals(0, store.pendingWaits("vm"));
  }

  @Test
  void wait_withZeroTimeoutBehavesAsQuery() {
    QueryResult r = store.waitForFrames("vm", FrameQuery.session(A, 0), Duration.ZERO).join();
    assertTrue(r.frames().isEmpty());
    assertFalse(r.timedOut());
  }

  @Test
  void wait_cancellationRemovesTheWaiter() {
    CompletableFuture<QueryResult> f = store.waitForFrames("vm", FrameQuery.session(A, 0), LONG);
    assertEquals(1, store.pendingWaits("vm"));
    f.cancel(false);
    assertEquals(0, store.pendingWaits("vm"));
    store.append("vm", text(A, "x"));
    assertTrue(f.isCancelled());
  }

  @Test
  void wait_cursorAheadOfStoreWaitsForSeqAboveCursor() {
    store.append("vm", text(A, "1"));
    CompletableFuture<QueryResult> f = store.waitForFrames("vm", FrameQuery.session(A, 2), LONG);
    store.append("vm", text(A, "2"));
    assertFalse(f.isDone(), "seq 2 is not above the cursor");
    store.append("vm", text(A, "3"));
    assertEquals(3, f.join().frames().get(0).seq());
  }

  @Test
  void wait_gapIsReportedAtOnce() {
    MemoryTetherStore small = MemoryTetherStore.create(Retention.builder().maxFrames(1).build());
    small.append("vm", text(A, "1"));
    small.append("vm", text(B, "2"));
    QueryResult r = small.waitForFrames("vm", FrameQuery.session(A, 0), LONG).join();
    assertTrue(r.gap());
    assertTrue(r.frames().isEmpty());
    assertEquals(2, r.nextSeq());
    small.close();
  }

  @Test
  void remove_completesWaitersExceptionally() {
    CompletableFuture<QueryResult> f = store.waitForFrames("vm", FrameQuery.session(A, 0), LONG);
    assertTrue(store.remove("vm"));
    CancellationException e = assertThrows(CancellationException.class, f::get);
    // JDK 23+ wraps the original in a new CancellationException("get").
    Throwable original = e.getCause() instanceof CancellationException c ? c : e;
    assertEquals("instance vm was removed", original.getMessage());
  }

  @Test
  void awaitFrames_blockingFormDelegates() throws Exception {
    store.append("vm", text(A, "x"));
    assertEquals(1, store.awaitFrames("vm", FrameQuery.session(A, 0), LONG).frames().size());
    QueryResult r = store.awaitFrames("vm", FrameQuery.session(B, 0), Duration.ofMillis(10));
    assertTrue(r.timedOut());
  }

  @Test
  void awaitFrames_interruptCancelsTheWait() {
    Thread.currentThread().interrupt();
    assertThrows(InterruptedException.class, () -> store.awaitFrames("vm", FrameQuery.session(A, 0), LONG));
    assertEquals(0, store.pendingWaits("vm"));
  }

  /** host-agent-tether.md §2: tether_send returns ingress_seq; tether_read long-polls after it. */
  @Test
  void phase1_hostAgentReadsTheAgentsReplyByLongPollingAfterIngressSeq() throws Exception {
    SessionKey host = SessionKey.host("debug-1");
    store.append("vm", done(SessionKey.host("other"), null, "earlier, elsewhere"));
    long ingress = store.append("vm", TestFrames.frame("user.message", host, "host-1", "analyze"));
    FrameQuery read = FrameQuery.builder().session(host).afterSeq(ingress).build();
    CompletableFuture<QueryResult> first = store.waitForFrames("vm", read, LONG);
    assertFalse(first.isDone(), "the host's own message is not returned");
    java.util.concurrent.ExecutorService agent = java.util.concurrent.Executors.newSingleThreadExecutor();
    try {
      agent.submit(() -> {
        store.append("vm", TestFrames.frame("status.presence", host, "host-1", "thinking"));
        store.append("vm", text(new SessionKey("telegram", "debug-1"), "not for the host"));
        for (int i = 0; i < 5; i++) {
          store.append("vm", TestFrames.frame("assistant.delta", host, "host-1", "part" + i));
        }
        store.append("vm", done(host, "host-1", "complete"));
      });
      List<String> types = new java.util.ArrayList<>();
      QueryResult r = first.get(30, TimeUnit.SECONDS);
      while (true) {
        r.frames().forEach(f -> types.add(f.type()));
        if (types.contains("assistant.done")) {
          break;
        }
        r = store.awaitFrames("vm", read.withAfterSeq(r.nextSeq()), LONG);
      }
      assertEquals("status.presence", types.get(0));
      assertEquals(7, types.size(), "presence, five deltas, done: each once");
      assertEquals("assistant.done", types.get(6));
    } finally {
      agent.shutdownNow();
    }
  }

  @Test
  void subscribe_deliversEveryFrameInSeqOrder() throws Exception {
    Subscription s = store.subscribe("vm", 100);
    store.append("vm", text(A, "1"));
    store.append("vm", text(B, "2"));
    CompletableFuture<SubscriptionEvent> next = s.next();
    assertEquals(1, seqOf(next.join()));
    assertEquals(2, seqOf(s.next(Duration.ofSeconds(10)).orElseThrow()));
    CompletableFuture<SubscriptionEvent> pending = s.next();
    assertFalse(pending.isDone());
    store.append("vm", text(A, "3"));
    assertEquals(3, seqOf(pending.get(10, TimeUnit.SECONDS)));
    assertTrue(s.poll().isEmpty());
  }

  @Test
  void subscribe_slowSubscriberIsToldWhichFramesItLost() {
    Subscription slow = store.subscribe("vm", 2);
    Subscription fast = store.subscribe("vm", 100);
    for (int i = 0; i < 6; i++) {
      store.append("vm", text(A, "f" + i));
    }
    assertEquals(1, seqOf(slow.poll().orElseThrow()));
    store.append("vm", text(A, "f7")); // room for one again: seq 7 queued after the hole
    assertEquals(2, seqOf(slow.poll().orElseThrow()));
    assertEquals(new SubscriptionEvent.Lost(3, 6, 4), slow.poll().orElseThrow());
    assertEquals(7, seqOf(slow.poll().orElseThrow()));
    assertTrue(slow.poll().isEmpty());
    assertEquals(4, slow.lostFrames());
    for (int i = 1; i <= 7; i++) {
      assertEquals(i, seqOf(fast.poll().orElseThrow()));
    }
    assertEquals(0, fast.lostFrames());
  }

  @Test
  void subscribe_closeEndsDeliveryAfterQueuedEvents() {
    Subscription s = store.subscribe("vm", 10);
    store.append("vm", text(A, "1"));
    s.close();
    store.append("vm", text(A, "2"));
    assertEquals(1, seqOf(s.poll().orElseThrow()));
    assertInstanceOf(SubscriptionEvent.Closed.class, s.poll().orElseThrow());
  }

  @Test
  void subscribe_removalEndsPendingNext() {
    Subscription s = store.subscribe("vm", 10);
    CompletableFuture<SubscriptionEvent> f = s.next();
    store.remove("vm");
    assertInstanceOf(SubscriptionEvent.Closed.class, f.join());
  }

  @Test
  void subscribe_rejectsBadBuffer() {
    assertThrows(IllegalArgumentException.class, () -> store.subscribe("vm", 0));
  }

  @Test
  void subscribe_onlyOneOutstandingNext() {
    Subscription s = store.subscribe("vm", 10);
    s.next();
    assertThrows(IllegalStateException.class, s::next);
  }
}
