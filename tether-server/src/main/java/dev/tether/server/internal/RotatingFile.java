package dev.tether.server.internal;

import dev.tether.api.files.PrivateFiles;
import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Set;

/**
 * An append-only file rotated by size: {@code FILE} is written until the next write would take it
 * past {@code maxBytes}, then renamed to {@code FILE.1} (the older ones shifted up to
 * {@code FILE.keep}, the oldest removed) and a new {@code FILE} begun. On disk: at most
 * {@code (keep + 1) * maxBytes} bytes, given writes of at most {@code maxBytes}.
 *
 * <p>Security: a file is only ever created, never opened by name once it exists: {@code FILE} is
 * made with {@code O_CREAT|O_EXCL} (which never follows a link nor opens a FIFO) and owner-only
 * ({@code 0600}) from its creation; what already stood at {@code FILE} (a log of an earlier run) is
 * renamed away to {@code FILE.1}, renames and removals never following links. Something at
 * {@code FILE} that is not a regular file (a symbolic link, FIFO, socket, device or directory) is
 * refused with a sentence when the file is opened. Not thread-safe: one writer.
 */
public final class RotatingFile implements Closeable {
  private final Path file;
  private final long maxBytes;
  private final int keep;
  private FileChannel channel; // null after a failed rotation: the next write tries again
  private long size;

  private RotatingFile(Path file, long maxBytes, int keep) {
    this.file = file;
    this.maxBytes = maxBytes;
    this.keep = keep;
  }

  /**
   * Opens {@code file} for a new run: an earlier log there is rotated away and a new one created.
   *
   * @throws IOException saying why, in one sentence, when something other than a regular file is
   *     at {@code file}, its directory is missing, or it cannot be created
   */
  public static RotatingFile open(Path file, long maxBytes, int keep) throws IOException {
    RotatingFile f = new RotatingFile(file.toAbsolutePath(), maxBytes, keep);
    Path dir = f.file.getParent();
    if (dir == null || !Files.isDirectory(dir)) {
      throw new IOException("the directory of " + f.file + " does not exist");
    }
    f.begin();
    return f;
  }

  /** Refuses what is not a regular file at {@code file}, rotates a regular one away, creates a new one. */
  private void begin() throws IOException {
    BasicFileAttributes a = null;
    try {
      a = Files.readAttributes(file, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
    } catch (NoSuchFileException e) {
      // a new log
    }
    if (a != null) {
      if (!a.isRegularFile()) {
        throw new IOException(file + " is " + (a.isSymbolicLink() ? "a symbolic link" : a.isDirectory() ? "a directory"
            : "not a regular file (a FIFO, socket or device)") + "; refusing to write the audit log there");
      }
      shift();
    }
    try {
      channel = FileChannel.open(file, Set.<OpenOption>of(StandardOpenOption.CREATE_NEW,
          StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS), PrivateFiles.fileAttributes(file));
    } catch (FileAlreadyExistsException e) {
      throw new IOException(file + " appeared while the audit log was rotated; refusing to open it", e);
    }
    size = 0;
  }

  /** {@code FILE.keep} removed, {@code FILE.i} to {@code FILE.(i+1)}, {@code FILE} to {@code FILE.1}; with keep 0 FILE removed. */
  private void shift() throws IOException {
    if (keep == 0) {
      Files.deleteIfExists(file);
      return;
    }
    Files.deleteIfExists(numbered(keep));
    for (int i = keep - 1; i >= 1; i--) {
      Path from = numbered(i);
      if (Files.exists(from, LinkOption.NOFOLLOW_LINKS)) {
        Files.move(from, numbered(i + 1), StandardCopyOption.REPLACE_EXISTING);
      }
    }
    Files.move(file, numbered(1), StandardCopyOption.REPLACE_EXISTING);
  }

  public Path numbered(int i) {
    return file.resolveSibling(file.getFileName() + "." + i);
  }

  /** Writes {@code length} bytes from {@code offset} (at most {@code maxBytes}) at the end, rotating first when they would not fit. */
  public void write(byte[] bytes, int offset, int length) throws IOException {
    if (channel == null) {
      begin();
    } else if (size > 0 && size + length > maxBytes) {
      channel.close();
      channel = null;
      begin();
    }
    ByteBuffer b = ByteBuffer.wrap(bytes, offset, length);
    while (b.hasRemaining()) {
      size += channel.write(b);
    }
  }

  @Override
  public void close() throws IOException {
    if (channel != null) {
      channel.close();
      channel = null;
    }
  }
}
