package dev.tether.store;

/**
 * What a store counts, told as it happens, for a metrics binder (the {@code tether-micrometer}
 * module maps it to meters) or a test. Every method has an empty default, so a listener overrides
 * only what it records; {@link #NONE} records nothing and is what a store uses when none is set.
 *
 * <p><b>Threads and cost.</b> A store calls its listener on the thread that did the work (an
 * appender, the journal writer, the executor that completes a wait), never under one of its locks
 * or inside a map compute, and never while caller code waits on it. Calls must be quick and must
 * not throw or call back into the store; a listener that throws breaks the store's operation. With
 * {@link #NONE} a store skips the clock reads that only latencies need, so an unbound store pays a
 * comparison per event at most.
 *
 * <p>{@code instance} is the raw instance name: a binder that turns it into a tag must bound the
 * number of distinct values itself (see {@code dev.tether.micrometer.InstanceTags}).
 */
public interface StoreListener {
  /** Records nothing; the default of every store builder. */
  StoreListener NONE = new StoreListener() {
    @Override
    public String toString() {
      return "StoreListener.NONE";
    }
  };

  /**
   * The listener for the events of one instance, asked once when the store creates its state (so
   * a binder can resolve its per-instance meters once, not on every event). The default is this
   * listener itself. Never asked of {@link #NONE}.
   */
  default StoreListener forInstance(String instance) {
    return this;
  }

  /** A frame of {@code type} with {@code payloadBytes} of payload was stored for {@code instance}. */
  default void appended(String instance, String type, long payloadBytes) {}

  /**
   * {@code frames} retained frames of {@code instance} ({@code payloadBytes} in all) were evicted,
   * by its own count or byte cap or by the store-wide budget. Transient deltas leaving their live
   * window are not evictions.
   */
  default void evicted(String instance, int frames, long payloadBytes) {}

  /** A query or wait of {@code instance} was answered with {@code gap: true} (frames it asked for were evicted). */
  default void gapServed(String instance) {}

  /**
   * A waiter of {@code instance} was woken by an append: {@code nanos} from the moment the matching
   * frame was stored to the moment its future was completed (on the store's executor).
   */
  default void woke(String instance, long nanos) {}

  /**
   * A durable store committed {@code frames} frames in {@code nanos}: one SQLite transaction
   * ({@code store} = {@code "sqlite"}) or one JetStream publish until its acknowledgement
   * ({@code "jetstream"}).
   */
  default void committed(String store, int frames, long nanos) {}
}
