package dev.tether.store.jetstream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tether.api.ErrorCode;
import dev.tether.api.Frame;
import dev.tether.api.RawJson;
import dev.tether.api.SessionKey;
import dev.tether.api.TetherException;
import dev.tether.store.FrameQuery;
import dev.tether.store.QueryResult;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.quicktheories.QuickTheory;
import org.quicktheories.generators.SourceDSL;

/** The byte budget across one host's views ({@code maxTotalBytes}): the memory store's rule, across views. */
class ViewBudgetTest extends OneNatsServer {
  static final SessionKey S = SessionKey.host("budget");
  static final int BUDGET = 10_000;

  static Frame frame(int i, int bytes) {
    return Frame.builder("user.message").version(1).session(S)
        .payload(RawJson.of("{\"text\":\"" + "x".repeat(bytes - 11) + "\"}")).build();
  }

  JetStreamTetherStore budgeted() throws Exception {
    JetStreamTetherStore s = JetStreamTetherStore.builder().servers(server.url()).maxTotalBytes(BUDGET).connect();
    closeAfter.add(s);
    return s;
  }

  @Test
  void manyViewsOverTheBudget_evictOldestOfTheLargest_neverAViewsLastFrame() throws Exception {
    JetStreamTetherStore writer = store();
    JetStreamTetherStore host = budgeted();
    List<String> vms = new ArrayList<>();
    List<Long> newest = new ArrayList<>();
    for (int v = 0; v < 4; v++) {
      String vm = instance("budget-" + v);
      vms.add(vm);
      long last = 0;
      for (int i = 0; i < 5; i++) {
        last = writer.append(vm, frame(i, 1000));
      }
      newest.add(last);
    }
    for (int v = 0; v < 4; v++) {
      host.query(vms.get(v), FrameQuery.all()); // makes the view: 5 KB each, 20 KB in all
      assertTrue(host.viewBytes() <= BUDGET, "views hold " + host.viewBytes() + " bytes");
    }
    assertEquals(4, host.openViews());
    for (int v = 0; v < 4; v++) {
      QueryResult r = host.query(vms.get(v), FrameQuery.builder().afterSeq(0).build());
      assertFalse(r.frames().isEmpty(), "a view keeps its newest frame");
      assertEquals(newest.get(v), r.frames().get(r.frames().size() - 1).seq());
      if (r.frames().size() < 5) {
        assertTrue(r.gap(), "frames the budget took are reported as a gap");
      }
    }
    // Removing a view gives its bytes back.
    long before = host.viewBytes();
    host.remove(vms.get(0));
    assertTrue(host.viewBytes() < before, host.viewBytes() + " < " + before);
  }

  @Test
  void appendLargerThanTheBudget_isStoreFull_andNothingIsStored() throws Exception {
    JetStreamTetherStore host = budgeted();
    String vm = instance("too-big");
    host.append(vm, frame(0, 100));
    TetherException e = assertThrows(TetherException.class, () -> host.append(vm, frame(1, BUDGET + 100)));
    assertEquals(ErrorCode.STORE_FULL, e.code());
    assertEquals(1, store().query(vm, FrameQuery.all()).frames().size());
  }

  @Test
  void appendsOverTheBudget_makeRoomInTheViews() throws Exception {
    JetStreamTetherStore host = budgeted();
    String vm = instance("room");
    host.append(vm, frame(0, 1000));
    host.query(vm, FrameQuery.all()); // the view
    for (int i = 1; i < 30; i++) {
      host.append(vm, frame(i, 1000)); // 30 KB through a 10 KB budget
    }
    List<Frame> kept = host.query(vm, FrameQuery.builder().afterSeq(0).build()).frames();
    assertTrue(host.viewBytes() <= BUDGET, "views hold " + host.viewBytes());
    assertTrue(kept.size() < 30 && !kept.isEmpty(), kept.size() + " frames kept");
  }

  @Test
  void property_viewsStayWithinTheBudget_unlessEachHoldsOnlyItsNewestFrame() throws Exception {
    JetStreamTetherStore writer = store();
    JetStreamTetherStore host = budgeted();
    List<String> all = new ArrayList<>();
    QuickTheory.qt().withExamples(12).forAll(
        SourceDSL.integers().between(1, 4), SourceDSL.integers().between(1, 5), SourceDSL.integers().between(200, 4000))
        .checkAssert((views, frames, size) -> {
          for (int v = 0; v < views; v++) {
            String vm = instance("prop-" + v);
            all.add(vm);
            long newest = 0;
            for (int i = 0; i < frames; i++) {
              newest = writer.append(vm, frame(i, size));
            }
            List<Frame> read = host.query(vm, FrameQuery.builder().afterSeq(0).build()).frames();
            assertEquals(newest, read.get(read.size() - 1).seq(), "a view always has its newest frame");
          }
          boolean allSingle = all.stream().allMatch(vm -> host.retained(vm).size() <= 1);
          assertTrue(host.viewBytes() <= BUDGET || allSingle, host.viewBytes() + " bytes in views");
        });
  }

  @Test
  void builder_refusesANonPositiveBudget() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> JetStreamTetherStore.builder().maxTotalBytes(0));
    assertEquals("maxTotalBytes must be >= 1 but was 0", e.getMessage());
  }
}
