package dev.tether.store;

import dev.tether.api.Frame;
import java.util.List;
import java.util.Objects;

/**
 * The answer to a query or wait. Immutable; the frames are the stored frames (each carries its
 * seq) in ascending seq order, and share their payload bytes with the store.
 *
 * <p><b>next_seq.</b> For a forward page it is the {@code afterSeq} of the next poll. It never
 * lets a poller skip a matching frame or see one twice: when the page was cut by the limit it is
 * the seq of the last frame returned; when every matching frame was returned it is the highest
 * seq the store had assigned when the query ran, so the next poll skips the non-matching frames
 * already examined (any later match gets a higher seq). It never goes below the query's
 * {@code afterSeq}. For a backward page it is the {@code beforeSeq} of the next older page (the
 * lowest seq returned), or 0 when the page is empty.
 *
 * <p><b>gap.</b> True when frames in the query's scope with {@code seq > afterSeq} had already
 * been evicted, so the poller cannot see everything it asked for; {@code oldestSeq} is then the
 * oldest seq the store still holds in that scope (0 when none). The check is conservative: it
 * tracks evictions per session (or per instance for queries without a session) and ignores the
 * type and reply filters.
 *
 * @param frames the matching frames, at most the query's limit
 * @param nextSeq the cursor for the next page, as above
 * @param timedOut true when a wait ended by its timeout without a matching frame
 * @param gap true when matching frames may have been evicted
 * @param oldestSeq the oldest retained seq in scope when {@code gap} is true, else 0
 */
public record QueryResult(List<Frame> frames, long nextSeq, boolean timedOut, boolean gap, long oldestSeq) {
  public QueryResult {
    frames = List.copyOf(Objects.requireNonNull(frames, "frames"));
    if (nextSeq < 0) {
      throw new IllegalArgumentException("nextSeq must be >= 0 but was " + nextSeq);
    }
  }

  /** The result of a wait that timed out with the cursor at {@code nextSeq}. */
  static QueryResult timeout(long nextSeq) {
    return new QueryResult(List.of(), nextSeq, true, false, 0);
  }
}
