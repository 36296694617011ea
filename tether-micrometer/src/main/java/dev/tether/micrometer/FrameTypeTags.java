package dev.tether.micrometer;

import java.util.List;

/**
 * The {@code type} tag: the frame types of the wire (a fixed list), anything else as
 * {@code other}, since a client may send any type and frames of unknown types pass through.
 */
final class FrameTypeTags {
  static final List<String> KNOWN = List.of("user.message", "control.cancel", "status.presence", "assistant.delta",
      "assistant.done", "assistant.message", "reasoning.delta", "reasoning.done", "event.ack", "error");
  static final int OTHER_INDEX = KNOWN.size();

  private FrameTypeTags() {}

  /** The index of {@code type} in {@link #KNOWN}, or {@link #OTHER_INDEX}. */
  static int index(String type) {
    int i = KNOWN.indexOf(type);
    return i < 0 ? OTHER_INDEX : i;
  }

  static String name(int index) {
    return index == OTHER_INDEX ? "other" : KNOWN.get(index);
  }
}
