package dev.tether.api.files;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.tether.api.testing.FileModes;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PrivateFilesTest {
  @TempDir Path root;
  Path open;

  @BeforeEach
  void posixAndAnOpenDirectory() throws Exception {
    assumeTrue(FileSystems.getDefault().supportedFileAttributeViews().contains("posix"), "POSIX file modes");
    open = FileModes.openDirectory(root.resolve("open"));
  }

  @Test
  void createDirectories_makesEachMissingDirectoryOwnerOnly_andLeavesExistingOnesAlone() throws Exception {
    Path deep = open.resolve("a/b/c");
    assertEquals(deep, PrivateFiles.createDirectories(deep));
    FileModes.assertOwnerOnly(open, "a", "a/b", "a/b/c");
    assertEquals("rwxr-xr-x", mode(open));
    PrivateFiles.createDirectories(deep); // again: nothing to do
    FileModes.assertOwnerOnly(open, "a/b/c");
  }

  @Test
  void createFileIfAbsent_createsOwnerOnly_onlyOnce() throws Exception {
    Path file = open.resolve("f");
    assertTrue(PrivateFiles.createFileIfAbsent(file));
    Files.writeString(file, "kept");
    assertFalse(PrivateFiles.createFileIfAbsent(file));
    assertEquals("kept", Files.readString(file));
    FileModes.assertOwnerOnly(open, "f");
  }

  @Test
  void restrict_takesGroupAndOtherBitsOff_keepsTheOwners_andIgnoresMissingFiles() throws Exception {
    Path file = Files.createFile(open.resolve("f"));
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxrw-r--"));
    assertTrue(PrivateFiles.restrict(file));
    assertEquals("rwx------", mode(file));
    assertFalse(PrivateFiles.restrict(file));
    assertFalse(PrivateFiles.restrict(open.resolve("missing")));
  }

  private static String mode(Path p) throws Exception {
    return PosixFilePermissions.toString(Files.getPosixFilePermissions(p));
  }
}
