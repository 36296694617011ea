package dev.tether.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
  /** Records every call as a line, in order. */
  static final class RecordingListener implements StoreListener {
    final List<String> events = new CopyOnWriteArrayList<>();

    @Override
    public void appended(String instance, String type, long payloadBytes) {
      events.add("appended " + instance + " " + type + " " + payloadBytes);
    }

    @Override
    public void evicted(String instance, int frames, long payloadBytes) {
      events.add("evicted " + instance + " " + frames + " " + payloadBytes);
    }

    @Override
    public void gapServed(String instance) {
      events.add("gap " + instance);
    }

    @Override
    public void woke(String instance, long nanos) {
      assertTrue(nanos >= 0, "wake latency " + nanos);
      events.add("woke " + instance);
    }
  }

  private static Frame frame(String text) {
    return Frame.builder("assistant.done").session(SessionKey.host("s"))
        .payload(RawJson.of("{\"text\":\"" + text + "\"}")).build();
  }

  @Test
  void append_overTheFrameCap_tellsAppendedThenEvictedWithTheEvictedBytes() {
    RecordingListener l = new RecordingListener();
    try (MemoryTetherStore store = MemoryTetherStore.builder().listener(l)
        .retention(Retention.builder().maxFrames(2).build()).build()) {
      store.append("vm", frame("a"));
      store.append("vm", frame("b"));
      store.append("vm", frame("c"));
      long size = frame("a").payload().size();
      assertEquals(List.of("appended vm assistant.done " + size, "appended vm assistant.done " + size,
          "appended vm assistant.done " + size, "evicted vm 1 " + size), l.events);
    }
  }

  @Test
  void storeWideBudget_evictionOfTheLargestInstance_isTold() {
    RecordingListener l = new RecordingListener();
    long size = frame("a").payload().size();
    try (MemoryTetherStore store = MemoryTetherStore.builder().listener(l).maxTotalBytes(2 * size).build()) {
      store.append("big", frame("a"));
      store.append("big", frame("b"));
      store.append("small", frame("c"));
      assertTrue(l.events.contains("evicted big 1 " + size), l.events.toString());
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
      assertEquals(2, l.events.stream().filter(e -> e.equals("gap vm")).count(), l.events.toString());
      store.query("vm", FrameQuery.builder().afterSeq(2).build());
      assertEquals(2, l.events.stream().filter(e -> e.equals("gap vm")).count(), "no gap past the oldest frame");
    }
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
