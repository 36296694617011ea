package dev.tether.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class LazyTimerTest {
  @Test
  void tasksRunInDeadlineOrderAndCancelledOnesNever() throws Exception {
    try (LazyTimer timer = new LazyTimer("test-timer")) {
      List<String> ran = new CopyOnWriteArrayList<>();
      CountDownLatch last = new CountDownLatch(1);
      Runnable cancel = timer.schedule(() -> ran.add("cancelled"), TimeUnit.MILLISECONDS.toNanos(900));
      cancel.run();
      timer.schedule(() -> ran.add("600ms"), TimeUnit.MILLISECONDS.toNanos(600));
      timer.schedule(() -> ran.add("200ms"), TimeUnit.MILLISECONDS.toNanos(200));
      timer.schedule(() -> {
        ran.add("1200ms");
        last.countDown();
      }, TimeUnit.MILLISECONDS.toNanos(1200));
      // An earlier deadline than the one the thread sleeps towards must wake it. The deadlines
      // are hundreds of milliseconds apart so that a descheduled test thread cannot reorder them.
      timer.schedule(() -> ran.add("now"), 0);
      assertTrue(last.await(30, TimeUnit.SECONDS));
      assertEquals(List.of("now", "200ms", "600ms", "1200ms"), ran);
      assertEquals(0, timer.pending());
    }
  }

  @Test
  void cancelledEntriesArePurgedFromALargeQueue() {
    try (LazyTimer timer = new LazyTimer("test-timer")) {
      Runnable[] cancels = new Runnable[5000];
      for (int i = 0; i < cancels.length; i++) {
        cancels[i] = timer.schedule(() -> { }, TimeUnit.HOURS.toNanos(1));
      }
      for (Runnable c : cancels) {
        c.run();
        c.run(); // idempotent
      }
      assertEquals(0, timer.pending());
      assertTrue(timer.queued() <= 2048, "cancelled entries do not pile up: " + timer.queued());
    }
  }

  @Test
  void aFailingTaskDoesNotStopTheTimer() throws Exception {
    try (LazyTimer timer = new LazyTimer("test-timer")) {
      CountDownLatch after = new CountDownLatch(1);
      timer.schedule(() -> {
        throw new IllegalStateException("boom");
      }, 0);
      timer.schedule(after::countDown, TimeUnit.MILLISECONDS.toNanos(5));
      assertTrue(after.await(30, TimeUnit.SECONDS));
    }
  }
}
