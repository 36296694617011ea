package dev.tether.store.sqlite;

import dev.tether.store.Readiness;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Checks that a journal can still be written, for {@link DurableTetherStore#readiness()}: the file
 * is still a regular file at its path (not moved or deleted under the open connection, which would
 * keep writing to an unlinked file) and its directory accepts a new file (not read-only, not full,
 * not made immutable). The probe file is created, fsynced and deleted at once.
 */
final class JournalProbe {
  private JournalProbe() {}

  static Readiness check(Path file) {
    if (!Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
      return Readiness.notReady("the journal " + file + " is gone from its path (moved or deleted)");
    }
    Path dir = file.getParent();
    Path probe = null;
    try {
      probe = Files.createTempFile(dir, ".tether-ready-", ".probe");
      try (var ch = FileChannel.open(probe, StandardOpenOption.WRITE)) {
        ch.write(ByteBuffer.wrap(new byte[] {1}));
        ch.force(false);
      }
      return Readiness.yes();
    } catch (IOException | RuntimeException e) {
      return Readiness.notReady("the journal's directory " + dir + " is not writable: " + e);
    } finally {
      if (probe != null) {
        try {
          Files.deleteIfExists(probe);
        } catch (IOException ignored) {
          // the next probe tries again; a leftover probe file is a few bytes
        }
      }
    }
  }
}
