package dev.tether.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.tether.api.Frame;
import dev.tether.api.SessionKey;
import dev.tether.api.testing.TestFrames;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * An append nobody waits on keeps the caller's frame unstamped and stamps it on its first read:
 * every reader must still see the assigned seq, and the same object each time.
 */
class DeferredSeqStampTest {
  private static final SessionKey S = SessionKey.host("s");

  private static List<Long> seqs(List<Frame> frames) {
    return frames.stream().map(Frame::seq).toList();
  }

  @Test
  void oneFrameObjectAppendedManyTimes_isReadBackWithEachAssignedSeq_andTheSameObjectOnEveryRead() {
    MemoryTetherStore store = MemoryTetherStore.builder().retention(Retention.builder().maxFrames(3).build()).build();
    Frame carriesOwnSeq = TestFrames.message(S, "hi").withSeq(42);
    for (int i = 0; i < 5; i++) {
      assertEquals(i + 1, store.append("i", carriesOwnSeq));
    }
    List<Frame> first = store.query("i", FrameQuery.all()).frames();
    assertEquals(List.of(3L, 4L, 5L), seqs(first));
    assertEquals(List.of(4L, 5L), seqs(store.query("i", FrameQuery.session(S, 3)).frames()));
    List<Frame> backward = store.query("i", FrameQuery.builder().beforeSeq(5).limit(1).build()).frames();
    assertEquals(List.of(4L), seqs(backward));
    assertSame(first.get(1), backward.get(0), "stamped once, then shared");
    List<Frame> retained = store.retained("i");
    for (int i = 0; i < 3; i++) {
      assertSame(first.get(i), retained.get(i));
      assertSame(carriesOwnSeq.payload(), retained.get(i).payload(), "the payload is never copied");
    }
    store.close();
  }

  @Test
  void subscribersAndWaiters_getStampedFrames_equalToWhatAQueryReturns() throws Exception {
    MemoryTetherStore store = MemoryTetherStore.create();
    Frame unstamped = TestFrames.message(S, "x");
    store.append("i", unstamped);
    Subscription sub = store.subscribe("i", 8);
    CompletableFuture<QueryResult> waiting = store.waitForFrames("i", FrameQuery.session(S, 1), Duration.ofSeconds(10));
    assertEquals(2, store.append("i", unstamped));
    SubscriptionEvent e = sub.next(Duration.ofSeconds(10)).orElseThrow();
    Frame delivered = assertInstanceOf(SubscriptionEvent.Delivered.class, e).frame();
    assertEquals(2, delivered.seq());
    assertEquals(List.of(2L), seqs(waiting.get(10, TimeUnit.SECONDS).frames()));
    assertEquals(delivered, store.query("i", FrameQuery.session(S, 1)).frames().get(0));
    assertEquals(List.of(1L, 2L), seqs(store.retained("i")));
    sub.close();
    store.close();
  }
}
