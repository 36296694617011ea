package dev.tether.api.files;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermission;
import java.util.Set;

/**
 * Crash-safe file replacement and directory fsync: the one way tether (the session store, the blob
 * store, the media registry, the instance registry's watermarks, the chat bridges' state and the
 * Spring/LangChain4j chat memories) and an embedder keeping state beside it replace a whole file.
 * Stateless and thread-safe; concurrent writers of one target each replace it whole (the last
 * rename wins), so callers that read-modify-write serialise themselves.
 *
 * <p>{@link #write} goes to a temp file in the target's directory (created owner-only on POSIX),
 * fsyncs it, moves it over the target with {@code ATOMIC_MOVE}, and fsyncs the directory where the
 * platform allows, so a reader sees the old file or the new one, never a part. A file system that
 * cannot rename atomically is an {@link IOException}; the temp file is deleted on any failure.
 */
public final class AtomicFiles {
  private AtomicFiles() {}

  /** Writes the bytes of a file; the callback may be called once. */
  @FunctionalInterface
  public interface Content {
    void writeTo(OutputStream out) throws IOException;
  }

  /** Writes {@code bytes} to {@code target} atomically, owner-only ({@code 0600}); the array is not kept. */
  public static void write(Path target, byte[] bytes) throws IOException {
    write(target, out -> out.write(bytes));
  }

  /** Writes {@code content} to {@code target} atomically; see the class comment. */
  public static void write(Path target, Content content) throws IOException {
    write(target, null, content);
  }

  /**
   * Writes {@code content} to {@code target} atomically, giving the file {@code permissions} on
   * POSIX file systems (null keeps the owner-only default; ignored elsewhere). Exceptions of
   * {@code content} propagate after the temp file is deleted.
   */
  public static void write(Path target, Set<PosixFilePermission> permissions, Content content)
      throws IOException {
    Path dir = target.toAbsolutePath().getParent();
    PrivateFiles.createDirectories(dir);
    Path tmp = Files.createTempFile(dir, ".tmp-", ".part", PrivateFiles.fileAttributes(dir));
    try {
      if (permissions != null && Files.getFileStore(tmp).supportsFileAttributeView(PosixFileAttributeView.class)) {
        Files.setPosixFilePermissions(tmp, permissions);
      }
      try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)) {
        OutputStream out = Channels.newOutputStream(ch);
        content.writeTo(out);
        out.flush();
        ch.force(true);
      }
      try {
        Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      } catch (AtomicMoveNotSupportedException e) {
        throw new IOException("cannot replace " + target + " atomically on this file system", e);
      }
      tmp = null;
      try {
        fsyncDirectory(dir);
      } catch (IOException | UnsupportedOperationException e) {
        // Best effort here: the file is already replaced atomically; only its durability is at stake.
      }
    } finally {
      if (tmp != null) {
        Files.deleteIfExists(tmp);
      }
    }
  }

  /**
   * Fsyncs directory {@code dir} so that a file created or renamed in it survives a crash.
   * Platforms that cannot open a directory (Windows) skip it silently.
   *
   * @throws IOException when the directory cannot be opened or synced on any other platform
   */
  public static void fsyncDirectory(Path dir) throws IOException {
    try (FileChannel ch = FileChannel.open(dir, StandardOpenOption.READ)) {
      ch.force(true);
    } catch (IOException e) {
      if (!System.getProperty("os.name", "").startsWith("Windows")) {
        throw e;
      }
    }
  }
}
