package dev.tether.store.sqlite;

import dev.tether.store.FrameQuery;
import dev.tether.store.MemoryTetherStore;
import dev.tether.store.Subscription;
import dev.tether.store.TetherStore;
import static dev.tether.api.testing.TestFrames.done;
import static dev.tether.api.testing.TestFrames.frame;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tether.api.SessionKey;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Code a caller attaches to a store's futures runs on the store's executor, never on the thread
 * that appended, the timer or the journal writer, and may call back into the store: the natural
 * agent loop {@code waitForFrames(...).thenApply(r -> store.append(reply))}. Each scenario here
 * hung or ran on a store thread before the executor rule. Timeouts are generous (a busy 2-core
 * machine); a hang shows as a failed {@code get} with a timeout, not a stuck build.
 */
class CallbackThreadsTest {
  static final SessionKey A = SessionKey.host("a");
  static final long SLACK_SECONDS = 30;

  @TempDir Path dir;

  @Test
  void durable_waiterCallbackThatAppends_doesNotDeadlockTheWriter() throws Exception {
    try (DurableTetherStore s = DurableTetherStore.open(dir.resolve("j.db"))) {
      CompletableFuture<Long> reply = s.waitForFrames("vm", FrameQuery.session(A, 0), Duration.ofMinutes(5))
          .thenApply(r -> s.append("vm", done(A, "host-1", "reply")));
      s.append("vm", frame("user.message", A, "host-1", "hi"));
      assertEquals(2L, reply.get(SLACK_SECONDS, TimeUnit.SECONDS));
      // The writer is alive: later appends still commit.
      assertEquals(3L, s.append("vm", done(A, null, "later")));
    }
  }

  @Test
  void durable_waiterCallbackThatJoinsAnAsyncAppend_doesNotDeadlockTheWriter() throws Exception {
    try (DurableTetherStore s = DurableTetherStore.open(dir.resolve("j.db"))) {
      CompletableFuture<Long> reply = s.waitForFrames("vm", FrameQuery.session(A, 0), Duration.ofMinutes(5))
          .thenApply(r -> s.appendAsync("vm", done(A, "host-1", "reply")).join());
      s.appendAsync("vm", frame("user.message", A, "host-1", "hi"));
      assertEquals(2L, reply.get(SLACK_SECONDS, TimeUnit.SECONDS));
      assertEquals(3L, s.append("vm", done(A, null, "later")));
    }
  }

  @Test
  void durable_appendAsyncCallbackThatAppends_doesNotDeadlockTheWriter() throws Exception {
    try (DurableTetherStore s = DurableTetherStore.open(dir.resolve("j.db"))) {
      CompletableFuture<Long> second = s.appendAsync("vm", done(A, null, "one"))
          .thenApply(seq -> s.append("vm", done(A, null, "two")));
      assertEquals(2L, second.get(SLACK_SECONDS, TimeUnit.SECONDS));
      assertEquals(3L, s.append("vm", done(A, null, "three")));
    }
  }

  @Test
  void memory_removeCompletingAWaitWhoseCallbackWaitsSubscribesAndAppends_returns() throws Exception {
    try (MemoryTetherStore s = MemoryTetherStore.create()) {
      CompletableFuture<Void> reentered = new CompletableFuture<>();
      s.waitForFrames("vm", FrameQuery.session(A, 0), Duration.ofMinutes(5)).whenComplete((r, e) -> {
        try {
          s.waitForFrames("vm", FrameQuery.session(A, 0), Duration.ofMinutes(5));
          s.subscribe("vm", 4);
          s.append("vm", done(A, null, "after removal"));
          reentered.complete(null);
        } catch (Throwable t) {
          reentered.completeExceptionally(t);
        }
      });
      CompletableFuture<Boolean> removed = CompletableFuture.supplyAsync(() -> s.remove("vm"));
      assertTrue(removed.get(SLACK_SECONDS, TimeUnit.SECONDS));
      reentered.get(SLACK_SECONDS, TimeUnit.SECONDS);
      assertEquals(1L, s.lastSeq("vm"), "the new history continues the removed one's seqs");
    }
  }

  @Test
  void durable_removeCompletingAWaitWhoseCallbackAppends_returns() throws Exception {
    try (DurableTetherStore s = DurableTetherStore.open(dir.resolve("j.db"))) {
      s.append("vm", frame("user.message", A, "host-1", "hi"));
      CompletableFuture<Long> reentered = s.waitForFrames("vm", FrameQuery.session(A, 1), Duration.ofMinutes(5))
          .handle((r, e) -> s.append("vm", done(A, null, "after removal")));
      CompletableFuture<Boolean> removed = CompletableFuture.supplyAsync(() -> s.remove("vm"));
      assertTrue(removed.get(SLACK_SECONDS, TimeUnit.SECONDS));
      assertEquals(2L, reentered.get(SLACK_SECONDS, TimeUnit.SECONDS));
    }
  }

  @Test
  void heavyCallbackWork_neverRunsOnTheAppenderTimerOrWriterThread() throws Exception {
    // Default settings: the executor is ForkJoinPool.commonPool().
    List<String> threads = new CopyOnWriteArrayList<>();
    try (MemoryTetherStore mem = MemoryTetherStore.create();
        DurableTetherStore dur = DurableTetherStore.open(dir.resolve("j.db"))) {
      for (TetherStore s : List.of(mem, dur)) {
        // Woken by an append from a thread named "appender".
        CompletableFuture<?> woken = s.waitForFrames("vm", FrameQuery.session(A, 0), Duration.ofMinutes(5))
            .thenApply(r -> buildLargeResult(threads));
        Thread appender = new Thread(() -> s.append("vm", done(A, null, "x")), "appender");
        appender.start();
        woken.get(SLACK_SECONDS, TimeUnit.SECONDS);
        appender.join();
        // Completed by the timer thread.
        s.waitForFrames("vm", FrameQuery.session(A, 99), Duration.ofMillis(20))
            .thenApply(r -> buildLargeResult(threads)).get(SLACK_SECONDS, TimeUnit.SECONDS);
        // Subscription hand-off, woken by the appender (memory) or the writer (durable).
        Subscription sub = s.subscribe("vm", 4);
        CompletableFuture<?> event = sub.next().thenApply(e -> buildLargeResult(threads));
        Thread appender2 = new Thread(() -> s.append("vm", done(A, null, "y")), "appender");
        appender2.start();
        event.get(SLACK_SECONDS, TimeUnit.SECONDS);
        appender2.join();
        sub.close();
      }
      // The durable appendAsync future.
      dur.appendAsync("vm", done(A, null, "z")).thenApply(seq -> buildLargeResult(threads))
          .get(SLACK_SECONDS, TimeUnit.SECONDS);
    }
    assertEquals(7, threads.size(), threads.toString());
    for (String t : threads) {
      assertFalse(Set.of("appender", "tether-store-timer", "tether-journal-writer").contains(t),
          "caller code ran on the store's thread " + t + " (all: " + threads + ")");
    }
  }

  /** Stands in for tether_read building megabytes of base64: records where it ran. */
  private static int buildLargeResult(List<String> threads) {
    threads.add(Thread.currentThread().getName());
    return "x".repeat(1 << 20).length();
  }
}
