package dev.tether.server;

import dev.tether.images.ByteSizes;
import dev.tether.store.Retention;

/**
 * The memory limits of a {@link TetherServer}, derived from the JVM's heap unless set: the
 * default of {@link TetherServer#builder()} and of {@code tether serve}, stated here once.
 *
 * <p>The rule (also in {@code serve --help}): the store keeps at most half the heap
 * ({@code Runtime.maxMemory() / 2}) of frames across all instances; one instance's ring keeps at
 * most {@code min(128 MiB, store budget / 4)} and {@value #DEFAULT_RING_FRAMES} frames; at most
 * {@value #DEFAULT_MAX_INSTANCES} instances exist at once. The other half of the heap is for
 * requests in flight: request bodies being read are limited to a quarter of the heap together
 * ({@link #ingressBytes()}), answers being written to an eighth ({@link #egressBytes()}), and the
 * rest is headroom for everything else. Immutable.
 *
 * @param storeBytes frame bytes the store keeps across all instances
 * @param ringBytes frame bytes one instance keeps
 * @param ringFrames frames one instance keeps
 * @param maxInstances instances held at once
 * @param ingressBytes request body bytes read at once, across all requests
 * @param egressBytes answer bytes being written at once, across all requests
 */
public record MemoryBudget(long storeBytes, long ringBytes, int ringFrames, int maxInstances, long ingressBytes,
    long egressBytes) {
  /** Frames one instance keeps by default. */
  public static final int DEFAULT_RING_FRAMES = 1000;
  /** Instances held at once by default. */
  public static final int DEFAULT_MAX_INSTANCES = 1024;
  /** The most one instance's ring keeps by default, whatever the heap. */
  public static final long MAX_DEFAULT_RING_BYTES = 128L << 20;

  /** @throws IllegalArgumentException naming the first value below 1 */
  public MemoryBudget {
    positive("store budget", storeBytes);
    positive("ring bytes", ringBytes);
    positive("ring frames", ringFrames);
    positive("max instances", maxInstances);
    positive("ingress bytes", ingressBytes);
    positive("egress bytes", egressBytes);
  }

  /** The defaults for this JVM's heap ({@code Runtime.maxMemory()}). */
  public static MemoryBudget forThisHeap() {
    return forHeap(Runtime.getRuntime().maxMemory());
  }

  /** The defaults for a heap of {@code maxHeap} bytes. */
  public static MemoryBudget forHeap(long maxHeap) {
    long store = Math.max(1L << 20, maxHeap / 2);
    return new MemoryBudget(store, Math.min(MAX_DEFAULT_RING_BYTES, store / 4), DEFAULT_RING_FRAMES,
        DEFAULT_MAX_INSTANCES, Math.max(1L << 20, maxHeap / 4), Math.max(1L << 20, maxHeap / 8));
  }

  /**
   * The defaults for this heap with any settings applied (null: not given). The ring's default
   * follows a given store budget; a ring larger than the store budget is cut to the budget.
   *
   * @throws IllegalArgumentException when a given value is below 1
   */
  public static MemoryBudget resolve(long maxHeap, Long storeBytes, Long ringBytes, Integer ringFrames, Integer maxInstances) {
    MemoryBudget d = forHeap(maxHeap);
    long store = storeBytes != null ? storeBytes : d.storeBytes;
    long ring = ringBytes != null ? ringBytes : (storeBytes != null ? Math.min(MAX_DEFAULT_RING_BYTES, store / 4) : d.ringBytes);
    return new MemoryBudget(store, Math.max(1, Math.min(ring, store)),
        ringFrames != null ? ringFrames : d.ringFrames, maxInstances != null ? maxInstances : d.maxInstances, d.ingressBytes,
        d.egressBytes);
  }

  /** This budget with {@code max} instances held at once. */
  public MemoryBudget withMaxInstances(int max) {
    return new MemoryBudget(storeBytes, ringBytes, ringFrames, max, ingressBytes, egressBytes);
  }

  /**
   * What one instance's ring keeps: {@link #ringFrames()} frames and {@link #ringBytes()} bytes;
   * with {@code deltasInRing}, assistant and reasoning deltas are stored like other frames.
   */
  public Retention retention(boolean deltasInRing) {
    return Retention.builder().maxFrames(ringFrames).maxBytes(ringBytes).deltasInRing(deltasInRing).build();
  }

  /**
   * One line for a start-up log, naming the {@code tether serve} flag of each setting. What
   * {@code tether serve} prints after {@code "tether serve: "}.
   */
  public String describe(long maxHeap) {
    return "memory: heap " + ByteSizes.binaryCompact(maxHeap) + "; store keeps " + ByteSizes.binaryCompact(storeBytes)
        + " (--store-max-bytes), per instance " + ByteSizes.binaryCompact(ringBytes) + " (--ring-max-bytes) and " + ringFrames
        + " frames (--ring-max-frames), at most " + maxInstances + " instances (--max-instances); request bodies "
        + ByteSizes.binaryCompact(ingressBytes) + " and answers " + ByteSizes.binaryCompact(egressBytes) + " at once";
  }

  private static void positive(String name, long value) {
    if (value < 1) {
      throw new IllegalArgumentException(name + " must be >= 1 but was " + value);
    }
  }
}
