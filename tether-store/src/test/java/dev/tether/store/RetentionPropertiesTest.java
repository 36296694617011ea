package dev.tether.store;

import dev.tether.store.internal.RetentionLedger;
import dev.tether.api.testing.TestFrames;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.booleans;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;

import dev.tether.api.Frame;
import dev.tether.api.SessionKey;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Property tests of retention and paging against a simple model: a list of the frames, from which
 * the oldest are dropped while either cap is exceeded and more than one frame is left.
 */
class RetentionPropertiesTest {
  /** One encoded append: session 0..2, delta or done, payload 11..3010 bytes. */
  static Frame decode(int op) {
    SessionKey s = SessionKey.host("s" + (op % 3));
    String type = (op / 3) % 2 == 0 ? "assistant.delta" : "assistant.done";
    return TestFrames.sized(type, s, 11 + (op / 6) % 3000);
  }

  record Model(List<Frame> frames, long bytes) {}

  static Model model(List<Frame> appended, Retention r) {
    List<Frame> kept = new ArrayList<>();
    long bytes = 0;
    for (Frame f : appended) {
      if (!r.deltasInRing() && dev.tether.api.FrameTypes.isDelta(f.type())) {
        continue;
      }
      kept.add(f);
      bytes += f.payload().size();
      while ((kept.size() > r.maxFrames() || bytes > r.maxBytes()) && kept.size() > 1) {
        bytes -= kept.remove(0).payload().size();
      }
    }
    return new Model(kept, bytes);
  }

  @Test
  void ring_matchesModelAndByteTotalIsExact() {
    qt().withExamples(300).forAll(
        lists().of(integers().between(0, 1_000_000)).ofSizeBetween(1, 150),
        integers().between(1, 30),
        integers().between(11, 20_000),
        booleans().all())
        .checkAssert((ops, maxFrames, maxBytes, deltas) -> {
          Retention r = new Retention(maxFrames, maxBytes, deltas);
          FrameRing ring = new FrameRing(r);
          RetentionLedger ledger = new RetentionLedger(r);
          List<Frame> appended = new ArrayList<>();
          long seq = 0;
          for (int op : ops) {
            Frame f = decode(op).withSeq(++seq);
            appended.add(f);
            ring.add(f);
            if (ledger.retains(f.type())) {
              long evicted = ledger.add(f.seq(), f.payload().size(), f.session().orElse(null));
              assertTrue(evicted < f.seq(), "the newest frame is never evicted");
            }
            Model m = model(appended, r);
            assertEquals(m.frames(), ring.snapshot());
            assertEquals(m.bytes(), ring.bytes(), "byte total is exact");
            assertEquals(m.bytes(), ledger.bytes(), "the journal ledger agrees with the ring");
            assertEquals(m.frames().size(), ledger.size());
            if (ring.retains(f.type())) {
              List<Frame> snap = ring.snapshot();
              assertEquals(f, snap.get(snap.size() - 1), "the newest frame is kept");
            }
          }
          // Deltas the policy does not retain stay queryable in the live window: the newest 64,
          // within 256 KiB (the newest always).
          java.util.ArrayDeque<Frame> live = new java.util.ArrayDeque<>();
          long liveBytes = 0;
          for (Frame fr : appended) {
            if (!ring.retains(fr.type())) {
              live.addLast(fr);
              liveBytes += fr.payload().size();
              while (live.size() > FrameRing.LIVE_WINDOW_FRAMES || (liveBytes > FrameRing.LIVE_WINDOW_BYTES && live.size() > 1)) {
                liveBytes -= live.removeFirst().payload().size();
              }
            }
          }
          for (int s = 0; s < 3; s++) {
            SessionKey key = SessionKey.host("s" + s);
            List<Frame> expected = java.util.stream.Stream.concat(model(appended, r).frames().stream(), live.stream())
                .filter(fr -> fr.session().orElseThrow().equals(key))
                .sorted(java.util.Comparator.comparingLong(Frame::seq)).collect(Collectors.toList());
            List<Frame> got = ring.query(FrameQuery.builder().session(key).limit(200).build()).frames();
            assertEquals(expected, got, "at most 150 frames, so one page of 200 holds them all");
          }
        });
  }

  @Test
  void paging_withNextSeqSeesEveryMatchOnceInOrder() {
    qt().withExamples(300).forAll(
        lists().of(integers().between(0, 1_000_000)).ofSizeBetween(0, 120),
        integers().between(1, 9),
        integers().between(0, 3),
        booleans().all())
        .checkAssert((ops, limit, sessionSel, doneOnly) -> {
          // Deltas stored like other frames: the transient case is FilteredPagingPropertyTest's.
          FrameRing ring = new FrameRing(Retention.builder().deltasInRing(true).build());
          List<Frame> all = new ArrayList<>();
          long seq = 0;
          for (int op : ops) {
            Frame f = decode(op).withSeq(++seq);
            ring.add(f);
            all.add(f);
          }
          FrameQuery.Builder b = FrameQuery.builder().limit(limit);
          if (sessionSel < 3) {
            b.session(SessionKey.host("s" + sessionSel));
          }
          if (doneOnly) {
            b.types(Set.of("assistant.done"));
          }
          FrameQuery q = b.build();
          List<Frame> expected = all.stream().filter(q::matches).collect(Collectors.toList());
          List<Frame> got = new ArrayList<>();
          long cursor = 0;
          for (int page = 0; page < 200; page++) {
            QueryResult r = ring.query(q.withAfterSeq(cursor));
            assertTrue(r.nextSeq() >= cursor);
            got.addAll(r.frames());
            if (r.frames().isEmpty()) {
              assertEquals(ring.lastSeq(), r.nextSeq(), "an empty page moves the cursor past what it examined");
              break;
            }
            cursor = r.nextSeq();
          }
          assertEquals(expected, got);
          // Backward pages from the end cover the same frames.
          List<Frame> back = new ArrayList<>();
          long before = seq + 1;
          for (int page = 0; page < 200 && before > 0; page++) {
            QueryResult r = ring.query(FrameQuery.builder().channel(q.channel()).sessionId(q.sessionId())
                .types(q.types()).limit(limit).beforeSeq(before).build());
            back.addAll(0, r.frames());
            before = r.nextSeq();
          }
          assertEquals(expected, back);
        });
  }
}
