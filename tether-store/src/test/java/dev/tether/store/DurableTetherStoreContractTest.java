package dev.tether.store;

import dev.tether.store.contract.TetherStoreContract;
import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.Disabled;
import org.junit.jupiter.api.io.TempDir;

/** The shared contract against {@link DurableTetherStore} on a real SQLite file. */
class DurableTetherStoreContractTest extends TetherStoreContract {
  @TempDir Path dir;
  private int files;

  @Override
  protected TetherStore open(Retention retention) throws IOException {
    return DurableTetherStore.builder(dir.resolve("journal-" + (files++) + ".db")).retention(retention).open();
  }

  /**
   * Fails today: the journal's writer thread completes append futures, and a callback that
   * appends from there waits for that same thread. Branch i-store (the executor setting) fixes it;
   * remove this override when it is merged.
   */
  @Override
  @Disabled("deadlocks until the executor setting of branch i-store is merged")
  public void append_fromAWaitersCallback_doesNotDeadlock() {}
}
