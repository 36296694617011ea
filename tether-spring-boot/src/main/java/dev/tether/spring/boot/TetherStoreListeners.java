package dev.tether.spring.boot;

import dev.tether.store.StoreListener;

/**
 * Gives the auto-configured store its {@link StoreListener}, by store name ({@code memory},
 * {@code sqlite}, {@code jetstream}). {@link TetherMetersAutoConfiguration} defines one that
 * records Micrometer meters; an application may define its own bean instead. Without any bean the
 * store gets {@link StoreListener#NONE}.
 */
@FunctionalInterface
public interface TetherStoreListeners {
  /** The listener for a store of this name; never null. */
  StoreListener forStore(String storeName);
}
