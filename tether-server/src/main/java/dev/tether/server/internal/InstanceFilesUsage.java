package dev.tether.server.internal;

import dev.tether.sessions.ConfinedDirectory;
import dev.tether.sessions.UnsafeFileException;
import java.io.IOException;
import java.nio.file.NoSuchFileException;

/**
 * What an instance keeps on disk, for the {@link DiskBudget}: its attachments with their manifests
 * (in the host-only attachment directory of its registration, or in the storage servers share:
 * {@link Attachments#bytesStored})
 * and the blobs in {@code {workspace}/.aegis/blobs}. Sizes come from directory entries read through
 * {@link ConfinedDirectory} (relative to opened directories, no link followed, nothing opened), so
 * a FIFO, a link or a link loop the guest planted counts nothing and blocks nothing; a blob
 * directory the guest replaced with a link counts nothing, and every route that writes there
 * refuses it. The one place that knows where an instance's files are for the budget. Thread-safe.
 */
final class InstanceFilesUsage implements DiskBudget.Usage {
  private final Attachments attachments;

  InstanceFilesUsage(Attachments attachments) {
    this.attachments = attachments;
  }

  @Override
  public long bytes(InstanceRegistry.Entry entry) throws IOException {
    return attachments.bytesStored(entry) + blobBytes(entry);
  }

  /** The bytes of the blobs in {@code entry}'s workspace on this server. */
  static long blobBytes(InstanceRegistry.Entry entry) throws IOException {
    try (ConfinedDirectory ws = ConfinedDirectory.open(entry.workspace());
        ConfinedDirectory blobs = BlobFiles.blobDirectory(ws, false)) {
      return blobs.regularFileBytes();
    } catch (NoSuchFileException | UnsafeFileException e) {
      return 0;
    }
  }
}
