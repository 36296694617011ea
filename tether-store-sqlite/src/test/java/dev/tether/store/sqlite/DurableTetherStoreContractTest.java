package dev.tether.store.sqlite;

import dev.tether.store.Retention;
import dev.tether.store.TetherStore;
import dev.tether.store.contract.TetherStoreContract;
import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.Executor;
import org.junit.jupiter.api.io.TempDir;

/** The shared contract against {@link DurableTetherStore} on a real SQLite file. */
class DurableTetherStoreContractTest extends TetherStoreContract {
  @TempDir Path dir;
  private int files;

  @Override
  protected TetherStore open(Retention retention) throws IOException {
    return DurableTetherStore.builder(next()).retention(retention).open();
  }

  @Override
  protected TetherStore openWithExecutor(Retention retention, Executor executor) throws IOException {
    return DurableTetherStore.builder(next()).retention(retention).executor(executor).open();
  }

  private Path next() {
    return dir.resolve("journal-" + (files++) + ".db");
  }
}
