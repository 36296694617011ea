package dev.tether.store.sqlite;

import dev.tether.store.FrameQuery;
import static dev.tether.api.testing.TestFrames.done;
import static dev.tether.api.testing.TestFrames.sized;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tether.api.SessionKey;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A failed commit makes the durable store fail-stop: the batch and everything queued behind it
 * fail, nothing is committed out of order, later appends fail fast naming the cause, and the
 * retention ledger counts only committed frames. The failure is injected at the commit.
 */
class DurableFailStopTest {
  static final SessionKey A = SessionKey.host("a");

  @TempDir Path dir;

  Path file() {
    return dir.resolve("journal.db");
  }

  @Test
  void failedCommit_laterAppendsFailFastNamingTheCause_andNothingQueuedIsCommitted() throws Exception {
    CountDownLatch inCommit = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    List<CompletableFuture<Long>> queued = new ArrayList<>();
    try (DurableTetherStore s = DurableTetherStore.open(file())) {
      s.append("vm", done(A, null, "committed"));
      s.beforeCommit(() -> {
        inCommit.countDown();
        try {
          release.await();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
        throw new SQLException("disk I/O error (injected)");
      });
      CompletableFuture<Long> failing = s.appendAsync("vm", sized("assistant.done", A, 1000));
      assertTrue(inCommit.await(30, TimeUnit.SECONDS));
      // Queued behind the failing commit: must never be committed after it.
      for (int i = 0; i < 3; i++) {
        queued.add(s.appendAsync("vm", done(A, null, "queued " + i)));
      }
      s.beforeCommit(null); // a later commit would succeed: fail-stop must not try one
      release.countDown();
      ExecutionException e = assertThrows(ExecutionException.class, () -> failing.get(30, TimeUnit.SECONDS));
      assertTrue(e.getCause() instanceof UncheckedIOException, e.getCause().toString());
      for (CompletableFuture<Long> q : queued) {
        assertThrows(ExecutionException.class, () -> q.get(30, TimeUnit.SECONDS));
      }
      IllegalStateException later = assertThrows(IllegalStateException.class,
          () -> s.append("vm", done(A, null, "later")));
      assertTrue(later.getMessage().contains("disk I/O error (injected)"), later.getMessage());
      assertThrows(IllegalStateException.class, () -> s.appendAsync("vm", done(A, null, "later")));
      assertEquals(1, s.ledgerSize("vm"), "the ledger counts only the committed frame");
      assertEquals(1, s.retained("vm").size());
    }
    try (DurableTetherStore s = DurableTetherStore.open(file())) {
      assertEquals(List.of(1L), DurableTetherStoreTest.seqs(s.retained("vm")));
      assertFalse(s.query("vm", FrameQuery.session(A, 0)).gap());
    }
  }
}
