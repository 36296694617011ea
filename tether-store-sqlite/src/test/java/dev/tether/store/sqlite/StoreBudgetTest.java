package dev.tether.store.sqlite;

import dev.tether.api.testing.TestFrames;
import dev.tether.store.FrameQuery;
import dev.tether.store.MemoryTetherStore;
import dev.tether.store.QueryResult;
import dev.tether.store.Retention;
import static dev.tether.api.testing.TestFrames.done;
import static dev.tether.api.testing.TestFrames.sized;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tether.api.ErrorCode;
import dev.tether.api.SessionKey;
import dev.tether.api.TetherException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The store-wide byte budget and instance cap: evict the oldest frame of the instance holding the
 * most bytes, never an instance's last frame, else refuse with STORE_FULL; refuse a new instance
 * beyond the cap with TOO_MANY_INSTANCES; free instances that hold nothing.
 */
class StoreBudgetTest {
  static final SessionKey A = SessionKey.host("a");

  @TempDir Path dir;

  @Test
  void builder_rejectsNonPositiveLimitsNamingTheSetting() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> MemoryTetherStore.builder().maxTotalBytes(0));
    assertEquals("maxTotalBytes must be >= 1 but was 0", e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> DurableTetherStore.builder(dir).maxInstances(-1));
    assertEquals("maxInstances must be >= 1 but was -1", e.getMessage());
  }

  @Test
  void memory_appendOverBudget_evictsTheLargestInstancesOldestFrame() {
    try (MemoryTetherStore s = MemoryTetherStore.builder().maxTotalBytes(3000).build()) {
      s.append("big", sized("assistant.done", A, 1000));
      s.append("big", sized("assistant.done", A, 1000));
      s.append("small", sized("assistant.done", A, 500));
      s.append("small", sized("assistant.done", A, 500)); // 3000 in all
      s.append("new", sized("assistant.done", A, 1000));
      assertEquals(List.of(2L), DurableTetherStoreTest.seqs(s.retained("big")));
      assertEquals(2, s.retained("small").size());
      assertEquals(3000, s.totalBytes());
      assertTrue(s.query("big", FrameQuery.session(A, 0)).gap(), "the eviction shows as a gap");
    }
  }

  @Test
  void memory_appendThatCannotFit_isRefusedWithStoreFull_andNothingIsStored() {
    try (MemoryTetherStore s = MemoryTetherStore.builder().maxTotalBytes(2000).build()) {
      s.append("one", sized("assistant.done", A, 1000));
      s.append("two", sized("assistant.done", A, 1000));
      TetherException e = assertThrows(TetherException.class,
          () -> s.append("three", sized("assistant.done", A, 500)));
      assertEquals(ErrorCode.STORE_FULL, e.code());
      assertEquals(0, s.lastSeq("three"));
      e = assertThrows(TetherException.class, () -> s.append("one", sized("assistant.done", A, 3000)));
      assertEquals(ErrorCode.STORE_FULL, e.code());
      assertEquals(2000, s.totalBytes(), "refused appends hold no reservation");
    }
  }

  @Test
  void memory_concurrentAppenders_neverTakeTheStoreOverItsBudget() throws Exception {
    long budget = 50_000;
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try (MemoryTetherStore s = MemoryTetherStore.builder().maxTotalBytes(budget).build()) {
      List<Future<?>> fs = new java.util.ArrayList<>();
      for (int t = 0; t < 4; t++) {
        String name = "vm" + t;
        fs.add(pool.submit(() -> {
          for (int i = 0; i < 2000; i++) {
            s.append(name, sized("assistant.done", A, 1000));
            assertTrue(s.totalBytes() <= budget);
          }
        }));
      }
      for (Future<?> f : fs) {
        f.get(120, TimeUnit.SECONDS);
      }
      long retained = 0;
      for (int t = 0; t < 4; t++) {
        retained += s.retainedBytes("vm" + t);
      }
      assertEquals(retained, s.totalBytes());
      assertTrue(retained <= budget);
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void memory_instanceBeyondTheCap_isRefused_andAnIdleOneIsFreed() throws Exception {
    try (MemoryTetherStore s = MemoryTetherStore.builder().maxInstances(2).build()) {
      s.append("one", done(A, null, "x"));
      s.append("two", done(A, null, "x"));
      TetherException e = assertThrows(TetherException.class, () -> s.append("three", done(A, null, "x")));
      assertEquals(ErrorCode.TOO_MANY_INSTANCES, e.code());
      e = assertThrows(TetherException.class,
          () -> s.waitForFrames("three", FrameQuery.session(A, 0), Duration.ofSeconds(1)));
      assertEquals(ErrorCode.TOO_MANY_INSTANCES, e.code());
      assertTrue(s.remove("two"));
      // A wait on an unknown instance that ends leaves nothing behind.
      QueryResult r = s.awaitFrames("ghost", FrameQuery.session(A, 0), Duration.ofMillis(10));
      assertTrue(r.timedOut());
      assertEquals(1, s.instanceCount());
      s.subscribe("ghost", 1).close();
      assertEquals(1, s.instanceCount());
      s.append("three", done(A, null, "x"));
      assertEquals(2, s.instanceCount());
    }
  }

  @Test
  void memory_deltaOnlyInstance_keepsItsLiveWindow_andNeverReusesSeqs() throws Exception {
    Retention noDeltas = Retention.builder().deltasInRing(false).build();
    try (MemoryTetherStore s = MemoryTetherStore.builder().retention(noDeltas).build()) {
      s.append("vm", TestFrames.text(A, "delta")); // retains nothing, but its live window holds the delta
      assertEquals(1, s.instanceCount());
      assertEquals(1, s.query("vm", FrameQuery.session(A, 0)).frames().size());
      assertEquals(1, s.lastSeq("vm"));
      assertEquals(2, s.append("vm", done(A, null, "x")));
    }
  }

  @Test
  void durable_appendOverBudget_evictsInJournalAndRing_andSurvivesRestart() throws Exception {
    Path file = dir.resolve("j.db");
    try (DurableTetherStore s = DurableTetherStore.builder(file).maxTotalBytes(3000).open()) {
      s.append("big", sized("assistant.done", A, 1000));
      s.append("big", sized("assistant.done", A, 1000));
      s.append("small", sized("assistant.done", A, 1000));
      s.append("new", sized("assistant.done", A, 1000));
      assertEquals(List.of(2L), DurableTetherStoreTest.seqs(s.retained("big")));
      assertEquals(3000, s.totalBytes());
      TetherException e = assertThrows(TetherException.class,
          () -> s.append("other", sized("assistant.done", A, 1000)));
      assertEquals(ErrorCode.STORE_FULL, e.code());
    }
    assertEquals(3, DurableTetherStoreTest.rowCount(file));
    try (DurableTetherStore s = DurableTetherStore.builder(file).maxTotalBytes(3000).open()) {
      assertEquals(List.of(2L), DurableTetherStoreTest.seqs(s.retained("big")));
      assertTrue(s.query("big", FrameQuery.session(A, 0)).gap());
      assertEquals(1L, s.lastSeq("other"), "the refused append's seq is never reused");
      // Every instance holds only its newest frame: nothing more fits until one is removed.
      TetherException e = assertThrows(TetherException.class, () -> s.append("small", done(A, null, "x")));
      assertEquals(ErrorCode.STORE_FULL, e.code());
      assertTrue(s.remove("new"));
      assertEquals(3L, s.append("small", done(A, null, "fits")), "seq 2 went to the refused append");
    }
  }

  @Test
  void durable_reopenedWithASmallerBudget_trimsAtOpen_notAtItsFirstAppend() throws Exception {
    Path file = dir.resolve("j.db");
    try (DurableTetherStore s = DurableTetherStore.open(file)) {
      for (int i = 0; i < 4; i++) {
        s.append("big", sized("assistant.done", A, 1000));
      }
      s.append("small", sized("assistant.done", A, 1000));
    }
    try (DurableTetherStore s = DurableTetherStore.builder(file).maxTotalBytes(3000).open()) {
      assertEquals(3000, s.totalBytes(), "within the budget before any append");
      assertEquals(List.of(3L, 4L), DurableTetherStoreTest.seqs(s.retained("big")), "the largest instance gave up its oldest");
      assertEquals(List.of(1L), DurableTetherStoreTest.seqs(s.retained("small")));
      assertTrue(s.query("big", FrameQuery.session(A, 0)).gap(), "the trim shows as a gap");
    }
    assertEquals(3, DurableTetherStoreTest.rowCount(file), "the trim was committed to the journal");
    try (DurableTetherStore s = DurableTetherStore.open(file)) {
      assertEquals(List.of(3L, 4L), DurableTetherStoreTest.seqs(s.retained("big")));
      assertTrue(s.query("big", FrameQuery.session(A, 0)).gap(), "and its gap survives the next restart");
      assertEquals(5L, s.append("big", done(A, null, "next")), "no seq is reused");
    }
  }

  @Test
  void durable_reopenedWithABudgetItsNewestFramesExceed_keepsThemAndRefusesMore() throws Exception {
    Path file = dir.resolve("j.db");
    try (DurableTetherStore s = DurableTetherStore.open(file)) {
      s.append("one", sized("assistant.done", A, 2000));
      s.append("two", sized("assistant.done", A, 2000));
    }
    try (DurableTetherStore s = DurableTetherStore.builder(file).maxTotalBytes(3000).open()) {
      assertEquals(4000, s.totalBytes(), "an instance's last frame is never evicted");
      TetherException e = assertThrows(TetherException.class, () -> s.append("one", done(A, null, "x")));
      assertEquals(ErrorCode.STORE_FULL, e.code());
    }
  }

  @Test
  void durable_instanceBeyondTheCap_isRefused() throws Exception {
    try (DurableTetherStore s = DurableTetherStore.builder(dir.resolve("j.db")).maxInstances(1).open()) {
      s.append("one", done(A, null, "x"));
      TetherException e = assertThrows(TetherException.class, () -> s.append("two", done(A, null, "x")));
      assertEquals(ErrorCode.TOO_MANY_INSTANCES, e.code());
      assertFalse(s.remove("two"));
    }
  }
}
