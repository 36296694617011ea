package dev.tether.store;

import static dev.tether.api.testing.TestFrames.done;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tether.api.SessionKey;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The hand-off of an event the store has claimed for a waiting {@code next()} but not yet
 * completed (its completion waits on the executor): cancelling meanwhile puts the event back in
 * order, and {@code next(Duration)} returns it even when its timeout passes meanwhile. The
 * executor is controlled by the test to hold the hand-off open. The blocking {@code awaitFrames}
 * never depends on the executor.
 */
class SubscriptionInFlightHandoffTest {
  static final SessionKey A = SessionKey.host("a");

  private static long seqOf(SubscriptionEvent e) {
    return ((SubscriptionEvent.Delivered) e).frame().seq();
  }

  @Test
  void nextCancelledWhileTheHandOffIsInFlight_putsTheFrameBackInOrder() throws Exception {
    // A manual executor holds the hand-off so the cancel lands between claim and completion.
    List<Runnable> held = new ArrayList<>();
    try (MemoryTetherStore s = MemoryTetherStore.builder().executor(held::add).build();
        Subscription sub = s.subscribe("vm", 8)) {
      CompletableFuture<SubscriptionEvent> f = sub.next();
      s.append("vm", done(A, null, "one")); // claimed for f, hand-off held
      s.append("vm", done(A, null, "two")); // queued behind it
      f.cancel(false);
      CompletableFuture<SubscriptionEvent> g = sub.next(); // must not jump ahead to seq 2
      assertEquals(1, held.size());
      held.remove(0).run(); // the held hand-off fails on f, and passes seq 1 on to g
      while (!held.isEmpty()) {
        held.remove(0).run();
      }
      assertEquals(1L, seqOf(g.get(30, TimeUnit.SECONDS)));
      assertEquals(2L, seqOf(sub.poll().orElseThrow()));
      assertEquals(0, sub.lostFrames());
    }
  }

  @Test
  void nextWithTimeout_returnsAFrameTheStoreClaimedBeforeTheTimeout() throws Exception {
    // The appender appends once the consumer blocks in next(Duration); the executor holds the
    // claimed hand-off well past that call's timeout.
    ExecutorService slow = Executors.newSingleThreadExecutor();
    Thread consumer = Thread.currentThread();
    try (MemoryTetherStore s = MemoryTetherStore.builder().executor(r -> slow.execute(() -> {
      try {
        Thread.sleep(1500);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      r.run();
    })).build(); Subscription sub = s.subscribe("vm", 8)) {
      Thread appender = new Thread(() -> {
        while (consumer.getState() != Thread.State.TIMED_WAITING) {
          Thread.onSpinWait();
        }
        s.append("vm", done(A, null, "one"));
      });
      appender.start();
      Optional<SubscriptionEvent> e = sub.next(Duration.ofMillis(500));
      appender.join();
      assertTrue(e.isPresent(), "the claimed frame was dropped at the timeout");
      assertEquals(1L, seqOf(e.get()));
      assertTrue(sub.poll().isEmpty());
      assertEquals(0, sub.lostFrames());
    } finally {
      slow.shutdownNow();
    }
  }

  @Test
  void awaitFrames_blockingPath_stillWakesWithoutTheExecutor() throws Exception {
    // A store whose executor never runs anything: the blocking form must not depend on it.
    try (MemoryTetherStore s = MemoryTetherStore.builder().executor(r -> { }).build()) {
      Thread appender = new Thread(() -> {
        while (s.pendingWaits("vm") == 0) {
          Thread.onSpinWait();
        }
        s.append("vm", done(A, null, "x"));
      });
      appender.start();
      QueryResult r = s.awaitFrames("vm", FrameQuery.session(A, 0), Duration.ofSeconds(30));
      appender.join();
      assertFalse(r.timedOut());
      assertEquals(1, r.frames().size());
    }
  }
}
