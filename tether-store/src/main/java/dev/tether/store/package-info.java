/**
 * The frame store.
 *
 * <p>{@link dev.tether.store.TetherStore} is the contract (seq per instance,
 * {@link dev.tether.store.FrameQuery queries} with next_seq/gap semantics, asynchronous
 * {@link dev.tether.store.TetherStore#waitForFrames waits}, bounded
 * {@link dev.tether.store.Subscription subscriptions}); {@link dev.tether.store.MemoryTetherStore}
 * keeps a byte- and count-budgeted ring per instance ({@link dev.tether.store.Retention}). The
 * durable store that writes it through to a SQLite journal is in the module tether-store-sqlite.
 */
package dev.tether.store;
