package dev.tether.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tether.store.internal.SequencedFrameIndex;
import dev.tether.api.Frame;
import dev.tether.api.RawJson;
import dev.tether.api.SessionKey;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class StoreListenerTest {
  private static final int DONE = FrameCounts.typeIndex("assistant.done");

  /** Records each state's counts as handed over, each release, and every wake, in order. */
  static final class RecordingListener implements StoreListener {
    final List<String> events = new CopyOnWriteArrayList<>();
    final List<FrameCounts> created = new CopyOnWriteArrayList<>();
    final List<FrameCounts> released = new CopyOnWriteArrayList<>();

    @Override
    public StoreListener forInstance(String instance, FrameCounts counts) {
      events.add("created " + instance + " " + describe(counts));
      created.add(counts);
      return this;
    }

    @Override
    public void released(String instance, FrameCounts counts) {
      events.add("released " + instance + " " + describe(counts));
      released.add(counts);
    }

    @Override
    public void woke(String instance, long nanos) {
      assertTrue(nanos >= 0, "wake latency " + nanos);
      events.add("woke " + instance);
    }

    /** The one state's counts of the single instance a test used. */
    FrameCounts only() {
      assertEquals(1, created.size(), events.toString());
      return created.get(0);
    }
  }

  static String describe(FrameCounts c) {
    long frames = 0;
    long bytes = 0;
    for (int t = 0; t < FrameCounts.TYPES.size(); t++) {
      frames += c.appendedFrames(t);
      bytes += c.appendedBytes(t);
    }
    return "appended=" + frames + "/" + bytes + " evicted=" + c.evictedFrames() + "/" + c.evictedBytes()
        + " gaps=" + c.gapsServed();
  }

  private static Frame frame(String text) {
    return Frame.builder("assistant.done").session(SessionKey.host("s"))
        .payload(RawJson.of("{\"text\":\"" + text + "\"}")).build();
  }

  @Test
  void append_overTheFrameCap_countsAppendedByTypeAndTheEvictedBytes() {
    RecordingListener l = new RecordingListener();
    try (MemoryTetherStore store = MemoryTetherStore.builder().listener(l)
        .retention(Retention.builder().maxFrames(2).build()).build()) {
      store.append("vm", frame("a"));
      store.append("vm", frame("b"));
      store.append("vm", frame("c"));
      store.append("vm", Frame.builder("x.custom").payload(RawJson.of("{}")).build());
      long size = frame("a").payload().size();
      FrameCounts c = l.only();
      assertEquals(3, c.appendedFrames(DONE));
      assertEquals(3 * size, c.appendedBytes(DONE));
      assertEquals(1, c.appendedFrames(FrameCounts.OTHER), "a type the wire does not name counts as other");
      assertEquals(2, c.appendedBytes(FrameCounts.OTHER));
      assertEquals(0, c.appendedFrames(FrameCounts.typeIndex("user.message")));
      assertEquals(2, c.evictedFrames());
      assertEquals(2 * size, c.evictedBytes());
    }
  }

  @Test
  void stateCreatedByAWait_handsOverItsCountsAtZero_beforeAnyFrame() {
    RecordingListener l = new RecordingListener();
    try (MemoryTetherStore store = MemoryTetherStore.builder().listener(l).build()) {
      store.waitForFrames("vm", FrameQuery.builder().build(), Duration.ofSeconds(30));
      assertEquals(List.of("created vm appended=0/0 evicted=0/0 gaps=0"), l.events);
    }
  }

  @Test
  void storeWideBudget_evictionOfTheLargestInstance_isCountedThere() {
    RecordingListener l = new RecordingListener();
    long size = frame("a").payload().size();
    try (MemoryTetherStore store = MemoryTetherStore.builder().listener(l).maxTotalBytes(2 * size).build()) {
      store.append("big", frame("a"));
      store.append("big", frame("b"));
      store.append("small", frame("c"));
      assertEquals(1, l.created.get(0).evictedFrames(), l.events.toString());
      assertEquals(size, l.created.get(0).evictedBytes());
      assertEquals(0, l.created.get(1).evictedFrames());
    }
  }

  @Test
  void queryBehindTheOldestFrame_isAGapServed() throws Exception {
    RecordingListener l = new RecordingListener();
    try (MemoryTetherStore store = MemoryTetherStore.builder().listener(l)
        .retention(Retention.builder().maxFrames(1).build()).build()) {
      store.append("vm", frame("a"));
      store.append("vm", frame("b"));
      assertTrue(store.query("vm", FrameQuery.builder().afterSeq(0).build()).gap());
      assertTrue(store.waitForFrames("vm", FrameQuery.builder().afterSeq(0).build(), Duration.ofSeconds(1))
          .get(5, TimeUnit.SECONDS).gap());
      assertEquals(2, l.only().gapsServed());
      store.query("vm", FrameQuery.builder().afterSeq(2).build());
      assertEquals(2, l.only().gapsServed(), "no gap past the oldest frame");
    }
  }

  @Test
  void removedInstance_isReleasedOnceWithFinalCounts_andItsNextHistoryStartsNewCounts() {
    RecordingListener l = new RecordingListener();
    try (MemoryTetherStore store = MemoryTetherStore.builder().listener(l).build()) {
      store.append("vm", frame("a"));
      assertTrue(store.remove("vm"));
      assertEquals(1, l.released.size());
      assertSame(l.created.get(0), l.released.get(0), "released with the counts it handed over");
      assertEquals(1, l.released.get(0).appendedFrames(DONE));
      store.append("vm", frame("b"));
      store.append("vm", frame("c"));
      assertEquals(2, l.created.size());
      assertNotSame(l.created.get(0), l.created.get(1));
      assertEquals(1, l.created.get(0).appendedFrames(DONE), "final: the next history counts elsewhere");
      assertEquals(2, l.created.get(1).appendedFrames(DONE));
    }
    assertEquals(2, l.released.size(), "closing the store releases the live state: " + l.events);
  }

  @Test
  void instanceFreedAsIdle_isReleased() throws Exception {
    RecordingListener l = new RecordingListener();
    try (MemoryTetherStore store = MemoryTetherStore.builder().listener(l).build()) {
      CompletableFuture<QueryResult> w = store.waitForFrames("vm", FrameQuery.builder().build(), Duration.ofSeconds(30));
      w.cancel(false); // the instance now holds nothing: freed
      assertEquals(0, store.instanceCount());
      assertEquals(List.of("created vm appended=0/0 evicted=0/0 gaps=0", "released vm appended=0/0 evicted=0/0 gaps=0"),
          l.events);
    }
  }

  @Test
  void sequencedIndex_endedTwice_isReleasedOnce() {
    RecordingListener l = new RecordingListener();
    try (SequencedFrameIndex.Timer timer = SequencedFrameIndex.Timer.create("t")) {
      SequencedFrameIndex index = SequencedFrameIndex.create("vm", Retention.defaults(), timer, 0, Runnable::run, l);
      index.publish(List.of(frame("a").withSeq(5)));
      index.end("ended");
      index.end("ended again");
      assertEquals(1, l.released.size());
      assertEquals(1, l.released.get(0).appendedFrames(DONE));
    }
  }

  @Test
  void counts_typeIndexOutsideTypes_throws() {
    RecordingListener l = new RecordingListener();
    try (MemoryTetherStore store = MemoryTetherStore.builder().listener(l).build()) {
      store.append("vm", frame("a"));
      assertThrows(IndexOutOfBoundsException.class, () -> l.only().appendedFrames(FrameCounts.TYPES.size()));
      assertThrows(IndexOutOfBoundsException.class, () -> l.only().appendedBytes(-1));
    }
  }

  @Test
  void typeIndex_everyWireTypeHasItsOwn_anythingElseIsOther() {
    for (int i = 0; i < FrameCounts.TYPES.size() - 1; i++) {
      assertEquals(i, FrameCounts.typeIndex(FrameCounts.TYPES.get(i)));
    }
    assertEquals("other", FrameCounts.TYPES.get(FrameCounts.OTHER));
    assertEquals(FrameCounts.OTHER, FrameCounts.typeIndex("x.custom"));
    assertEquals(FrameCounts.OTHER, FrameCounts.typeIndex("User.Message"));
    assertEquals(FrameCounts.OTHER, FrameCounts.typeIndex("other"));
  }

  @Test
  void appendThatWakesAWaiter_toldOncePerWaiter() throws Exception {
    RecordingListener l = new RecordingListener();
    try (MemoryTetherStore store = MemoryTetherStore.builder().listener(l).build()) {
      FrameQuery q = FrameQuery.builder().session(SessionKey.host("s")).build();
      CompletableFuture<QueryResult> w1 = store.waitForFrames("vm", q, Duration.ofSeconds(30));
      CompletableFuture<QueryResult> w2 = store.waitForFrames("vm", FrameQuery.builder().build(), Duration.ofSeconds(30));
      store.append("vm", frame("a"));
      assertEquals(1, w1.get(5, TimeUnit.SECONDS).frames().size());
      assertEquals(1, w2.get(5, TimeUnit.SECONDS).frames().size());
      // The executor may tell the second wake just after w2 completes: wait for it without a clock.
      while (l.events.stream().filter(e -> e.equals("woke vm")).count() < 2) {
        Thread.onSpinWait();
      }
      assertEquals(2, l.events.stream().filter(e -> e.equals("woke vm")).count());
    }
  }

  @Test
  void noListener_defaultIsNone() {
    assertEquals(StoreListener.NONE, MemoryTetherStore.builder().settings().listener());
  }

  @Test
  void readiness_readyWhileOpen_notReadyWithAReasonOnceClosed() {
    MemoryTetherStore store = MemoryTetherStore.create();
    assertTrue(store.readiness().ready());
    store.close();
    assertEquals(Readiness.notReady("the store is closed"), store.readiness());
  }
}
