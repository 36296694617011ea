package dev.tether.store;

/**
 * What a store tells a metrics binder (the {@code tether-micrometer} module) or a test: each
 * instance's {@link FrameCounts} when the store creates the instance's state and when that state
 * is gone, and the latencies that need a clock read per event (a waiter woken, a durable commit).
 * Every method has a default, so a listener overrides only what it records; {@link #NONE} records
 * nothing and is what a store uses when none is set.
 *
 * <p><b>Why counts and not events.</b> Appends, evictions and gaps are counted by the store itself,
 * under the lock each of them already holds (a few plain stores), and a binder reads the counts
 * when it is scraped. Telling a listener each append cost bound stores about 80 ns per append
 * (four counter increments, BENCHMARKS.md "Meter overhead"); a count read at scrape costs the
 * append nothing whether or not anyone reads it. Latencies stay events: a histogram needs each
 * value.
 *
 * <p><b>Threads and cost.</b> A store calls its listener on the thread that did the work (an
 * appender, the journal writer, the executor that completes a wait, the thread that removes an
 * instance), never under one of its locks, and never while caller code waits on it.
 * {@link #forInstance} is the one exception: it runs while the store creates the state, which
 * may be inside a map compute of the store, so it must not call back into the store. Calls must be
 * quick and must not throw; a listener that throws breaks the store's operation. With {@link #NONE}
 * a store reads no clock for latencies.
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
   * The store created state for {@code instance}, whose frames are counted in {@code counts} (a
   * live view, see {@link FrameCounts}); returns the listener for that state's events (its
   * {@link #woke} latencies and its {@link #released}), so a binder resolves per-instance meters
   * once. Asked once per state: an instance that was removed or freed and is used again gets new
   * state, new counts starting at zero, and a new call. The default returns this listener. Never
   * asked of {@link #NONE}.
   *
   * <p>A binder that reports counters across the instance's lifetimes keeps the counts it was
   * given, sums them with the final counts of released states, and so never reports a decrease.
   */
  default StoreListener forInstance(String instance, FrameCounts counts) {
    return this;
  }

  /**
   * The state {@link #forInstance} reported is gone (the instance was removed, freed as idle, or
   * its store or view closed): {@code counts} is the same object, and final. Told once per state,
   * to the listener {@code forInstance} returned, after the state stopped counting.
   */
  default void released(String instance, FrameCounts counts) {}

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
