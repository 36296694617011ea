package dev.tether.api.files;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.EnumSet;
import java.util.Set;

/**
 * Files and directories that hold frames, images or tokens are the owner's alone: files
 * {@code 0600}, directories {@code 0700}, whatever the process umask and whatever the mode of the
 * directory they are created in. Where the file system has no POSIX permissions (Windows), every
 * method does the plain thing.
 *
 * <p>New files and directories get the mode at creation, so no other user can open them in
 * between (a umask can only take bits away, never add them); {@link #restrict} takes the group and
 * other bits off a file or directory that already exists, for files an earlier version or another
 * program made. Stateless and thread-safe. For an embedder that keeps its own state beside tether's
 * (tokens, bridge state) by the same rule.
 */
public final class PrivateFiles {
  /** {@code rw-------} */
  public static final Set<PosixFilePermission> FILE = PosixFilePermissions.fromString("rw-------");
  /** {@code rwx------} */
  public static final Set<PosixFilePermission> DIRECTORY = PosixFilePermissions.fromString("rwx------");

  private static final Set<PosixFilePermission> GROUP_OR_OTHER = EnumSet.of(
      PosixFilePermission.GROUP_READ, PosixFilePermission.GROUP_WRITE, PosixFilePermission.GROUP_EXECUTE,
      PosixFilePermission.OTHERS_READ, PosixFilePermission.OTHERS_WRITE, PosixFilePermission.OTHERS_EXECUTE);

  private PrivateFiles() {}

  /** Whether {@code path}'s file system has POSIX permissions. */
  public static boolean posix(Path path) {
    return path.getFileSystem().supportedFileAttributeViews().contains("posix");
  }

  /**
   * The attribute that creates a file owner-only, for {@code Files.createFile},
   * {@code FileChannel.open} with {@code CREATE} and the like; none off POSIX.
   */
  public static FileAttribute<?>[] fileAttributes(Path path) {
    return posix(path) ? new FileAttribute<?>[] {PosixFilePermissions.asFileAttribute(FILE)} : new FileAttribute<?>[0];
  }

  /**
   * Creates {@code dir} and any missing parents, each owner-only ({@code 0700}); directories that
   * exist are left as they are. Returns {@code dir}.
   */
  public static Path createDirectories(Path dir) throws IOException {
    if (!posix(dir)) {
      return Files.createDirectories(dir);
    }
    Path absolute = dir.toAbsolutePath();
    if (Files.isDirectory(absolute)) {
      return dir;
    }
    Path parent = absolute.getParent();
    if (parent != null) {
      createDirectories(parent);
    }
    try {
      Files.createDirectory(absolute, PosixFilePermissions.asFileAttribute(DIRECTORY));
      Files.setPosixFilePermissions(absolute, DIRECTORY); // exactly 0700, even under an odd umask
    } catch (FileAlreadyExistsException e) {
      if (!Files.isDirectory(absolute)) {
        throw e;
      }
      // Created by someone else in the meantime: theirs, left as it is.
    }
    return dir;
  }

  /** Creates an empty owner-only file ({@code 0600}) if {@code file} does not exist; true if it did not. */
  public static boolean createFileIfAbsent(Path file) throws IOException {
    try {
      Files.createFile(file, fileAttributes(file));
    } catch (FileAlreadyExistsException e) {
      return false;
    }
    if (posix(file)) {
      Files.setPosixFilePermissions(file, FILE);
    }
    return true;
  }

  /**
   * Takes the group and other permissions off {@code path} if it exists and has any (a symbolic
   * link is left alone). Returns whether it changed anything.
   */
  public static boolean restrict(Path path) throws IOException {
    if (!posix(path) || Files.isSymbolicLink(path)) {
      return false;
    }
    PosixFileAttributeView view = Files.getFileAttributeView(path, PosixFileAttributeView.class, LinkOption.NOFOLLOW_LINKS);
    Set<PosixFilePermission> permissions;
    try {
      permissions = view.readAttributes().permissions();
    } catch (NoSuchFileException e) {
      return false;
    }
    if (!permissions.removeAll(GROUP_OR_OTHER)) {
      return false;
    }
    view.setPermissions(permissions);
    return true;
  }
}
