package dev.tether.api.files;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AtomicFilesTest {
  @TempDir Path root;

  @Test
  void write_replacesTheWholeFile_ownerOnly_andLeavesNoTempFile() throws Exception {
    Path target = root.resolve("deep/dir/state.json");
    AtomicFiles.write(target, "first, longer content".getBytes(StandardCharsets.UTF_8));
    AtomicFiles.write(target, "second".getBytes(StandardCharsets.UTF_8));

    assertEquals("second", Files.readString(target));
    assertEquals(List.of(target), files(target.getParent()));
    if (posix()) {
      assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(target)));
      assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(target.getParent())));
    }
  }

  @Test
  void write_whenTheContentFails_keepsTheOldFile_andDeletesTheTempFile() throws Exception {
    Path target = root.resolve("state.json");
    AtomicFiles.write(target, new byte[] {1, 2, 3});

    IOException thrown = assertThrows(IOException.class, () -> AtomicFiles.write(target, out -> {
      out.write(new byte[] {9, 9});
      throw new IOException("disk full half-way");
    }));

    assertEquals("disk full half-way", thrown.getMessage());
    assertArrayEquals(new byte[] {1, 2, 3}, Files.readAllBytes(target));
    assertEquals(List.of(target), files(root));
  }

  @Test
  void write_givesTheRequestedMode_whenOneIsAsked() throws Exception {
    assumeTrue(posix(), "POSIX file modes");
    Path target = root.resolve("shared.json");
    AtomicFiles.write(target, PosixFilePermissions.fromString("rw-r-----"), out -> out.write('x'));
    assertEquals("rw-r-----", PosixFilePermissions.toString(Files.getPosixFilePermissions(target)));
  }

  private static boolean posix() {
    return FileSystems.getDefault().supportedFileAttributeViews().contains("posix");
  }

  private static List<Path> files(Path dir) throws IOException {
    try (Stream<Path> s = Files.list(dir)) {
      return s.toList();
    }
  }
}
