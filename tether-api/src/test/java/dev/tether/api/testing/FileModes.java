package dev.tether.api.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.stream.Stream;

/**
 * Checks that files holding frames, images or tokens are the owner's only, in a directory that is
 * not: {@link #openDirectory} makes a directory 0755 as a user's data directory often is, and
 * {@link #assertOwnerOnly} walks a tree and wants every file 0600 and every directory below the
 * root 0700. Use on POSIX file systems only.
 */
public final class FileModes {
  private FileModes() {}

  /** Creates {@code dir} with mode 0755 (whatever the umask), as a data directory that exists already. */
  public static Path openDirectory(Path dir) throws IOException {
    Files.createDirectories(dir);
    Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
    return dir;
  }

  /**
   * Asserts that each of {@code required} exists below {@code root}, and that every regular file
   * below it is 0600 and every directory below it (not {@code root} itself) 0700.
   */
  public static void assertOwnerOnly(Path root, String... required) throws IOException {
    for (String name : required) {
      assertTrue(Files.exists(root.resolve(name)), name + " should exist in " + listing(root));
    }
    try (Stream<Path> paths = Files.walk(root)) {
      for (Path p : paths.filter(p -> !p.equals(root)).toList()) {
        String expected = Files.isDirectory(p) ? "rwx------" : "rw-------";
        assertEquals(expected, PosixFilePermissions.toString(Files.getPosixFilePermissions(p)),
            root.relativize(p) + " in " + listing(root));
      }
    }
  }

  private static List<String> listing(Path root) throws IOException {
    try (Stream<Path> paths = Files.walk(root)) {
      return paths.map(p -> {
        try {
          return root.relativize(p) + " " + PosixFilePermissions.toString(Files.getPosixFilePermissions(p));
        } catch (IOException e) {
          return root.relativize(p) + " ?";
        }
      }).toList();
    }
  }
}
