package dev.tether.store.sqlite;

import dev.tether.store.FrameQuery;
import dev.tether.store.QueryResult;
import dev.tether.store.Retention;
import static dev.tether.api.testing.TestFrames.done;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tether.api.SessionKey;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Eviction high-water marks survive a restart: a cursor into evicted history still reports a gap. */
class DurableGapAfterRestartTest {
  static final SessionKey A = SessionKey.host("a");
  static final SessionKey B = SessionKey.host("b");

  @TempDir Path dir;

  Path file() {
    return dir.resolve("journal.db");
  }

  @Test
  void cursorIntoEvictedHistory_reportsGapBeforeAndAfterRestart() throws Exception {
    Retention small = Retention.builder().maxFrames(3).build();
    FrameQuery all = FrameQuery.builder().afterSeq(1).build();
    FrameQuery sessionA = FrameQuery.session(A, 0);
    QueryResult before;
    QueryResult beforeA;
    try (DurableTetherStore s = DurableTetherStore.builder(file()).retention(small).open()) {
      s.append("vm", done(A, null, "a1"));
      s.append("vm", done(A, null, "a2"));
      for (int i = 0; i < 3; i++) {
        s.append("vm", done(B, null, "b" + i));
      }
      before = s.query("vm", all);
      beforeA = s.query("vm", sessionA);
    }
    assertTrue(before.gap());
    assertTrue(beforeA.gap(), "session a lost both its frames");
    try (DurableTetherStore s = DurableTetherStore.builder(file()).retention(small).open()) {
      QueryResult after = s.query("vm", all);
      QueryResult afterA = s.query("vm", sessionA);
      assertEquals(before, after);
      assertEquals(beforeA, afterA);
      assertEquals(before.oldestSeq(), after.oldestSeq());
    }
  }

  @Test
  void retentionShrunkAtReopen_rowsCutThenReportAGap() throws Exception {
    try (DurableTetherStore s = DurableTetherStore.open(file())) {
      for (int i = 0; i < 5; i++) {
        s.append("vm", done(A, null, "a" + i));
      }
    }
    Retention small = Retention.builder().maxFrames(2).build();
    for (int reopen = 0; reopen < 2; reopen++) {
      try (DurableTetherStore s = DurableTetherStore.builder(file()).retention(small).open()) {
        QueryResult r = s.query("vm", FrameQuery.session(A, 0));
        assertTrue(r.gap(), "reopen " + reopen);
        assertEquals(4L, r.oldestSeq());
      }
    }
  }
}
