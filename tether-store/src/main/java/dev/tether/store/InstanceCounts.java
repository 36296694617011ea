package dev.tether.store;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The {@link FrameCounts} an {@link InstanceState} keeps. Design: one {@code long[]} (appended
 * frames by type, appended bytes by type, evicted frames, evicted bytes, gaps). Every writer holds
 * the instance's lock, so an increment is a plain read of the slot and an opaque write of the sum:
 * no atomic read-modify-write and no fence, on x86 and ARM a plain load and store. Readers take no
 * lock and read each slot with an opaque read, which is atomic for a {@code long} (a plain read of a
 * {@code long} may tear) and coherent (never older than a value the same reader already saw), so a
 * scrape sees each count whole and never decreasing. The instance stops counting once it is marked
 * removed (under the same lock), so the counts a listener is given on release are final.
 */
final class InstanceCounts implements FrameCounts {
  private static final VarHandle SLOT = MethodHandles.arrayElementVarHandle(long[].class);
  private static final int TYPE_COUNT = TYPES.size();
  private static final int APPENDED_BYTES = TYPE_COUNT;
  private static final int EVICTED_FRAMES = 2 * TYPE_COUNT;
  private static final int EVICTED_BYTES = EVICTED_FRAMES + 1;
  private static final int GAPS = EVICTED_BYTES + 1;

  private final long[] slots = new long[GAPS + 1];

  /** Adds {@code n} to a slot; the caller holds the owner's lock (the only writer). */
  private void add(int slot, long n) {
    SLOT.setOpaque(slots, slot, slots[slot] + n);
  }

  private long read(int slot) {
    return (long) SLOT.getOpaque(slots, slot);
  }

  /** One frame of {@code type} with {@code payloadBytes}; under the owner's lock. */
  void appended(String type, long payloadBytes) {
    int t = FrameCounts.typeIndex(type);
    add(t, 1);
    add(APPENDED_BYTES + t, payloadBytes);
  }

  /** One retained frame of {@code payloadBytes} evicted; under the owner's lock. */
  void evicted(long payloadBytes) {
    add(EVICTED_FRAMES, 1);
    add(EVICTED_BYTES, payloadBytes);
  }

  /** One answer with a gap; under the owner's lock. */
  void gapServed() {
    add(GAPS, 1);
  }

  @Override
  public long appendedFrames(int typeIndex) {
    return read(checkType(typeIndex));
  }

  @Override
  public long appendedBytes(int typeIndex) {
    return read(APPENDED_BYTES + checkType(typeIndex));
  }

  @Override
  public long evictedFrames() {
    return read(EVICTED_FRAMES);
  }

  @Override
  public long evictedBytes() {
    return read(EVICTED_BYTES);
  }

  @Override
  public long gapsServed() {
    return read(GAPS);
  }

  private static int checkType(int typeIndex) {
    if (typeIndex < 0 || typeIndex >= TYPE_COUNT) {
      throw new IndexOutOfBoundsException("typeIndex must be in 0.." + (TYPE_COUNT - 1) + " but was " + typeIndex);
    }
    return typeIndex;
  }

  @Override
  public String toString() {
    long frames = 0;
    for (int t = 0; t < TYPE_COUNT; t++) {
      frames += read(t);
    }
    return "FrameCounts[appended=" + frames + ", evicted=" + evictedFrames() + ", gaps=" + gapsServed() + "]";
  }
}
