package dev.tether.store;

import dev.tether.store.contract.TetherStoreContract;

/** The shared contract against {@link MemoryTetherStore}. */
class MemoryTetherStoreContractTest extends TetherStoreContract {
  @Override
  protected TetherStore open(Retention retention) {
    return MemoryTetherStore.create(retention);
  }
}
