package dev.tether.store;

import java.util.List;

/**
 * The running counts of one instance's frames, kept by the store itself (the shape of Caffeine's
 * {@code CacheStats} behind a {@code FunctionCounter}): frames and payload bytes appended by frame
 * type, frames and payload bytes evicted, and answers that reported a gap. A metrics binder reads
 * them when it is scraped instead of being told each event, so an append pays for no meter. A
 * store hands each instance's counts to its {@link StoreListener} when it creates the instance's
 * state ({@link StoreListener#forInstance}) and again when that state is gone
 * ({@link StoreListener#released}).
 *
 * <p><b>Reading.</b> A live, read-only view; every method may be called from any thread at any
 * time. Each count is read atomically and never decreases between two reads; it may lag the newest
 * event by a moment, and two counts read one after the other are not a consistent pair (frames and
 * bytes may be one append apart). Once the state is released its counts are final and never
 * change again. Implementations in the stores write each count under the lock the event already
 * holds, with an opaque write, and read it with an opaque read (see
 * {@link java.lang.invoke.VarHandle#getOpaque}): no atomic read-modify-write and no fence on the
 * hot path.
 *
 * <p><b>Types.</b> A client may send frames of any type, so appends are counted per entry of the
 * fixed {@link #TYPES} list: the ten frame types of the wire, then {@code "other"} for every other
 * type. The counts never grow with what clients send.
 */
public interface FrameCounts {
  /** The counted types: the wire's ten frame types in a fixed order, then {@code "other"}. */
  List<String> TYPES = List.of("user.message", "control.cancel", "status.presence", "assistant.delta",
      "assistant.done", "assistant.message", "reasoning.delta", "reasoning.done", "event.ack", "error", "other");

  /** The index of {@code "other"} in {@link #TYPES}: where every type the wire does not name is counted. */
  int OTHER = TYPES.size() - 1;

  /**
   * The index in {@link #TYPES} under which a frame of {@code type} is counted: its own for a wire
   * type, {@link #OTHER} for any other string.
   */
  static int typeIndex(String type) {
    // A string switch (the cached hash, then one equals) instead of a list scan: this runs per append.
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
      default -> OTHER;
    };
  }

  /**
   * Frames appended whose type counts under {@code TYPES.get(typeIndex)}, transient deltas included.
   *
   * @throws IndexOutOfBoundsException when {@code typeIndex} is not an index of {@link #TYPES}
   */
  long appendedFrames(int typeIndex);

  /**
   * Payload bytes of those frames.
   *
   * @throws IndexOutOfBoundsException when {@code typeIndex} is not an index of {@link #TYPES}
   */
  long appendedBytes(int typeIndex);

  /**
   * Retained frames evicted, by the instance's count or byte cap or by the store-wide budget
   * (also frames a durable store leaves out of memory on restart because its caps were lowered
   * since they were written). Transient deltas leaving their live window are not evictions.
   */
  long evictedFrames();

  /** Payload bytes of the evicted frames. */
  long evictedBytes();

  /** Queries and waits answered with {@code gap: true} (frames they asked for were evicted). */
  long gapsServed();
}
