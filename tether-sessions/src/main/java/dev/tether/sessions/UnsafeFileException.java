package dev.tether.sessions;

import java.nio.file.FileSystemException;

/**
 * A {@link ConfinedDirectory} refused an entry it found where it expected a plain file or
 * directory: a symbolic link, a FIFO, socket or device, or a directory where a file belongs (or
 * the reverse). In a directory someone else can write (a guest's workspace) this is what a planted
 * entry looks like, so callers answer it as bad input, not as a server failure.
 *
 * <p>{@link #getFile()} is the entry's path relative to the confined root (never a host path).
 */
public final class UnsafeFileException extends FileSystemException {
  private static final long serialVersionUID = 1L;

  /** {@code where} is relative to the confined root; {@code why} a phrase such as "is a symbolic link". */
  public UnsafeFileException(String where, String why) {
    super(where, null, why);
  }

  /** The entry and why it was refused, as a sentence fragment: {@code .aegis/blobs is a symbolic link}. */
  public String describe() {
    return getFile() + " " + getReason();
  }
}
