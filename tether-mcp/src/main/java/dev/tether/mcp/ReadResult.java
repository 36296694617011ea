package dev.tether.mcp;

import dev.tether.api.Frame;
import java.util.List;

/**
 * The answer to a {@link ReadRequest}, as the spec's poll endpoint shapes it. Immutable; the
 * frames share their payload bytes with the store.
 *
 * @param frames matching frames in seq order, at most the request's limit
 * @param nextSeq the cursor for the next read: the last returned frame's seq, or the request's
 *     {@code afterSeq} when nothing was returned
 * @param timedOut the read waited and nothing matching arrived
 * @param gap frames after the cursor were already evicted, so some may have been missed
 * @param oldestSeq when {@code gap}, the oldest seq still retained; otherwise 0
 */
public record ReadResult(List<Frame> frames, long nextSeq, boolean timedOut, boolean gap, long oldestSeq) {
  public ReadResult {
    frames = List.copyOf(frames);
    if (nextSeq < 0) {
      throw new IllegalArgumentException("nextSeq must be >= 0 but was " + nextSeq);
    }
    if (!gap && oldestSeq != 0) {
      throw new IllegalArgumentException("oldestSeq is only set with gap but was " + oldestSeq);
    }
  }
}
