package dev.tether.store.internal;

import dev.tether.api.Frame;
import dev.tether.api.SessionKey;
import dev.tether.store.MemoryTetherStore;
import dev.tether.store.Retention;
import dev.tether.store.StoreListener;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.Executor;

/**
 * What a store whose own writer assigns seqs and decides evictions (the durable SQLite store, a
 * JetStream store) needs of the memory ring it keeps in step: it restores and publishes frames it
 * already stored, mirrors its evictions, and reads the settings of a {@link MemoryTetherStore.Builder}
 * it wraps. Not API: this package is exported only to those modules.
 *
 * <p>The memory store installs the implementation when its class initialises.
 */
public final class StoreInternals {
  /** Implemented by {@code dev.tether.store}; see the static methods for the contracts. */
  public interface Bridge {
    MemoryTetherStore mirror(MemoryTetherStore.Builder settings);

    Retention retention(MemoryTetherStore.Builder settings);

    Executor executor(MemoryTetherStore.Builder settings);

    long maxTotalBytes(MemoryTetherStore.Builder settings);

    StoreListener listener(MemoryTetherStore.Builder settings);

    void restore(MemoryTetherStore rings, String instance, List<Frame> frames, long highSeq, long evictedSeq,
        Map<SessionKey, Long> sessionEvicted);

    void evictThrough(MemoryTetherStore rings, String instance, long seq);

    boolean publish(MemoryTetherStore rings, String instance, List<Frame> stored);

    boolean canCreate(MemoryTetherStore rings, String instance);

    void create(MemoryTetherStore rings, String instance);

    boolean exists(MemoryTetherStore rings, String instance);

    SequencedFrameIndex index(String name, Retention retention, SequencedFrameIndex.Timer timer, long seqFloor,
        Executor executor, StoreListener listener);

    SequencedFrameIndex.Timer timer(String threadName);
  }

  private static volatile Bridge bridge;

  private StoreInternals() {}

  /** Called once by the memory store. */
  public static void install(Bridge implementation) {
    if (bridge != null) {
      throw new IllegalStateException("already installed");
    }
    bridge = Objects.requireNonNull(implementation, "implementation");
  }

  private static Bridge bridge() {
    Bridge b = bridge;
    if (b == null) {
      try {
        Class.forName(MemoryTetherStore.class.getName(), true, StoreInternals.class.getClassLoader());
      } catch (ClassNotFoundException e) {
        throw new IllegalStateException(e);
      }
      b = bridge;
    }
    return b;
  }

  /**
   * A memory store with the settings of {@code settings} but no store-wide byte budget: the caller
   * enforces the budget itself and mirrors its evictions with {@link #evictThrough}.
   */
  public static MemoryTetherStore mirror(MemoryTetherStore.Builder settings) {
    return bridge().mirror(settings);
  }

  public static Retention retention(MemoryTetherStore.Builder settings) {
    return bridge().retention(settings);
  }

  public static Executor executor(MemoryTetherStore.Builder settings) {
    return bridge().executor(settings);
  }

  /** The store-wide byte budget, {@link Long#MAX_VALUE} for none. */
  public static long maxTotalBytes(MemoryTetherStore.Builder settings) {
    return bridge().maxTotalBytes(settings);
  }

  /** The listener the builder was given ({@link dev.tether.store.StoreListener#NONE} by default). */
  public static StoreListener listener(MemoryTetherStore.Builder settings) {
    return bridge().listener(settings);
  }

  /** Loads an instance's retained frames and high-water marks, as read back from storage. */
  public static void restore(MemoryTetherStore rings, String instance, List<Frame> frames, long highSeq,
      long evictedSeq, Map<SessionKey, Long> sessionEvicted) {
    bridge().restore(rings, instance, frames, highSeq, evictedSeq, sessionEvicted);
  }

  /** Evicts the instance's frames up to {@code seq}, if it exists. */
  public static void evictThrough(MemoryTetherStore rings, String instance, long seq) {
    bridge().evictThrough(rings, instance, seq);
  }

  /**
   * Publishes frames already stored (with their seqs, in order), waking waiters and subscribers;
   * false when the instance was freed meanwhile (publish again: the next call recreates it).
   */
  public static boolean publish(MemoryTetherStore rings, String instance, List<Frame> stored) {
    return bridge().publish(rings, instance, stored);
  }

  /** Whether one more instance may be created now (an existing one always may). */
  public static boolean canCreate(MemoryTetherStore rings, String instance) {
    return bridge().canCreate(rings, instance);
  }

  /** Creates the instance under the instance cap; throws {@code TOO_MANY_INSTANCES} past it. */
  public static void create(MemoryTetherStore rings, String instance) {
    bridge().create(rings, instance);
  }

  public static boolean exists(MemoryTetherStore rings, String instance) {
    return bridge().exists(rings, instance);
  }

  /** See {@link SequencedFrameIndex#create(String, Retention, SequencedFrameIndex.Timer, long, Executor, StoreListener)}. */
  static SequencedFrameIndex index(String name, Retention retention, SequencedFrameIndex.Timer timer, long seqFloor,
      Executor executor, StoreListener listener) {
    return bridge().index(name, retention, timer, seqFloor, executor, listener);
  }

  /** See {@link SequencedFrameIndex.Timer#create}. */
  static SequencedFrameIndex.Timer timer(String threadName) {
    return bridge().timer(threadName);
  }
}
