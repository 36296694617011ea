package dev.tether.store.jetstream.internal;

import dev.tether.store.FrameCounts;
import dev.tether.store.StoreListener;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * The appends of one instance published by this host, counted once each where JetStream
 * acknowledged them (a host's local view receives every host's frames, so its own counts of
 * appends are hidden, see {@link ViewListener}). Evictions and gaps are counted by the views.
 * Written by the threads that complete publishes, concurrently, hence atomic adds: each one follows
 * a network round trip, so its cost does not show. Thread-safe.
 */
public final class AppendCounts implements FrameCounts {
  private static final int TYPE_COUNT = TYPES.size();
  private final AtomicLongArray slots = new AtomicLongArray(2 * TYPE_COUNT);
  private final StoreListener listener;

  /** Counts for {@code instance}, handed to {@code listener} at once (never {@link StoreListener#NONE}). */
  public AppendCounts(String instance, StoreListener listener) {
    this.listener = listener.forInstance(instance, this);
  }

  /** The listener {@link StoreListener#forInstance} returned for these counts. */
  public StoreListener listener() {
    return listener;
  }

  /** One frame of {@code type} with {@code payloadBytes} was acknowledged. */
  public void appended(String type, long payloadBytes) {
    int t = FrameCounts.typeIndex(type);
    slots.incrementAndGet(t);
    slots.addAndGet(TYPE_COUNT + t, payloadBytes);
  }

  @Override
  public long appendedFrames(int typeIndex) {
    return slots.get(check(typeIndex));
  }

  @Override
  public long appendedBytes(int typeIndex) {
    return slots.get(TYPE_COUNT + check(typeIndex));
  }

  @Override
  public long evictedFrames() {
    return 0;
  }

  @Override
  public long evictedBytes() {
    return 0;
  }

  @Override
  public long gapsServed() {
    return 0;
  }

  private static int check(int typeIndex) {
    if (typeIndex < 0 || typeIndex >= TYPE_COUNT) {
      throw new IndexOutOfBoundsException("typeIndex must be in 0.." + (TYPE_COUNT - 1) + " but was " + typeIndex);
    }
    return typeIndex;
  }
}
