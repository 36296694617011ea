package dev.tether.store;

import java.util.Objects;
import java.util.concurrent.Executor;
import java.util.concurrent.ForkJoinPool;

/**
 * The settings both stores share, checked once by their builders: retention per instance, the
 * executor that completes caller-visible futures, the store-wide byte budget and the instance
 * cap. Immutable.
 *
 * @param retention how much of each instance's history is kept
 * @param executor completes every future a caller sees (see {@link TetherStore})
 * @param maxTotalBytes payload bytes retained across all instances; {@link Long#MAX_VALUE} for
 *     no budget
 * @param maxInstances instances held at once; {@link Integer#MAX_VALUE} for no cap
 * @param listener told what the store counts; {@link StoreListener#NONE} by default
 */
record StoreSettings(Retention retention, Executor executor, long maxTotalBytes, int maxInstances,
    StoreListener listener) {
  StoreSettings {
    Objects.requireNonNull(listener, "listener");
    Objects.requireNonNull(retention, "retention");
    Objects.requireNonNull(executor, "executor");
    requireMaxTotalBytes(maxTotalBytes);
    requireMaxInstances(maxInstances);
  }

  static StoreSettings defaults() {
    return new StoreSettings(Retention.defaults(), ForkJoinPool.commonPool(), Long.MAX_VALUE, Integer.MAX_VALUE, StoreListener.NONE);
  }

  StoreSettings withRetention(Retention r) {
    return new StoreSettings(r, executor, maxTotalBytes, maxInstances, listener);
  }

  StoreSettings withExecutor(Executor e) {
    return new StoreSettings(retention, e, maxTotalBytes, maxInstances, listener);
  }

  StoreSettings withMaxTotalBytes(long bytes) {
    return new StoreSettings(retention, executor, bytes, maxInstances, listener);
  }

  StoreSettings withMaxInstances(int n) {
    return new StoreSettings(retention, executor, maxTotalBytes, n, listener);
  }

  StoreSettings withListener(StoreListener l) {
    return new StoreSettings(retention, executor, maxTotalBytes, maxInstances, l);
  }

  boolean hasBudget() {
    return maxTotalBytes != Long.MAX_VALUE;
  }

  static long requireMaxTotalBytes(long bytes) {
    if (bytes < 1) {
      throw new IllegalArgumentException("maxTotalBytes must be >= 1 but was " + bytes);
    }
    return bytes;
  }

  static int requireMaxInstances(int n) {
    if (n < 1) {
      throw new IllegalArgumentException("maxInstances must be >= 1 but was " + n);
    }
    return n;
  }
}
