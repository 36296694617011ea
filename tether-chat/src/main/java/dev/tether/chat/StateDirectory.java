package dev.tether.chat;

import dev.tether.api.files.PrivateDirectory;
import dev.tether.api.files.PrivateFiles;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Set;

/**
 * A bridge's claim on its state directory: the directory 0700 (an existing one of ours tightened,
 * another user's refused), every file in it 0600 from creation, and an exclusive lock on
 * {@code bridge.lock} so that two bridges never share one state. Held until {@link #close}.
 * Thread-safe to close once.
 */
public final class StateDirectory implements AutoCloseable {
  private final Path dir;
  private final FileChannel channel;
  private final FileLock lock;

  private StateDirectory(Path dir, FileChannel channel, FileLock lock) {
    this.dir = dir;
    this.channel = channel;
    this.lock = lock;
  }

  /**
   * Claims {@code dir} for one bridge.
   *
   * @param what names the bridge in the error, such as {@code Telegram bridge}
   * @throws IOException when the directory cannot be used or another bridge holds it
   */
  public static StateDirectory claim(Path dir, String what) throws IOException {
    // The state (offsets, cursors, media refs) is the bridge's alone: the directory 0700 (an
    // existing one of ours tightened, another user's refused), every file in it 0600 from creation.
    PrivateDirectory.claim(dir);
    Path lockFile = dir.resolve("bridge.lock");
    FileChannel channel = FileChannel.open(lockFile, Set.of(StandardOpenOption.CREATE, StandardOpenOption.WRITE),
        PrivateFiles.fileAttributes(lockFile));
    PrivateFiles.restrict(lockFile); // one an earlier version made 0644
    FileLock lock;
    try {
      lock = channel.tryLock();
    } catch (OverlappingFileLockException e) {
      lock = null; // held by another bridge in this JVM
    } catch (IOException | RuntimeException e) {
      channel.close();
      throw e;
    }
    if (lock == null) {
      channel.close();
      throw new IOException("another " + what + " is running with the state directory " + dir);
    }
    return new StateDirectory(dir, channel, lock);
  }

  public Path dir() {
    return dir;
  }

  /** A file of the state directory. */
  public Path resolve(String name) {
    return dir.resolve(name);
  }

  /** Releases the lock. */
  @Override
  public void close() {
    try {
      lock.release();
      channel.close();
    } catch (IOException e) {
      // The lock goes with the channel; nothing else to release.
    }
  }
}
