package dev.tether.client;

import dev.tether.api.Frame;
import java.util.List;

/**
 * One page of a poll, as the host's poll endpoint returns it.
 *
 * @param frames the matching frames in seq order (immutable)
 * @param nextSeq the cursor for the next poll ({@code after_seq}); never lets a caller skip a
 *     matching frame or see one twice
 * @param timedOut whether the wait ended without a matching frame
 * @param gap whether frames after the cursor were evicted before they could be read
 * @param oldestSeq the oldest seq still retained when {@code gap} is set, else 0
 */
public record FramePage(List<Frame> frames, long nextSeq, boolean timedOut, boolean gap, long oldestSeq) {
  public FramePage {
    frames = List.copyOf(frames);
  }
}
