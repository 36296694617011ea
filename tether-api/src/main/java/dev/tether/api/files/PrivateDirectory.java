package dev.tether.api.files;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.nio.file.attribute.UserPrincipal;
import java.nio.file.attribute.UserPrincipalNotFoundException;

/**
 * A directory a tether process keeps its state in ({@code serve --data-dir}, the agent's
 * {@code --data-dir}, a bridge's state directory) is the owner's alone: {@link #claim} creates it
 * {@code 0700} when it is missing and, when it already exists, tightens it to {@code 0700} if the
 * user running this process owns it, and refuses it otherwise (another user's directory is never
 * changed, and state is never written where another user can swap files). Off POSIX file systems it
 * only creates the directory. Stateless and thread-safe.
 */
public final class PrivateDirectory {
  private PrivateDirectory() {}

  /**
   * Creates {@code dir} owner-only, or takes an existing one that this process's user owns and
   * makes it exactly {@code 0700}; returns {@code dir}.
   *
   * @throws NotDirectoryException when {@code dir} exists and is not a directory
   * @throws AccessDeniedException when {@code dir} belongs to another user (the message names both)
   * @throws IOException when it cannot be created or read
   */
  public static Path claim(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return PrivateFiles.createDirectories(dir);
    }
    if (!Files.isDirectory(dir)) {
      throw new NotDirectoryException(dir + " is not a directory");
    }
    if (!PrivateFiles.posix(dir)) {
      return dir;
    }
    UserPrincipal owner = Files.getOwner(dir);
    String me = System.getProperty("user.name", "");
    UserPrincipal self;
    try {
      self = dir.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByName(me);
    } catch (UserPrincipalNotFoundException e) {
      self = null; // a uid without a name (a container's): only the owner (or root) may change the mode
    }
    if (self != null && !self.equals(owner)) {
      throw new AccessDeniedException(dir.toString(), null, "it belongs to " + owner.getName() + ", not to " + me
          + "; use a directory of your own");
    }
    try {
      Files.setPosixFilePermissions(dir, PrivateFiles.DIRECTORY);
    } catch (AccessDeniedException e) {
      throw new AccessDeniedException(dir.toString(), null, "it belongs to " + owner.getName()
          + ", not to this process's user; use a directory of your own");
    }
    return dir;
  }
}
