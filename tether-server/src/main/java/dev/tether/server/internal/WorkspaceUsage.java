package dev.tether.server.internal;

import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.EnumSet;

/**
 * What an instance keeps on disk in today's layout, for the {@link DiskBudget}: the regular files
 * of {@code {workspace}/.aegis/attachments/{session}/} (attachments and manifests) and of
 * {@code {workspace}/.aegis/blobs/}. Nothing is opened and no link is followed: sizes come from the
 * directory entries ({@code lstat}), so a FIFO, a link or a link loop the guest planted counts
 * nothing and blocks nothing. The one place that knows where an instance's files are for the
 * budget; a file layer that moves them replaces it. Stateless and thread-safe.
 */
final class WorkspaceUsage implements DiskBudget.Usage {
  @Override
  public long bytes(InstanceRegistry.Entry entry) throws IOException {
    Path aegis = entry.workspace().resolve(".aegis");
    if (Files.isSymbolicLink(aegis)) {
      return 0; // refused by every route that writes there
    }
    return regularBytes(aegis.resolve("attachments"), 2) + regularBytes(BlobFiles.blobDir(entry.workspace()), 1);
  }

  private static long regularBytes(Path dir, int depth) throws IOException {
    if (!Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
      return 0;
    }
    long[] total = {0};
    Files.walkFileTree(dir, EnumSet.noneOf(java.nio.file.FileVisitOption.class), depth, new SimpleFileVisitor<>() {
      @Override
      public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
        if (attrs.isRegularFile()) {
          total[0] += attrs.size();
        }
        return FileVisitResult.CONTINUE;
      }

      @Override
      public FileVisitResult visitFileFailed(Path file, IOException e) {
        return FileVisitResult.CONTINUE; // gone since it was listed
      }
    });
    return total[0];
  }
}
