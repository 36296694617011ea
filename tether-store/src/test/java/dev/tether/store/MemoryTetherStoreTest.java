package dev.tether.store;

import static dev.tether.api.testing.TestFrames.done;
import static dev.tether.api.testing.TestFrames.frame;
import static dev.tether.api.testing.TestFrames.message;
import static dev.tether.api.testing.TestFrames.sized;
import static dev.tether.api.testing.TestFrames.text;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tether.api.Frame;
import dev.tether.api.SessionKey;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class MemoryTetherStoreTest {
  static final SessionKey A = SessionKey.host("a");
  static final SessionKey B = SessionKey.host("b");
  static final SessionKey TG = new SessionKey("telegram", "a");

  final MemoryTetherStore store = MemoryTetherStore.create();

  @AfterEach
  void close() {
    store.close();
  }

  static List<Long> seqs(QueryResult r) {
    return r.frames().stream().map(Frame::seq).collect(Collectors.toList());
  }

  @Test
  void append_assignsSeqFromOnePerInstanceSharedByAllChannels() {
    assertEquals(1, store.append("vm1", text(A, "1")));
    assertEquals(2, store.append("vm1", text(TG, "2")));
    assertEquals(3, store.append("vm1", text(B, "3")));
    assertEquals(1, store.append("vm2", text(A, "other instance")));
    assertEquals(3, store.lastSeq("vm1"));
  }

  @Test
  void append_storesFrameWithSeqAndSharesPayloadBytes() {
    Frame f = text(A, "hello");
    long seq = store.append("vm", f);
    Frame stored = store.query("vm", FrameQuery.all()).frames().get(0);
    assertEquals(seq, stored.seq());
    assertEquals(f.withSeq(seq), stored);
    assertSame(f.payload(), stored.payload()); // the same bytes: no copy on append or query
  }

  @Test
  void append_ignoresSeqSetByCaller() {
    assertEquals(1, store.append("vm", text(A, "x").withSeq(99)));
  }

  @Test
  void append_rejectsEmptyInstance() {
    assertThrows(IllegalArgumentException.class, () -> store.append("", text(A, "x")));
    assertThrows(NullPointerException.class, () -> store.append(null, text(A, "x")));
  }

  @Test
  void query_filtersByChannelSessionTypesAndReply() {
    store.append("vm", frame("user.message", A, "host-1", "q"));
    store.append("vm", text(A, "d"));
    store.append("vm", text(TG, "telegram same id"));
    store.append("vm", done(A, "host-1", "answer"));
    store.append("vm", done(A, "host-2", "other answer"));
    store.append("vm", text(B, "b"));

    assertEquals(List.of(1L, 2L, 4L, 5L), seqs(store.query("vm", FrameQuery.session(A, 0))));
    assertEquals(List.of(4L, 5L), seqs(store.query("vm",
        FrameQuery.builder().session(A).types("assistant.done").build())));
    assertEquals(List.of(1L, 4L), seqs(store.query("vm",
        FrameQuery.builder().session(A).replyToMsgId("host-1").build())));
    assertEquals(List.of(3L), seqs(store.query("vm", FrameQuery.builder().channel("telegram").build())));
    assertEquals(List.of(2L, 3L), seqs(store.query("vm", FrameQuery.builder().sessionId("a")
        .types("assistant.delta").build())));
    assertEquals(List.of(4L, 5L), seqs(store.query("vm", FrameQuery.session(A, 2))));
  }

  @Test
  void query_unknownInstanceIsEmptyAndDoesNotCreateIt() {
    QueryResult r = store.query("nobody", FrameQuery.builder().afterSeq(7).build());
    assertTrue(r.frames().isEmpty());
    assertEquals(7, r.nextSeq());
    assertFalse(store.remove("nobody"));
  }

  @Test
  void query_limitDefaultsTo50AndIsClamped() {
    for (int i = 0; i < 250; i++) {
      store.append("vm", message(A, "f" + i));
    }
    assertEquals(50, store.query("vm", FrameQuery.all()).frames().size());
    assertEquals(200, store.query("vm", FrameQuery.builder().limit(10_000).build()).frames().size());
    assertEquals(1, store.query("vm", FrameQuery.builder().limit(-5).build()).frames().size());
    assertEquals(50, FrameQuery.builder().limit(0).build().limit());
  }

  @Test
  void nextSeq_isLastReturnedSeqWhenLimitTruncates() {
    for (int i = 0; i < 5; i++) {
      store.append("vm", text(A, "a" + i));
      store.append("vm", text(B, "b" + i));
    }
    QueryResult r = store.query("vm", FrameQuery.builder().session(A).limit(2).build());
    assertEquals(List.of(1L, 3L), seqs(r));
    assertEquals(3, r.nextSeq());
    QueryResult r2 = store.query("vm", FrameQuery.builder().session(A).limit(2).afterSeq(r.nextSeq()).build());
    assertEquals(List.of(5L, 7L), seqs(r2));
  }

  @Test
  void nextSeq_skipsPastExaminedNonMatchingFramesButNotFutureOnes() {
    store.append("vm", text(B, "b1"));
    store.append("vm", text(B, "b2"));
    QueryResult r = store.query("vm", FrameQuery.session(A, 0));
    assertTrue(r.frames().isEmpty());
    assertEquals(2, r.nextSeq());
    long seq = store.append("vm", text(A, "a"));
    assertEquals(List.of(seq), seqs(store.query("vm", FrameQuery.session(A, r.nextSeq()))));
  }

  @Test
  void nextSeq_neverGoesBelowTheCursor() {
    store.append("vm", text(A, "a"));
    assertEquals(40, store.query("vm", FrameQuery.session(A, 40)).nextSeq());
  }

  @Test
  void query_backwardPageReturnsNewestBeforeSeqInAscendingOrder() {
    for (int i = 0; i < 10; i++) {
      store.append("vm", text(i % 2 == 0 ? A : B, "f" + i));
    }
    QueryResult page = store.query("vm", FrameQuery.builder().session(A).beforeSeq(10).limit(2).build());
    assertEquals(List.of(7L, 9L), seqs(page));
    assertEquals(7, page.nextSeq());
    QueryResult older = store.query("vm", FrameQuery.builder().session(A).beforeSeq(page.nextSeq()).limit(10).build());
    assertEquals(List.of(1L, 3L, 5L), seqs(older));
    QueryResult none = store.query("vm", FrameQuery.builder().session(A).beforeSeq(1).build());
    assertTrue(none.frames().isEmpty());
    assertEquals(0, none.nextSeq());
    assertEquals(List.of(4L, 5L, 6L), seqs(store.query("vm",
        FrameQuery.builder().afterSeq(3).beforeSeq(7).build())));
  }

  @Test
  void query_reportsGapWhenCursorIsBelowOldestRetained() {
    MemoryTetherStore small = MemoryTetherStore.create(Retention.builder().maxFrames(3).build());
    for (int i = 0; i < 5; i++) {
      small.append("vm", message(A, "f" + i));
    }
    QueryResult r = small.query("vm", FrameQuery.session(A, 1));
    assertTrue(r.gap());
    assertEquals(3, r.oldestSeq());
    assertEquals(List.of(3L, 4L, 5L), seqs(r));
    QueryResult fine = small.query("vm", FrameQuery.session(A, 2));
    assertFalse(fine.gap());
    assertTrue(small.query("vm", FrameQuery.builder().afterSeq(0).build()).gap());
    small.close();
  }

  @Test
  void query_gapIsPerSession() {
    MemoryTetherStore small = MemoryTetherStore.create(Retention.builder().maxFrames(2).build());
    small.append("vm", message(B, "b1"));
    small.append("vm", message(A, "a1"));
    small.append("vm", message(A, "a2"));
    assertFalse(small.query("vm", FrameQuery.session(A, 0)).gap(), "only session b lost a frame");
    assertTrue(small.query("vm", FrameQuery.session(B, 0)).gap());
    small.close();
  }

  @Test
  void query_resultIsNotALiveView() {
    store.append("vm", text(A, "1"));
    QueryResult r = store.query("vm", FrameQuery.all());
    store.append("vm", text(A, "2"));
    assertEquals(1, r.frames().size());
    assertThrows(UnsupportedOperationException.class, () -> r.frames().add(text(A, "x")));
  }

  @Test
  void retention_countCapEvictsOldest() {
    MemoryTetherStore small = MemoryTetherStore.create(Retention.builder().maxFrames(3).build());
    for (int i = 0; i < 7; i++) {
      small.append("vm", message(i % 2 == 0 ? A : B, "f" + i));
    }
    assertEquals(List.of(5L, 6L, 7L), small.retained("vm").stream().map(Frame::seq).collect(Collectors.toList()));
    assertEquals(List.of(5L, 7L), seqs(small.query("vm", FrameQuery.session(A, 0))));
    small.close();
  }

  @Test
  void retention_imageFramesEvictOldestAndSmallFramesSurviveLonger() {
    // Spec tether-image-support §9 case 9, scaled: 10 KiB budget, 3 KiB "image" frames.
    MemoryTetherStore s = MemoryTetherStore.create(Retention.builder().maxBytes(10 * 1024).build());
    long small1 = s.append("vm", sized("assistant.done", A, 100));
    long img1 = s.append("vm", sized("user.message", A, 3 * 1024));
    long img2 = s.append("vm", sized("user.message", A, 3 * 1024));
    long img3 = s.append("vm", sized("user.message", A, 3 * 1024));
    long img4 = s.append("vm", sized("user.message", A, 3 * 1024));
    List<Long> kept = s.retained("vm").stream().map(Frame::seq).collect(Collectors.toList());
    assertEquals(List.of(img2, img3, img4), kept);
    assertEquals(3 * 3 * 1024, s.retainedBytes("vm"));
    // Many small frames then fit where one image did not.
    for (int i = 0; i < 20; i++) {
      s.append("vm", sized("assistant.done", B, 100));
    }
    assertEquals(3 * 3 * 1024 - 3 * 1024 + 20 * 100, s.retainedBytes("vm"), "one image made room for 20 small frames");
    assertFalse(kept.contains(small1));
    assertFalse(kept.contains(img1));
    s.close();
  }

  @Test
  void retention_newestFrameIsKeptEvenWhenItExceedsTheByteBudget() {
    MemoryTetherStore s = MemoryTetherStore.create(Retention.builder().maxBytes(1000).build());
    s.append("vm", sized("user.message", A, 500));
    long big = s.append("vm", sized("user.message", A, 5000));
    assertEquals(List.of(big), s.retained("vm").stream().map(Frame::seq).collect(Collectors.toList()));
    assertEquals(5000, s.retainedBytes("vm"));
    long next = s.append("vm", sized("user.message", A, 20));
    assertEquals(List.of(next), s.retained("vm").stream().map(Frame::seq).collect(Collectors.toList()));
    s.close();
  }

  @Test
  void retention_deltasOutOfRingStillGetSeqAndReachWaitersAndSubscribers() throws Exception {
    MemoryTetherStore s = MemoryTetherStore.create(Retention.builder().deltasInRing(false).build());
    Subscription sub = s.subscribe("vm", 10);
    var wait = s.waitForFrames("vm", FrameQuery.session(A, 0), java.time.Duration.ofSeconds(30));
    long d = s.append("vm", text(A, "delta"));
    long r = s.append("vm", frame("reasoning.delta", A, null, "hm"));
    long done = s.append("vm", done(A, null, "done"));
    assertEquals(List.of(1L, 2L, 3L), List.of(d, r, done));
    assertEquals(List.of(1L), seqs(wait.get()));
    assertEquals(List.of(3L), s.retained("vm").stream().map(Frame::seq).toList(), "only the done is retained");
    assertEquals(List.of(1L, 2L, 3L), seqs(s.query("vm", FrameQuery.session(A, 0))), "the deltas in the live window");
    assertEquals(1L, ((SubscriptionEvent.Delivered) sub.poll().orElseThrow()).frame().seq());
    assertEquals(2L, ((SubscriptionEvent.Delivered) sub.poll().orElseThrow()).frame().seq());
    s.close();
  }

  @Test
  void retention_builderFailsFastNamingTheSetting() {
    var e = assertThrows(IllegalArgumentException.class, () -> Retention.builder().maxFrames(0));
    assertEquals("maxFrames must be >= 1 but was 0", e.getMessage());
    var e2 = assertThrows(IllegalArgumentException.class, () -> Retention.builder().maxBytes(-1));
    assertEquals("maxBytes must be >= 1 but was -1", e2.getMessage());
    assertThrows(IllegalArgumentException.class, () -> FrameQuery.builder().afterSeq(-1).build());
  }

  @Test
  void remove_freesFramesAndSeqContinues() {
    store.append("vm", text(A, "1"));
    store.append("vm", text(A, "2"));
    assertTrue(store.remove("vm"));
    assertTrue(store.query("vm", FrameQuery.all()).frames().isEmpty());
    assertEquals(2, store.lastSeq("vm"));
    assertEquals(3, store.append("vm", text(A, "3")));
    assertEquals(List.of(3L), seqs(store.query("vm", FrameQuery.all())));
  }

  @Test
  void closedStore_rejectsAppends() {
    store.close();
    assertThrows(IllegalStateException.class, () -> store.append("vm", text(A, "x")));
  }

  @Test
  void sessionTailQuery_onInterleavedRingReturnsOnlyThatSession() {
    MemoryTetherStore s = MemoryTetherStore.create();
    for (int i = 0; i < 3000; i++) {
      s.append("vm", text(SessionKey.host("s" + (i % 10)), "f" + i));
    }
    QueryResult r = s.query("vm", FrameQuery.builder().session(SessionKey.host("s3")).afterSeq(2950).build());
    assertEquals(LongStream.rangeClosed(2951, 3000).filter(x -> (x - 1) % 10 == 3).boxed().collect(Collectors.toList()), seqs(r));
    s.close();
  }
}
