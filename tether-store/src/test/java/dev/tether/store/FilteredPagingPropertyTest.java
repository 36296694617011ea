package dev.tether.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.booleans;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;

import dev.tether.api.Frame;
import dev.tether.api.testing.TestFrames;
import dev.tether.api.SessionKey;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Our {@code next_seq} skips frames that did not match the filter (the reference returns the max
 * seq returned). This proves that a client paging with full pages and any filter, following
 * {@code next_seq}, sees every matching frame exactly once and in order.
 */
class FilteredPagingPropertyTest {
  private static final List<SessionKey> SESSIONS =
      List.of(SessionKey.host("a"), SessionKey.host("b"), new SessionKey("telegram", "a"));
  private static final List<String> TYPES = List.of("user.message", "assistant.done", "status.presence", "assistant.delta");

  @Test
  void pagingWithFiltersAndFullPages_neverMissesOrRepeats() {
    qt().withExamples(300).forAll(
        lists().of(integers().between(0, SESSIONS.size() * TYPES.size() - 1)).ofSizeBetween(0, 120),
        integers().between(1, 7),
        integers().between(0, 3),
        booleans().all())
        .checkAssert((kinds, limit, filter, transientDeltas) -> {
          MemoryTetherStore store = MemoryTetherStore.builder()
              .retention(Retention.builder().deltasInRing(!transientDeltas).build()).build();
          List<Frame> all = new ArrayList<>();
          for (int k : kinds) {
            SessionKey s = SESSIONS.get(k % SESSIONS.size());
            String type = TYPES.get(k / SESSIONS.size());
            long seq = store.append("i", TestFrames.frame(type, s, null, "x"));
            all.add(TestFrames.frame(type, s, null, "x").withSeq(seq));
          }
          FrameQuery.Builder q = FrameQuery.builder().limit(limit);
          switch (filter) {
            case 1 -> q.session(SESSIONS.get(0));
            case 2 -> q.channel("telegram");
            case 3 -> q.types(Set.of("assistant.done", "assistant.delta"));
            default -> { }
          }
          FrameQuery base = q.build();
          // Transient deltas stay pollable only inside the live window (the newest ones).
          List<Long> deltaSeqs = all.stream().filter(f -> f.type().equals("assistant.delta")).map(Frame::seq).toList();
          Set<Long> expired = transientDeltas && deltaSeqs.size() > FrameRing.LIVE_WINDOW_FRAMES
              ? Set.copyOf(deltaSeqs.subList(0, deltaSeqs.size() - FrameRing.LIVE_WINDOW_FRAMES)) : Set.of();
          List<Long> expected = all.stream().filter(base::matches).map(Frame::seq).filter(q2 -> !expired.contains(q2)).toList();
          List<Long> seen = new ArrayList<>();
          long cursor = 0;
          for (int guard = 0; guard < 1000; guard++) {
            QueryResult r = store.query("i", base.withAfterSeq(cursor));
            r.frames().forEach(f -> seen.add(f.seq()));
            if (r.frames().isEmpty()) {
              break;
            }
            cursor = r.nextSeq();
          }
          assertEquals(expected, seen);
        });
  }
}
