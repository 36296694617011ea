package dev.tether.server.internal;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Where instance workspaces may be: directories strictly below one of the configured roots,
 * reached without a symbolic link. A workspace is shared with a VM's agent and the daemon writes
 * blobs into it, so a client must not be able to point it at {@code /etc}, at {@code /} through
 * {@code ..}, at another tree through a link, or at a file.
 *
 * <p>A root is resolved to its real path once, when the daemon starts (created 0700 when
 * missing); a requested workspace is checked component by component below its root with
 * {@link LinkOption#NOFOLLOW_LINKS}, and missing components are created 0700. Every refusal is an
 * {@link IllegalArgumentException} that names the rule (the API answers it 400
 * {@code INVALID_ARGUMENT}). Immutable and thread-safe; creating directories races benignly.
 */
final class WorkspaceRoots {
  /** A root as configured (absolute, normalized) and as it really is (links resolved). */
  private record Root(Path configured, Path real) {}

  private final List<Root> roots;

  private WorkspaceRoots(List<Root> roots) {
    this.roots = roots;
  }

  /**
   * The roots {@code paths}, each created (0700) when missing and resolved.
   *
   * @throws IllegalArgumentException when there is none, or one is not a directory
   */
  static WorkspaceRoots of(List<Path> paths) throws IOException {
    if (paths.isEmpty()) {
      throw new IllegalArgumentException("at least one workspace root is needed");
    }
    List<Root> roots = new ArrayList<>();
    for (Path p : paths) {
      Path configured = p.toAbsolutePath().normalize();
      if (!Files.isDirectory(configured)) {
        try {
          Files.createDirectories(configured, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        } catch (FileAlreadyExistsException e) {
          throw new IllegalArgumentException("workspace root " + configured + " exists and is not a directory");
        }
      }
      roots.add(new Root(configured, configured.toRealPath()));
    }
    return new WorkspaceRoots(List.copyOf(roots));
  }

  /** The default workspace of instance {@code id}: {@code {first root}/{id}}, created when missing. */
  Path defaultFor(String id) throws IOException {
    return confine(roots.get(0).real().resolve(id));
  }

  /**
   * {@code requested} as a confined workspace: absolute, without {@code ..}, strictly inside a
   * root, no symbolic link and no file on the way; missing directories are created 0700.
   *
   * @return the workspace below the root's real path
   * @throws IllegalArgumentException naming the rule {@code requested} breaks
   */
  Path confine(Path requested) throws IOException {
    Objects.requireNonNull(requested, "requested");
    if (!requested.isAbsolute()) {
      throw new IllegalArgumentException("workspace must be an absolute path");
    }
    for (Path name : requested) {
      if (name.toString().equals("..") || name.toString().equals(".")) {
        throw new IllegalArgumentException("workspace must not contain '.' or '..'");
      }
    }
    Path path = requested.normalize();
    for (Root root : roots) {
      Path base = path.startsWith(root.real()) ? root.real() : path.startsWith(root.configured()) ? root.configured() : null;
      if (base == null || path.equals(base)) {
        continue;
      }
      Path current = root.real();
      for (Path name : base.relativize(path)) {
        current = current.resolve(name);
        requireDirectoryNotLink(current);
      }
      return current;
    }
    throw new IllegalArgumentException("workspace must be a directory inside a workspace root (" + describe()
        + "); set the roots with --workspaces");
  }

  /** The roots as configured, for messages. */
  String describe() {
    return String.join(", ", roots.stream().map(r -> r.configured().toString()).toList());
  }

  private static void requireDirectoryNotLink(Path dir) throws IOException {
    for (int attempt = 0; attempt < 2; attempt++) {
      try {
        BasicFileAttributes a = Files.readAttributes(dir, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        if (a.isSymbolicLink()) {
          throw new IllegalArgumentException("workspace must not pass through a symbolic link (" + dir.getFileName() + " is one)");
        }
        if (!a.isDirectory()) {
          throw new IllegalArgumentException("workspace must be a directory, but " + dir.getFileName() + " is a file");
        }
        return;
      } catch (NoSuchFileException e) {
        try {
          Files.createDirectory(dir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
          return;
        } catch (FileAlreadyExistsException raced) {
          // made meanwhile (or a link put there): look again
        }
      }
    }
    throw new IllegalArgumentException("workspace " + dir.getFileName() + " changed while it was being checked; try again");
  }
}
