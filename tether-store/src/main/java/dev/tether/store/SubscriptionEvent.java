package dev.tether.store;

import dev.tether.api.Frame;

/** What a {@link Subscription} delivers: a frame, a report of frames it lost, or its end. */
public sealed interface SubscriptionEvent {
  /** A stored frame. */
  record Delivered(Frame frame) implements SubscriptionEvent {}

  /**
   * The subscriber's buffer was full, so the frames with seqs {@code firstSeq..lastSeq} were not
   * delivered to it; {@code count} says how many frames that was.
   */
  record Lost(long firstSeq, long lastSeq, long count) implements SubscriptionEvent {}

  /** The subscription ended: closed by its owner, the instance removed or the store closed. */
  record Closed(String reason) implements SubscriptionEvent {}
}
