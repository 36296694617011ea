package dev.tether.store.contract;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tether.api.Frame;
import dev.tether.api.RawJson;
import dev.tether.api.SessionKey;
import dev.tether.store.FrameQuery;
import dev.tether.store.QueryResult;
import dev.tether.store.Retention;
import dev.tether.store.Subscription;
import dev.tether.store.SubscriptionEvent;
import dev.tether.store.TetherStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The {@link TetherStore} contract, run against every implementation: seq, filters, backward
 * pages, limits, gap, waits, subscriptions, removal and the executor rule. A store module extends
 * this class and says how to open its store.
 *
 * <p>Every test uses fresh instance names ({@link #instance()}), so a store whose data outlives
 * the Java object (a JetStream server shared by the tests of a class) needs no cleaning. Waits use
 * generous timeouts: the tests run on a busy 2-core machine.
 */
public abstract class TetherStoreContract {
  protected static final SessionKey A = SessionKey.host("a");
  protected static final SessionKey B = SessionKey.host("b");
  protected static final Duration LONG = Duration.ofMinutes(2);
  private static final AtomicInteger NAMES = new AtomicInteger();

  private final List<TetherStore> opened = new ArrayList<>();

  /** A new store keeping {@code retention}, with its default executor. */
  protected abstract TetherStore open(Retention retention) throws Exception;

  /**
   * A new store completing caller-visible futures through {@code executor}, or null when the
   * implementation has no executor setting yet (the executor tests are then skipped).
   */
  protected TetherStore openWithExecutor(Retention retention, Executor executor) throws Exception {
    return null;
  }

  /** A store for this test, closed after it. */
  protected final TetherStore store(Retention retention) throws Exception {
    TetherStore s = open(retention);
    opened.add(s);
    return s;
  }

  protected final TetherStore store() throws Exception {
    return store(Retention.defaults());
  }

  /** An instance name no other test (or earlier run against the same server) used. */
  protected static String instance() {
    return "vm-" + Long.toString(System.nanoTime(), 36) + "-" + NAMES.incrementAndGet();
  }

  @AfterEach
  void closeStores() {
    for (TetherStore s : opened) {
      s.close();
    }
  }

  protected static Frame frame(String type, SessionKey session, String msgId, String text) {
    Frame.Builder b = Frame.builder(type).version(1).session(session)
        .payload(RawJson.of("{\"text\":\"" + text + "\"}"));
    if (msgId != null) {
      b.msgId(msgId);
    }
    return b.build();
  }

  protected static Frame done(SessionKey session, String replyTo, String text) {
    return frame("assistant.done", session, replyTo, text);
  }

  protected static Frame message(SessionKey session, String text) {
    return frame("assistant.message", session, null, text);
  }

  /** A frame whose payload is exactly {@code payloadBytes} bytes long (at least 11). */
  protected static Frame sized(SessionKey session, int payloadBytes) {
    return frame("assistant.message", session, null, "x".repeat(payloadBytes - "{\"text\":\"\"}".length()));
  }

  protected static List<Long> seqs(QueryResult r) {
    return r.frames().stream().map(Frame::seq).toList();
  }

  // --- seq -----------------------------------------------------------------------------------

  @Test
  void append_assignsSeqFromOnePerInstanceSharedByAllChannels() throws Exception {
    TetherStore s = store();
    String vm = instance();
    String other = instance();
    assertEquals(1, s.append(vm, message(A, "1")));
    assertEquals(2, s.append(vm, message(new SessionKey("telegram", "42"), "2")));
    assertEquals(1, s.append(other, message(A, "other instance")));
    assertEquals(3, s.append(vm, message(B, "3")));
    assertEquals(3, s.lastSeq(vm));
    assertEquals(0, s.lastSeq(instance()));
  }

  @Test
  void append_storesTheFrameWithItsSeqAndIgnoresASeqSetByTheCaller() throws Exception {
    TetherStore s = store();
    String vm = instance();
    Frame f = frame("user.message", A, "m-1", "hello").withSeq(99);
    long seq = s.append(vm, f);
    assertEquals(1, seq);
    assertEquals(List.of(f.withSeq(1)), s.query(vm, FrameQuery.all()).frames());
  }

  @Test
  void appendAsync_completesWithTheSeq() throws Exception {
    TetherStore s = store();
    String vm = instance();
    List<CompletableFuture<Long>> fs = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      fs.add(s.appendAsync(vm, message(A, "m" + i)));
    }
    List<Long> got = new ArrayList<>();
    for (CompletableFuture<Long> f : fs) {
      got.add(f.get(30, TimeUnit.SECONDS));
    }
    assertEquals(20, got.stream().distinct().count());
    assertEquals(20, s.lastSeq(vm));
    assertEquals(20, s.query(vm, FrameQuery.all()).frames().size());
  }

  @Test
  void append_rejectsEmptyInstance() throws Exception {
    TetherStore s = store();
    assertThrows(IllegalArgumentException.class, () -> s.append("", message(A, "x")));
  }

  // --- filters, limits, next_seq ---------------------------------------------------------------

  @Test
  void query_filtersByChannelSessionTypesAndReply() throws Exception {
    TetherStore s = store();
    String vm = instance();
    SessionKey tg = new SessionKey("telegram", "a");
    long u = s.append(vm, frame("user.message", A, "m1", "q"));
    long d = s.append(vm, done(A, "m1", "answer"));
    long o = s.append(vm, done(B, "m2", "other session"));
    long t = s.append(vm, done(tg, "m3", "other channel"));
    assertEquals(List.of(u, d), seqs(s.query(vm, FrameQuery.session(A, 0))));
    assertEquals(List.of(d, o, t), seqs(s.query(vm, FrameQuery.builder().types("assistant.done").build())));
    assertEquals(List.of(u, d, o), seqs(s.query(vm, FrameQuery.builder().channel("host").build())));
    assertEquals(List.of(u, d, t), seqs(s.query(vm, FrameQuery.builder().sessionId("a").build())));
    assertEquals(List.of(u, d), seqs(s.query(vm, FrameQuery.builder().replyToMsgId("m1").build())));
    assertEquals(List.of(d), seqs(s.query(vm, FrameQuery.builder().session(A).types("assistant.done").replyToMsgId("m1").build())));
    assertEquals(List.of(o, t), seqs(s.query(vm, FrameQuery.builder().afterSeq(d).build())));
  }

  @Test
  void query_unknownInstanceIsEmpty() throws Exception {
    TetherStore s = store();
    QueryResult r = s.query(instance(), FrameQuery.all());
    assertTrue(r.frames().isEmpty());
    assertFalse(r.gap());
    assertEquals(0, r.nextSeq());
  }

  @Test
  void query_limitDefaultsTo50AndNextSeqIsTheLastFrameReturned() throws Exception {
    TetherStore s = store();
    String vm = instance();
    for (int i = 0; i < 60; i++) {
      s.append(vm, message(A, "m" + i));
    }
    QueryResult first = s.query(vm, FrameQuery.all());
    assertEquals(50, first.frames().size());
    assertEquals(50, first.nextSeq());
    QueryResult rest = s.query(vm, FrameQuery.all().withAfterSeq(first.nextSeq()));
    assertEquals(10, rest.frames().size());
    assertEquals(60, rest.nextSeq());
    assertEquals(List.of(1L, 2L, 3L), seqs(s.query(vm, FrameQuery.builder().limit(3).build())));
  }

  @Test
  void nextSeq_skipsExaminedNonMatchingFramesButNeverGoesBelowTheCursor() throws Exception {
    TetherStore s = store();
    String vm = instance();
    s.append(vm, done(A, null, "1"));
    s.append(vm, message(B, "2"));
    s.append(vm, message(B, "3"));
    QueryResult r = s.query(vm, FrameQuery.session(A, 1));
    assertTrue(r.frames().isEmpty());
    assertEquals(3, r.nextSeq());
    assertEquals(10, s.query(vm, FrameQuery.session(A, 10)).nextSeq());
  }

  @Test
  void query_backwardPageReturnsNewestBeforeSeqInAscendingOrder() throws Exception {
    TetherStore s = store();
    String vm = instance();
    for (int i = 1; i <= 10; i++) {
      s.append(vm, message(i % 2 == 0 ? A : B, "m" + i));
    }
    QueryResult r = s.query(vm, FrameQuery.builder().session(A).beforeSeq(9).limit(2).build());
    assertEquals(List.of(6L, 8L), seqs(r));
    assertEquals(6, r.nextSeq());
    QueryResult older = s.query(vm, FrameQuery.builder().session(A).beforeSeq(r.nextSeq()).limit(10).build());
    assertEquals(List.of(2L, 4L), seqs(older));
    assertEquals(List.of(5L, 6L), seqs(s.query(vm, FrameQuery.builder().afterSeq(4).beforeSeq(7).limit(2).build())));
  }

  // --- retention and gap -------------------------------------------------------------------------

  @Test
  void retention_countCapEvictsOldestAndQueryReportsGap() throws Exception {
    TetherStore s = store(Retention.builder().maxFrames(3).build());
    String vm = instance();
    for (int i = 1; i <= 5; i++) {
      s.append(vm, message(A, "m" + i));
    }
    QueryResult r = s.query(vm, FrameQuery.all());
    assertEquals(List.of(3L, 4L, 5L), seqs(r));
    assertTrue(r.gap());
    assertEquals(3, r.oldestSeq());
    QueryResult caughtUp = s.query(vm, FrameQuery.all().withAfterSeq(2));
    assertFalse(caughtUp.gap());
    assertEquals(0, caughtUp.oldestSeq());
  }

  @Test
  void retention_byteCapEvictsOldestButKeepsTheNewestFrame() throws Exception {
    TetherStore s = store(Retention.builder().maxBytes(1000).build());
    String vm = instance();
    s.append(vm, sized(A, 400));
    long second = s.append(vm, sized(A, 400));
    long third = s.append(vm, sized(A, 400));
    assertEquals(List.of(second, third), seqs(s.query(vm, FrameQuery.all())));
    long big = s.append(vm, sized(A, 5000));
    QueryResult r = s.query(vm, FrameQuery.all());
    assertEquals(List.of(big), seqs(r));
    assertTrue(r.gap());
  }

  @Test
  void query_gapIsPerSession() throws Exception {
    TetherStore s = store(Retention.builder().maxFrames(2).build());
    String vm = instance();
    s.append(vm, message(A, "a1"));
    long b1 = s.append(vm, message(B, "b1"));
    long a2 = s.append(vm, message(A, "a2"));
    QueryResult forA = s.query(vm, FrameQuery.session(A, 0));
    assertEquals(List.of(a2), seqs(forA));
    assertTrue(forA.gap());
    assertEquals(a2, forA.oldestSeq());
    QueryResult forB = s.query(vm, FrameQuery.session(B, 0));
    assertEquals(List.of(b1), seqs(forB));
    assertFalse(forB.gap());
  }

  @Test
  void deltas_areTransientByDefault_theyWakeWaitersButNeverEvictStoredFramesOrMakeAGap() throws Exception {
    TetherStore s = store(Retention.builder().maxFrames(2).build()); // deltasInRing left at its default
    String vm = instance();
    long question = s.append(vm, frame("user.message", A, "m1", "question"));
    CompletableFuture<QueryResult> waiting = s.waitForFrames(vm,
        FrameQuery.builder().afterSeq(question).types("assistant.delta").build(), LONG);
    long last = 0;
    for (int i = 0; i < 100; i++) {
      last = s.append(vm, frame("assistant.delta", A, null, "d" + i));
    }
    long answer = s.append(vm, done(A, "m1", "answer"));
    assertEquals(List.of(question + 1), seqs(waiting.get(30, TimeUnit.SECONDS)), "the first delta woke the waiter");
    assertEquals(question + 101, answer, "deltas used up seqs like any frame");
    QueryResult stored = s.query(vm, FrameQuery.builder().types("user.message", "assistant.done").build());
    assertEquals(List.of(question, answer), seqs(stored), "100 deltas evicted nothing under a cap of 2 frames");
    assertFalse(stored.gap());
    QueryResult late = s.query(vm, FrameQuery.builder().afterSeq(question).limit(200).build());
    assertFalse(late.gap(), "a delta that left the live window is not a gap");
    assertTrue(seqs(late).contains(last), "a poll a moment late still sees the newest delta");
    assertEquals(answer, seqs(late).get(seqs(late).size() - 1));
  }

  // --- waits -------------------------------------------------------------------------------------

  @Test
  void wait_returnsAtOnceWhenMatchingFramesExist() throws Exception {
    TetherStore s = store();
    String vm = instance();
    long seq = s.append(vm, message(A, "x"));
    QueryResult r = s.waitForFrames(vm, FrameQuery.session(A, 0), LONG).get(30, TimeUnit.SECONDS);
    assertEquals(List.of(seq), seqs(r));
    assertFalse(r.timedOut());
  }

  @Test
  void wait_completesOnTheFirstMatchingAppendOnly() throws Exception {
    TetherStore s = store();
    String vm = instance();
    CompletableFuture<QueryResult> f = s.waitForFrames(vm,
        FrameQuery.builder().session(A).types("assistant.done").build(), LONG);
    s.append(vm, message(A, "wrong type"));
    s.append(vm, done(B, null, "wrong session"));
    long seq = s.append(vm, done(A, null, "yes"));
    QueryResult r = f.get(30, TimeUnit.SECONDS);
    assertEquals(List.of(seq), seqs(r));
    assertEquals(seq, r.nextSeq());
    assertFalse(r.timedOut());
  }

  @Test
  void wait_withoutSessionIsWokenByAnySession() throws Exception {
    TetherStore s = store();
    String vm = instance();
    CompletableFuture<QueryResult> any = s.waitForFrames(vm, FrameQuery.all(), LONG);
    CompletableFuture<QueryResult> onA = s.waitForFrames(vm, FrameQuery.session(A, 0), LONG);
    long seq = s.append(vm, message(B, "b"));
    assertEquals(List.of(seq), seqs(any.get(30, TimeUnit.SECONDS)));
    assertFalse(onA.isDone());
    long a = s.append(vm, message(A, "a"));
    assertEquals(List.of(a), seqs(onA.get(30, TimeUnit.SECONDS)));
  }

  @Test
  void wait_timesOutWithTheCursorPastExaminedFrames() throws Exception {
    TetherStore s = store();
    String vm = instance();
    s.append(vm, message(B, "b"));
    QueryResult r = s.waitForFrames(vm, FrameQuery.session(A, 0), Duration.ofMillis(200)).get(30, TimeUnit.SECONDS);
    assertTrue(r.timedOut());
    assertTrue(r.frames().isEmpty());
    assertEquals(1, r.nextSeq());
  }

  @Test
  void wait_withZeroTimeoutOrBackwardPageAnswersAtOnce() throws Exception {
    TetherStore s = store();
    String vm = instance();
    QueryResult r = s.waitForFrames(vm, FrameQuery.session(A, 0), Duration.ZERO).get(30, TimeUnit.SECONDS);
    assertTrue(r.frames().isEmpty());
    s.append(vm, message(A, "a"));
    QueryResult back = s.waitForFrames(vm, FrameQuery.builder().session(A).beforeSeq(1).build(), LONG)
        .get(30, TimeUnit.SECONDS);
    assertTrue(back.frames().isEmpty());
  }

  @Test
  void wait_cursorAheadOfTheStoreWaitsForASeqAboveTheCursor() throws Exception {
    TetherStore s = store();
    String vm = instance();
    s.append(vm, message(A, "1"));
    CompletableFuture<QueryResult> f = s.waitForFrames(vm, FrameQuery.session(A, 2), LONG);
    s.append(vm, message(A, "2"));
    long third = s.append(vm, message(A, "3"));
    assertEquals(List.of(third), seqs(f.get(30, TimeUnit.SECONDS)));
  }

  @Test
  void wait_cancelledFutureStaysCancelledAndLaterWaitsStillWork() throws Exception {
    TetherStore s = store();
    String vm = instance();
    CompletableFuture<QueryResult> f = s.waitForFrames(vm, FrameQuery.session(A, 0), LONG);
    assertTrue(f.cancel(false));
    CompletableFuture<QueryResult> g = s.waitForFrames(vm, FrameQuery.session(A, 0), LONG);
    long seq = s.append(vm, message(A, "a"));
    assertEquals(List.of(seq), seqs(g.get(30, TimeUnit.SECONDS)));
    assertTrue(f.isCancelled());
  }

  @Test
  void awaitFrames_blocksUntilAMatchingAppend() throws Exception {
    TetherStore s = store();
    String vm = instance();
    ExecutorService appender = Executors.newSingleThreadExecutor();
    try {
      appender.submit(() -> {
        Thread.sleep(200);
        return s.append(vm, message(A, "late"));
      });
      QueryResult r = s.awaitFrames(vm, FrameQuery.session(A, 0), Duration.ofSeconds(60));
      assertEquals(1, r.frames().size());
    } finally {
      appender.shutdownNow();
    }
  }

  // --- subscriptions ---------------------------------------------------------------------------

  @Test
  void subscribe_deliversEveryLaterFrameInSeqOrder() throws Exception {
    TetherStore s = store();
    String vm = instance();
    s.append(vm, message(A, "before"));
    Subscription sub = s.subscribe(vm, 100);
    List<Long> appended = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      appended.add(s.append(vm, message(i % 2 == 0 ? A : B, "m" + i)));
    }
    List<Long> got = new ArrayList<>();
    while (got.size() < 10) {
      SubscriptionEvent e = sub.next(Duration.ofSeconds(30)).orElseThrow();
      got.add(assertInstanceOf(SubscriptionEvent.Delivered.class, e).frame().seq());
    }
    assertEquals(appended, got);
    sub.close();
  }

  @Test
  void subscribe_slowSubscriberLosesFramesAndIsToldWhich() throws Exception {
    TetherStore s = store();
    String vm = instance();
    Subscription sub = s.subscribe(vm, 2);
    for (int i = 0; i < 5; i++) {
      s.append(vm, message(A, "m" + i));
    }
    // Wait until the store has offered all five (a distributed store delivers asynchronously).
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (sub.lostFrames() < 3 && System.nanoTime() < deadline) {
      Thread.sleep(10);
    }
    assertEquals(1, ((SubscriptionEvent.Delivered) sub.poll().orElseThrow()).frame().seq());
    assertEquals(2, ((SubscriptionEvent.Delivered) sub.poll().orElseThrow()).frame().seq());
    assertEquals(new SubscriptionEvent.Lost(3, 5, 3), sub.poll().orElseThrow());
    assertThrows(IllegalArgumentException.class, () -> s.subscribe(vm, 0));
  }

  // --- removal and close ---------------------------------------------------------------------------

  @Test
  void remove_endsWaitsAndSubscriptionsAndSeqContinues() throws Exception {
    TetherStore s = store();
    String vm = instance();
    s.append(vm, message(A, "1"));
    s.append(vm, message(A, "2"));
    CompletableFuture<QueryResult> waiting = s.waitForFrames(vm, FrameQuery.session(A, 2), LONG);
    Subscription sub = s.subscribe(vm, 10);
    assertTrue(s.remove(vm));
    // A future completed with a CancellationException reports it directly from get().
    assertThrows(CancellationException.class, () -> waiting.get(30, TimeUnit.SECONDS));
    assertInstanceOf(SubscriptionEvent.Closed.class, sub.next(Duration.ofSeconds(30)).orElseThrow());
    assertTrue(s.query(vm, FrameQuery.all()).frames().isEmpty());
    assertEquals(2, s.lastSeq(vm));
    assertEquals(3, s.append(vm, message(A, "3")));
    assertEquals(List.of(3L), seqs(s.query(vm, FrameQuery.all())));
    assertFalse(s.remove(instance()));
  }

  @Test
  void close_endsWaitsAndRejectsAppends() throws Exception {
    TetherStore s = open(Retention.defaults());
    String vm = instance();
    CompletableFuture<QueryResult> waiting = s.waitForFrames(vm, FrameQuery.session(A, 0), LONG);
    s.close();
    // A future completed with a CancellationException reports it directly from get().
    assertThrows(CancellationException.class, () -> waiting.get(30, TimeUnit.SECONDS));
    assertThrows(IllegalStateException.class, () -> s.append(vm, message(A, "x")));
    s.close();
  }

  // --- the executor rule ---------------------------------------------------------------------------

  /** Public so that a store still waiting for its executor setting can disable it by overriding. */
  @Test
  @org.junit.jupiter.api.Timeout(value = 120, threadMode = org.junit.jupiter.api.Timeout.ThreadMode.SEPARATE_THREAD)
  public void append_fromAWaitersCallback_doesNotDeadlock() throws Exception {
    TetherStore s = store();
    String vm = instance();
    // A plain (not *Async) callback runs wherever the store completes the future; appending and
    // querying from it must not wait for a lock or a thread the store holds at that moment.
    CompletableFuture<Long> chained = s.waitForFrames(vm, FrameQuery.session(A, 0), LONG)
        .thenApply(r -> {
          long seq = s.append(vm, message(B, "from the callback"));
          s.query(vm, FrameQuery.all());
          return seq;
        });
    s.append(vm, message(A, "wake"));
    assertEquals(2, chained.get(60, TimeUnit.SECONDS));
    CompletableFuture<QueryResult> again = s.waitForFrames(vm, FrameQuery.session(B, 0), LONG)
        .thenCompose(r -> s.waitForFrames(vm, FrameQuery.session(A, r.nextSeq()), LONG));
    long third = s.append(vm, message(A, "third"));
    assertEquals(List.of(third), seqs(again.get(60, TimeUnit.SECONDS)));
  }

  @Test
  void waitFutures_completeThroughTheStoresExecutor() throws Exception {
    AtomicInteger ran = new AtomicInteger();
    AtomicReference<Thread> executorThread = new AtomicReference<>();
    ExecutorService pool = Executors.newSingleThreadExecutor(r -> {
      Thread t = new Thread(r, "contract-executor");
      t.setDaemon(true);
      executorThread.set(t);
      return t;
    });
    try {
      TetherStore s = openWithExecutor(Retention.defaults(), task -> {
        ran.incrementAndGet();
        pool.execute(task);
      });
      org.junit.jupiter.api.Assumptions.assumeTrue(s != null, "this store has no executor setting yet");
      opened.add(s);
      String vm = instance();
      AtomicReference<Thread> completedOn = new AtomicReference<>();
      CompletableFuture<QueryResult> f = s.waitForFrames(vm, FrameQuery.session(A, 0), LONG);
      CompletableFuture<Void> seen = f.thenAccept(r -> completedOn.set(Thread.currentThread()));
      s.append(vm, message(A, "wake"));
      seen.get(60, TimeUnit.SECONDS);
      assertTrue(ran.get() > 0, "the store never used its executor");
      assertEquals(executorThread.get(), completedOn.get());
      assertNotEquals(Thread.currentThread(), completedOn.get());
      CompletableFuture<Long> appended = s.appendAsync(vm, message(A, "async"));
      AtomicReference<Thread> appendCompletedOn = new AtomicReference<>();
      appended.thenAccept(x -> appendCompletedOn.set(Thread.currentThread())).get(60, TimeUnit.SECONDS);
      // A store that appends synchronously hands back a completed future, whose callbacks run on
      // the caller's own thread; otherwise they run on the executor. Never on a store thread.
      assertTrue(appendCompletedOn.get() == executorThread.get() || appendCompletedOn.get() == Thread.currentThread(),
          "appendAsync callback ran on " + appendCompletedOn.get());
      // A subscription's pending next() is completed by a later append: through the executor too.
      try (Subscription sub = s.subscribe(vm, 8)) {
        AtomicReference<Thread> nextCompletedOn = new AtomicReference<>();
        CompletableFuture<Void> next = sub.next().thenAccept(fr -> nextCompletedOn.set(Thread.currentThread()));
        s.append(vm, message(A, "to the subscriber"));
        next.get(60, TimeUnit.SECONDS);
        assertEquals(executorThread.get(), nextCompletedOn.get(), "Subscription.next() completed on a store thread");
      }
    } finally {
      pool.shutdownNow();
    }
  }
}
