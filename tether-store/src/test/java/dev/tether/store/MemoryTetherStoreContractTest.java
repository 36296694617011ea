package dev.tether.store;

import dev.tether.store.contract.TetherStoreContract;
import java.util.concurrent.Executor;

/** The shared contract against {@link MemoryTetherStore}. */
class MemoryTetherStoreContractTest extends TetherStoreContract {
  @Override
  protected TetherStore open(Retention retention) {
    return MemoryTetherStore.create(retention);
  }

  @Override
  protected TetherStore openWithExecutor(Retention retention, Executor executor) {
    return MemoryTetherStore.builder().retention(retention).executor(executor).build();
  }
}
