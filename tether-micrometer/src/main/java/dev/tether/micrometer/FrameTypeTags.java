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
    // A string switch (hash, then one equals) instead of scanning the list: this runs per append.
    return switch (type) {
      case "user.message" -> 0;
      case "control.cancel" -> 1;
      case "status.presence" -> 2;
      case "assistant.delta" -> 3;
      case "assistant.done" -> 4;
      case "assistant.message" -> 5;
      case "reasoning.delta" -> 6;
      case "reasoning.done" -> 7;
      case "event.ack" -> 8;
      case "error" -> 9;
      default -> OTHER_INDEX;
    };
  }

  static String name(int index) {
    return index == OTHER_INDEX ? "other" : KNOWN.get(index);
  }
}
