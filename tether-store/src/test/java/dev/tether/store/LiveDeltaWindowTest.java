package dev.tether.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tether.api.Frame;
import dev.tether.api.testing.TestFrames;
import dev.tether.api.SessionKey;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** Transient deltas: never retained, but a poll that comes a moment late still sees recent ones. */
class LiveDeltaWindowTest {
  private static final SessionKey S = SessionKey.host("s");
  private static final Retention TRANSIENT = Retention.builder().deltasInRing(false).build();

  @Test
  void defaults_keepDeltasTransient() {
    assertFalse(Retention.defaults().deltasInRing());
    assertFalse(Retention.builder().build().deltasInRing());
    assertTrue(Retention.builder().deltasInRing(true).build().deltasInRing());
  }

  @Test
  void defaultStore_aLatePollWithinTheWindowSeesTheDelta_andExpiredOnesAreNoGap() {
    MemoryTetherStore store = MemoryTetherStore.create();
    long question = store.append("i", TestFrames.message(S, "question"));
    long first = store.append("i", TestFrames.text(S, "first"));
    QueryResult late = store.query("i", FrameQuery.builder().afterSeq(question).build());
    assertEquals(List.of(first), seqs(late.frames()), "the delta is still pollable after it was appended");
    for (int i = 0; i < FrameRing.LIVE_WINDOW_FRAMES; i++) {
      store.append("i", TestFrames.text(S, "d" + i));
    }
    QueryResult later = store.query("i", FrameQuery.builder().afterSeq(question).limit(200).build());
    assertFalse(later.gap(), "the first delta left the window: not a gap");
    assertFalse(seqs(later.frames()).contains(first));
    assertEquals(FrameRing.LIVE_WINDOW_FRAMES, later.frames().size());
    assertEquals(List.of(question), seqs(store.retained("i")), "no delta is retained");
    store.close();
  }

  @Test
  void transientDeltas_doNotEvictStoredFrames_butALatePollSeesTheRecentOnes() {
    // deltasInRing left at its default: transient.
    MemoryTetherStore store = MemoryTetherStore.builder().retention(Retention.builder().maxFrames(3).build()).build();
    store.append("i", TestFrames.frame("user.message", S, "m1", "question"));
    for (int i = 0; i < 500; i++) {
      store.append("i", TestFrames.text(S, "d" + i));
    }
    store.append("i", TestFrames.done(S, "m1", "answer"));
    assertEquals(2, store.retained("i").size(), "500 deltas evicted nothing");
    QueryResult late = store.query("i", FrameQuery.builder().afterSeq(1).limit(200).build());
    assertFalse(late.gap(), "missing expired deltas is not a gap");
    List<Frame> deltas = late.frames().stream().filter(f -> f.type().equals("assistant.delta")).toList();
    assertEquals(FrameRing.LIVE_WINDOW_FRAMES, deltas.size());
    assertEquals(501, deltas.get(deltas.size() - 1).seq(), "the newest deltas are the ones kept");
    assertEquals("assistant.done", late.frames().get(late.frames().size() - 1).type());
    assertEquals(502, late.nextSeq());
    assertAscending(late.frames());
  }

  @Test
  void liveWindow_respectsFiltersLimitsAndBackwardPages() {
    MemoryTetherStore store = MemoryTetherStore.builder().retention(TRANSIENT).build();
    SessionKey other = SessionKey.host("other");
    for (int i = 0; i < 10; i++) {
      store.append("i", TestFrames.frame("user.message", S, "m" + i, "q"));
      store.append("i", TestFrames.text(i % 2 == 0 ? S : other, "d" + i));
    }
    QueryResult page = store.query("i", FrameQuery.builder().session(S).afterSeq(0).limit(4).build());
    assertEquals(List.of(1L, 2L, 3L, 5L), seqs(page.frames()));
    assertEquals(5, page.nextSeq(), "a full page resumes after its last frame");
    QueryResult onlyDeltas = store.query("i", FrameQuery.builder().types("assistant.delta").limit(200).build());
    assertEquals(10, onlyDeltas.frames().size());
    QueryResult back = store.query("i", FrameQuery.builder().session(S).beforeSeq(10).limit(3).build());
    assertEquals(List.of(6L, 7L, 9L), seqs(back.frames()), "the newest three of session s before seq 10");
    assertEquals(6, back.nextSeq());
  }

  @Test
  void keepDeltasSetting_storesThemLikeOtherFrames() {
    MemoryTetherStore store = MemoryTetherStore.builder().retention(Retention.builder().deltasInRing(true).maxFrames(3).build()).build();
    store.append("i", TestFrames.frame("user.message", S, "m1", "question"));
    for (int i = 0; i < 5; i++) {
      store.append("i", TestFrames.text(S, "d" + i));
    }
    assertEquals(3, store.retained("i").size());
    assertTrue(store.query("i", FrameQuery.builder().build()).gap(), "stored deltas evict, and that is a gap");
  }

  @Test
  void underLoad_aFollowingReaderSeesEveryStoredFrameOnce_andDeltasInOrder() throws Exception {
    MemoryTetherStore store = MemoryTetherStore.builder().retention(TRANSIENT).build();
    int turns = 300;
    int deltasPerTurn = 20;
    ExecutorService writers = Executors.newFixedThreadPool(2);
    AtomicBoolean done = new AtomicBoolean();
    CountDownLatch started = new CountDownLatch(1);
    writers.submit(() -> {
      started.countDown();
      for (int t = 0; t < turns; t++) {
        store.append("i", TestFrames.frame("user.message", S, "m" + t, "q"));
        for (int d = 0; d < deltasPerTurn; d++) {
          store.append("i", TestFrames.text(S, "t" + t + "d" + d));
        }
        store.append("i", TestFrames.done(S, "m" + t, "a"));
      }
      done.set(true);
      return null;
    });
    started.await();
    long cursor = 0;
    List<Frame> stored = new ArrayList<>();
    AtomicLong lastDelta = new AtomicLong();
    long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (System.nanoTime() < until) {
      QueryResult r = store.awaitFrames("i", FrameQuery.builder().afterSeq(cursor).limit(50).build(), Duration.ofMillis(200));
      assertFalse(r.gap());
      for (Frame f : r.frames()) {
        if (f.type().equals("assistant.delta")) {
          assertTrue(f.seq() > lastDelta.get(), "deltas never repeat or go back");
          lastDelta.set(f.seq());
        } else {
          stored.add(f);
        }
      }
      assertAscending(r.frames());
      cursor = r.nextSeq();
      if (done.get() && cursor == store.lastSeq("i")) {
        break;
      }
    }
    writers.shutdown();
    assertTrue(writers.awaitTermination(30, TimeUnit.SECONDS));
    assertEquals(2 * turns, stored.size(), "every user.message and assistant.done exactly once");
    assertAscending(stored);
  }

  private static void assertAscending(List<Frame> frames) {
    for (int i = 1; i < frames.size(); i++) {
      assertTrue(frames.get(i - 1).seq() < frames.get(i).seq(), "seqs ascend: " + seqs(frames));
    }
  }

  private static List<Long> seqs(List<Frame> frames) {
    return frames.stream().map(Frame::seq).toList();
  }
}
