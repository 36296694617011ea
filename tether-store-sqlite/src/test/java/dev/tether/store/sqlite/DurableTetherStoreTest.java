package dev.tether.store.sqlite;

import dev.tether.store.FrameQuery;
import dev.tether.store.QueryResult;
import dev.tether.store.Retention;
import dev.tether.store.Subscription;
import dev.tether.store.SubscriptionEvent;
import static dev.tether.api.testing.TestFrames.done;
import static dev.tether.api.testing.TestFrames.frame;
import static dev.tether.api.testing.TestFrames.message;
import static dev.tether.api.testing.TestFrames.sized;
import static dev.tether.api.testing.TestFrames.text;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tether.api.Frame;
import dev.tether.api.SessionKey;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DurableTetherStoreTest {
  static final SessionKey A = SessionKey.host("a");
  static final SessionKey B = SessionKey.host("b");

  @TempDir Path dir;

  Path file() {
    return dir.resolve("journal.db");
  }

  static List<Long> seqs(List<Frame> frames) {
    return frames.stream().map(Frame::seq).collect(Collectors.toList());
  }

  static long rowCount(Path file) throws Exception {
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file);
        Statement st = c.createStatement();
        ResultSet rs = st.executeQuery("SELECT count(*) FROM frames")) {
      rs.next();
      return rs.getLong(1);
    }
  }

  @Test
  void reopen_restoresFramesExactly() throws Exception {
    List<Frame> before;
    try (DurableTetherStore s = DurableTetherStore.open(file())) {
      s.append("vm", frame("user.message", A, "host-1", "hi"));
      s.append("vm", done(A, "host-1", "hello"));
      before = s.retained("vm");
    }
    try (DurableTetherStore s = DurableTetherStore.open(file())) {
      assertEquals(before, s.retained("vm"));
      assertEquals(2, s.lastSeq("vm"));
    }
  }

  @Test
  void reopen_seqContinuesAfterHighWaterMark() throws Exception {
    try (DurableTetherStore s = DurableTetherStore.open(file())) {
      s.append("vm", message(A, "1"));
      s.append("vm", message(A, "2"));
    }
    try (DurableTetherStore s = DurableTetherStore.open(file())) {
      assertEquals(3, s.append("vm", message(A, "3")));
    }
  }

  @Test
  void defaults_deltasAreNotJournaled_areGoneAfterRestart_andTheirSeqsAreNeverReused() throws Exception {
    SessionKey a = SessionKey.host("a");
    try (DurableTetherStore s = DurableTetherStore.open(file())) {
      assertEquals(1, s.append("vm", frame("user.message", a, "m1", "question")));
      assertEquals(2, s.append("vm", text(a, "delta one")));
      assertEquals(3, s.append("vm", text(a, "delta two")));
      QueryResult late = s.query("vm", FrameQuery.session(a, 1));
      assertEquals(List.of(2L, 3L), late.frames().stream().map(Frame::seq).toList(), "a late poll sees the deltas");
      assertEquals(1, s.retained("vm").size(), "deltas are not retained");
    }
    assertEquals(1, rowCount(file()), "only the user.message reached the journal");
    try (DurableTetherStore s = DurableTetherStore.open(file())) {
      QueryResult after = s.query("vm", FrameQuery.all());
      assertEquals(List.of(1L), after.frames().stream().map(Frame::seq).toList(), "the deltas did not survive the restart");
      assertEquals(false, after.gap(), "a delta lost with the restart is not a gap");
      long next = s.append("vm", done(a, "m1", "answer"));
      assertTrue(next > 3, "seq continues above the deltas' seqs, never reusing one: " + next);
      assertTrue(next <= 3 + DurableTetherStore.TRANSIENT_SEQ_RESERVE + 1, "it skips at most the reserve: " + next);
    }
  }

  @Test
  void transientDeltas_costOneCommitPerReserveNotOnePerDelta() throws Exception {
    SessionKey a = SessionKey.host("a");
    try (DurableTetherStore s = DurableTetherStore.open(file())) {
      java.util.concurrent.atomic.AtomicInteger commits = new java.util.concurrent.atomic.AtomicInteger();
      s.beforeCommit(commits::incrementAndGet);
      s.append("vm", frame("user.message", a, "m1", "question"));
      assertEquals(1, commits.get());
      long last = 0;
      for (int i = 0; i < 500; i++) {
        last = s.append("vm", text(a, "d" + i));
      }
      assertEquals(2, commits.get(), "the first delta raised the journalled mark; the other 499 committed nothing");
      assertEquals(List.of(last), s.query("vm", FrameQuery.builder().afterSeq(last - 1).build()).frames().stream()
          .map(Frame::seq).toList(), "a delta that committed nothing is still published");
      s.append("vm", done(a, "m1", "answer"));
      assertEquals(3, commits.get());
      for (int i = 0; i < DurableTetherStore.TRANSIENT_SEQ_RESERVE; i++) {
        last = s.append("vm", text(a, "more" + i));
      }
      assertEquals(4, commits.get(), "past the reserve, one more commit raises the mark again");
    }
    try (DurableTetherStore s = DurableTetherStore.open(file())) {
      long next = s.append("vm", done(a, null, "after restart"));
      assertTrue(next > 1 + 500 + 1 + DurableTetherStore.TRANSIENT_SEQ_RESERVE, "no delta's seq is reused: " + next);
    }
  }

  @Test
  void reopen_seqContinuesWhenEverythingWasEvictedOrRemoved() throws Exception {
    Retention deltasOut = Retention.builder().deltasInRing(false).build();
    try (DurableTetherStore s = DurableTetherStore.builder(file()).retention(deltasOut).open()) {
      s.append("vm", text(A, "delta, never retained"));
      s.append("vm", text(A, "delta, never retained"));
      s.append("gone", message(A, "x"));
      s.remove("gone");
    }
    assertEquals(0, rowCount(file()));
    try (DurableTetherStore s = DurableTetherStore.builder(file()).retention(deltasOut).open()) {
      assertTrue(s.retained("vm").isEmpty());
      assertTrue(s.append("vm", done(A, null, "3")) > 2, "above the deltas' seqs (by at most the reserve)");
      assertEquals(2, s.append("gone", done(A, null, "2")));
    }
  }

  @Test
  void open_emptyStoreStartsAtSeqOne() throws Exception {
    try (DurableTetherStore s = DurableTetherStore.open(file())) {
      assertTrue(s.query("vm", FrameQuery.all()).frames().isEmpty());
      assertEquals(1, s.append("vm", message(A, "1")));
    }
    Files.writeString(dir.resolve("empty.db"), "");
    try (DurableTetherStore s = DurableTetherStore.open(dir.resolve("empty.db"))) {
      assertEquals(1, s.append("vm", message(A, "1")));
    }
  }

  @Test
  void reopen_doesNotRejournalRestoredFrames() throws Exception {
    try (DurableTetherStore s = DurableTetherStore.open(file())) {
      for (int i = 0; i < 5; i++) {
        s.append("vm", message(A, "f" + i));
      }
    }
    long walBefore = Files.size(file()) + walSize();
    for (int round = 0; round < 3; round++) {
      try (DurableTetherStore s = DurableTetherStore.open(file())) {
        assertEquals(5, s.retained("vm").size());
      }
    }
    assertEquals(5, rowCount(file()));
    assertTrue(Files.size(file()) + walSize() <= walBefore + 4096 * 2,
        "reopening must not write the frames again");
  }

  private long walSize() throws IOException {
    Path wal = dir.resolve("journal.db-wal");
    return Files.exists(wal) ? Files.size(wal) : 0;
  }

  @Test
  void reopen_ringWrapsAroundAfterRestore() throws Exception {
    Retention three = Retention.builder().maxFrames(3).build();
    try (DurableTetherStore s = DurableTetherStore.builder(file()).retention(three).open()) {
      for (int i = 0; i < 5; i++) {
        s.append("vm", message(A, "f" + i));
      }
      assertEquals(List.of(3L, 4L, 5L), seqs(s.retained("vm")));
    }
    assertEquals(3, rowCount(file()), "evictions are deleted with the insert that caused them");
    try (DurableTetherStore s = DurableTetherStore.builder(file()).retention(three).open()) {
      assertEquals(List.of(3L, 4L, 5L), seqs(s.retained("vm")));
      s.append("vm", message(A, "f5"));
      s.append("vm", message(A, "f6"));
      assertEquals(List.of(5L, 6L, 7L), seqs(s.retained("vm")));
    }
    assertEquals(3, rowCount(file()));
  }

  @Test
  void reopen_withSmallerBudgetKeepsNewestThatFit() throws Exception {
    try (DurableTetherStore s = DurableTetherStore.open(file())) {
      for (int i = 0; i < 6; i++) {
        s.append("vm", sized("user.message", A, 1000));
      }
    }
    Retention small = Retention.builder().maxBytes(2500).build();
    try (DurableTetherStore s = DurableTetherStore.builder(file()).retention(small).open()) {
      assertEquals(List.of(5L, 6L), seqs(s.retained("vm")));
      assertEquals(2000, s.retainedBytes("vm"));
    }
    assertEquals(2, rowCount(file()));
  }

  @Test
  void reopen_filtersWorkOnRestoredFrames() throws Exception {
    try (DurableTetherStore s = DurableTetherStore.open(file())) {
      s.append("vm", frame("user.message", A, "host-1", "q"));
      s.append("vm", message(B, "b"));
      s.append("vm", done(A, "host-1", "answer"));
      s.append("vm", done(B, "host-2", "other"));
    }
    try (DurableTetherStore s = DurableTetherStore.open(file())) {
      assertEquals(List.of(1L, 3L), seqs(s.query("vm", FrameQuery.session(A, 0)).frames()));
      assertEquals(List.of(3L), seqs(s.query("vm", FrameQuery.builder().session(A)
          .types("assistant.done").replyToMsgId("host-1").build()).frames()));
      QueryResult r = s.waitForFrames("vm", FrameQuery.session(B, 4), Duration.ofMinutes(1)).toCompletableFuture().getNow(null);
      assertEquals(null, r, "nothing after seq 4 yet");
      CompletableFuture<QueryResult> w = s.waitForFrames("vm", FrameQuery.session(B, 4), Duration.ofMinutes(1));
      long seq = s.append("vm", message(B, "new"));
      assertEquals(5, seq);
      assertEquals(List.of(5L), seqs(w.get().frames()));
    }
  }

  @Test
  void reopen_keepsSeveralInstancesApart() throws Exception {
    try (DurableTetherStore s = DurableTetherStore.open(file())) {
      s.append("vm1", message(A, "1a"));
      s.append("vm2", message(A, "2a"));
      s.append("vm1", message(A, "1b"));
    }
    try (DurableTetherStore s = DurableTetherStore.open(file())) {
      assertEquals(List.of(1L, 2L), seqs(s.retained("vm1")));
      assertEquals(List.of(1L), seqs(s.retained("vm2")));
      assertEquals(3, s.append("vm1", message(A, "1c")));
      assertEquals(2, s.append("vm2", message(A, "2b")));
    }
  }

  @Test
  void concurrentAppends_areAllCommittedWithDistinctSeqs() throws Exception {
    int threads = 8;
    int each = 200;
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try (DurableTetherStore s = DurableTetherStore.builder(file())
        .retention(Retention.builder().maxFrames(10_000).build()).open()) {
      List<Future<List<Long>>> results = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        int id = t;
        results.add(pool.submit(() -> {
          List<Long> mine = new ArrayList<>();
          for (int i = 0; i < each; i++) {
            mine.add(s.append("vm", message(SessionKey.host("s" + id), id + ":" + i)));
          }
          return mine;
        }));
      }
      List<Long> all = new ArrayList<>();
      for (Future<List<Long>> f : results) {
        List<Long> mine = f.get();
        for (int i = 1; i < mine.size(); i++) {
          assertTrue(mine.get(i) > mine.get(i - 1), "one thread's seqs increase");
        }
        all.addAll(mine);
      }
      assertEquals(threads * each, all.stream().distinct().count());
      assertEquals(threads * each, s.lastSeq("vm"));
    } finally {
      pool.shutdownNow();
    }
    try (DurableTetherStore s = DurableTetherStore.builder(file())
        .retention(Retention.builder().maxFrames(10_000).build()).open()) {
      List<Long> seqs = seqs(s.retained("vm"));
      assertEquals(threads * each, seqs.size());
      for (int i = 0; i < seqs.size(); i++) {
        assertEquals(i + 1, seqs.get(i));
      }
    }
  }

  @Test
  void appendAsync_manyInFlightFromOneThreadAllCommitInOrder() throws Exception {
    List<CompletableFuture<Long>> inFlight = new ArrayList<>();
    try (DurableTetherStore s = DurableTetherStore.open(file())) {
      for (int i = 0; i < 300; i++) {
        inFlight.add(s.appendAsync("vm", message(A, "f" + i)));
      }
      for (int i = 0; i < inFlight.size(); i++) {
        assertEquals(i + 1, inFlight.get(i).get());
      }
      assertThrows(IllegalArgumentException.class, () -> s.appendAsync("", message(A, "x")));
    }
    assertEquals(300, rowCount(file()));
  }

  @Test
  void hostileInstanceNamesAreStoredAsData() throws Exception {
    String sql = "vm'); DROP TABLE frames; --";
    String odd = "vm\u0000\n\u2028\uD83D\uDE00";
    try (DurableTetherStore s = DurableTetherStore.open(file())) {
      s.append(sql, message(A, "1"));
      s.append(odd, message(A, "2"));
    }
    try (DurableTetherStore s = DurableTetherStore.open(file())) {
      assertEquals(List.of(1L), seqs(s.retained(sql)));
      assertEquals(List.of(1L), seqs(s.retained(odd)));
      assertEquals(2, rowCount(file()));
    }
  }

  @Test
  void open_rejectsForeignSqliteDatabase() throws Exception {
    Path foreign = dir.resolve("other.db");
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + foreign);
        Statement st = c.createStatement()) {
      st.execute("CREATE TABLE customers (id INTEGER)");
      st.execute("INSERT INTO customers VALUES (1)");
    }
    IOException e = assertThrows(IOException.class, () -> DurableTetherStore.open(foreign));
    assertTrue(e.getMessage().contains("is not a tether journal"), e.getMessage());
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + foreign);
        Statement st = c.createStatement();
        ResultSet rs = st.executeQuery("SELECT count(*) FROM customers")) {
      rs.next();
      assertEquals(1, rs.getInt(1), "the foreign database is untouched");
    }
  }

  @Test
  void open_rejectsGarbageFile() throws Exception {
    Path junk = dir.resolve("junk.db");
    Files.write(junk, "this is not a database at all, just some text that goes on".repeat(100)
        .getBytes(StandardCharsets.UTF_8));
    IOException e = assertThrows(IOException.class, () -> DurableTetherStore.open(junk));
    assertTrue(e.getMessage().contains("junk.db"), e.getMessage());
  }

  @Test
  void open_rejectsOtherJournalVersion() throws Exception {
    try (DurableTetherStore s = DurableTetherStore.open(file())) {
      s.append("vm", message(A, "1"));
    }
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file());
        Statement st = c.createStatement()) {
      st.execute("PRAGMA user_version=99");
    }
    IOException e = assertThrows(IOException.class, () -> DurableTetherStore.open(file()));
    assertTrue(e.getMessage().contains("version 99"), e.getMessage());
  }

  @Test
  void open_rejectsCorruptFrameRow() throws Exception {
    try (DurableTetherStore s = DurableTetherStore.open(file())) {
      s.append("vm", message(A, "1"));
    }
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file());
        Statement st = c.createStatement()) {
      st.execute("UPDATE frames SET frame = X'7B2274797065223A' WHERE seq = 1");
    }
    IOException e = assertThrows(IOException.class, () -> DurableTetherStore.open(file()));
    assertTrue(e.getMessage().contains("vm/1 is corrupt"), e.getMessage());
  }

  @Test
  void open_rejectsRowWhoseSeqDisagrees() throws Exception {
    try (DurableTetherStore s = DurableTetherStore.open(file())) {
      s.append("vm", message(A, "1"));
      s.append("vm", message(A, "2"));
    }
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file());
        Statement st = c.createStatement()) {
      st.execute("UPDATE frames SET seq = 7 WHERE seq = 1");
    }
    IOException e = assertThrows(IOException.class, () -> DurableTetherStore.open(file()));
    assertTrue(e.getMessage().contains("carries seq 1"), e.getMessage());
  }

  @Test
  void append_afterCloseFails() throws Exception {
    DurableTetherStore s = DurableTetherStore.open(file());
    s.close();
    assertThrows(IllegalStateException.class, () -> s.append("vm", message(A, "x")));
  }

  @Test
  void waitersAndSubscribersSeeOnlyCommittedFrames() throws Exception {
    try (DurableTetherStore s = DurableTetherStore.open(file())) {
      Subscription sub = s.subscribe("vm", 10);
      long seq = s.append("vm", message(A, "x"));
      // The append returned, so the commit happened before delivery.
      assertEquals(seq, ((SubscriptionEvent.Delivered) sub.poll().orElseThrow()).frame().seq());
      assertEquals(1, rowCount(file()));
    }
  }
}
