package dev.tether.telegram.internal;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;

/**
 * The core's {@link dev.tether.chat.StateFile} (named counters in one crash-safe, 0600 file) under
 * the name the Telegram code uses. Not thread-safe: each file has one owner thread.
 */
public final class StateFile {
  private final dev.tether.chat.StateFile core;

  private StateFile(dev.tether.chat.StateFile core) {
    this.core = core;
  }

  public static StateFile open(Path file) throws IOException {
    return new StateFile(dev.tether.chat.StateFile.open(file));
  }

  /** The core state file, for the core's loops. */
  public dev.tether.chat.StateFile core() {
    return core;
  }

  public Path file() {
    return core.file();
  }

  public long get(String name) {
    return core.get(name);
  }

  public boolean has(String name) {
    return core.has(name);
  }

  /** Sets several values and writes them durably in one step. */
  public void put(Map<String, Long> changes) throws IOException {
    core.put(changes);
  }

  public void put(String name, long value) throws IOException {
    core.put(name, value);
  }
}
