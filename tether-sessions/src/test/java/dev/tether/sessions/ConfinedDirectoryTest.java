package dev.tether.sessions;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link ConfinedDirectory} on real files: links planted at every component are refused (never
 * followed), a FIFO never hangs a thread, sockets and directories are refused as files, sizes come
 * from the handle, writes are atomic and 0600, directories 0700.
 */
class ConfinedDirectoryTest {
  @TempDir Path tmp;
  Path root;
  Path outside;

  @BeforeEach
  void layout() throws Exception {
    assumeTrue(FileSystems.getDefault().supportedFileAttributeViews().contains("posix"), "POSIX file system");
    root = Files.createDirectory(tmp.resolve("root"));
    outside = Files.createDirectory(tmp.resolve("outside"));
    Files.writeString(outside.resolve("secret"), "SECRET");
  }

  @Test
  void directoryLinkedAtAnyComponent_isRefusedNotFollowed() throws Exception {
    Files.createSymbolicLink(root.resolve("a"), outside);
    Files.createDirectories(root.resolve("b/c"));
    Files.createSymbolicLink(root.resolve("b/c/d"), outside);
    try (ConfinedDirectory r = ConfinedDirectory.open(root)) {
      UnsafeFileException e = assertThrows(UnsafeFileException.class, () -> r.directory("a"));
      assertEquals("a is a symbolic link; it must be a plain directory", e.describe());
      assertThrows(UnsafeFileException.class, () -> r.createDirectory("a"));
      try (ConfinedDirectory b = r.directory("b"); ConfinedDirectory c = b.directory("c")) {
        UnsafeFileException deep = assertThrows(UnsafeFileException.class, () -> c.directory("d"));
        assertEquals("b/c/d", deep.getFile());
        assertThrows(UnsafeFileException.class, () -> c.createDirectory("d"));
      }
    }
    assertEquals(List.of("secret"), List.of(outside.toFile().list()));
  }

  @Test
  void fileLinkedOutside_isRefusedAndWriteReplacesTheLinkNotItsTarget() throws Exception {
    Files.createSymbolicLink(root.resolve("f"), outside.resolve("secret"));
    try (ConfinedDirectory r = ConfinedDirectory.open(root)) {
      UnsafeFileException e = assertThrows(UnsafeFileException.class, () -> r.openFile("f"));
      assertTrue(e.getReason().contains("symbolic link"), e.getMessage());
      assertThrows(UnsafeFileException.class, () -> r.read("f", 100));
      r.write("f", "mine".getBytes(StandardCharsets.UTF_8));
      assertArrayEquals("mine".getBytes(StandardCharsets.UTF_8), r.read("f", 100));
    }
    assertFalse(Files.isSymbolicLink(root.resolve("f")));
    assertEquals("SECRET", Files.readString(outside.resolve("secret")));
  }

  @Test
  void directoryWhereAFileBelongs_andFileWhereADirectoryBelongs_areRefused() throws Exception {
    Files.createDirectory(root.resolve("dir"));
    Files.writeString(root.resolve("file"), "x");
    try (ConfinedDirectory r = ConfinedDirectory.open(root)) {
      assertThrows(UnsafeFileException.class, () -> r.openFile("dir"));
      assertThrows(UnsafeFileException.class, () -> r.write("dir", new byte[1]));
      assertThrows(UnsafeFileException.class, () -> r.directory("file"));
      assertThrows(UnsafeFileException.class, () -> r.createDirectory("file"));
      assertThrows(NoSuchFileException.class, () -> r.openFile("missing"));
      assertThrows(NoSuchFileException.class, () -> r.directory("missing"));
      assertTrue(r.findDirectory("missing").isEmpty());
    }
  }

  @Test
  void namesThatAreNotOneComponent_areCallerMistakes() throws Exception {
    try (ConfinedDirectory r = ConfinedDirectory.open(root)) {
      for (String bad : new String[] {"", ".", "..", "a/b", "../outside", "/etc", "a\0b", "a\\b", "x".repeat(256)}) {
        assertThrows(IllegalArgumentException.class, () -> r.openFile(bad), bad);
        assertThrows(IllegalArgumentException.class, () -> r.createDirectory(bad), bad);
        assertThrows(IllegalArgumentException.class, () -> r.write(bad, new byte[0]), bad);
      }
    }
  }

  @Test
  void fifo_isRefusedWithoutBlocking() throws Exception {
    mkfifo(root.resolve("pipe"));
    try (ConfinedDirectory r = ConfinedDirectory.open(root)) {
      assertTimeoutPreemptively(Duration.ofSeconds(5), () -> {
        UnsafeFileException e = assertThrows(UnsafeFileException.class, () -> r.openFile("pipe"));
        assertTrue(e.getReason().contains("not a regular file"), e.getMessage());
        assertThrows(UnsafeFileException.class, () -> r.directory("pipe"));
      });
    }
  }

  @Test
  void fifoSwappedInAfterTheCheck_isUnblockedByTheWatchdogAndRefused() throws Exception {
    // The race a guest wins sometimes, made certain: the fstatat saw a file, the open meets a FIFO.
    // Driving the open directly through the guard is what a lost race looks like from inside.
    mkfifo(root.resolve("pipe"));
    ExecutorService pool = Executors.newFixedThreadPool(8);
    try (ConfinedDirectory r = ConfinedDirectory.open(root)) {
      long start = System.nanoTime();
      List<Future<Object>> opens = new java.util.ArrayList<>();
      for (int i = 0; i < 8; i++) {
        opens.add(pool.submit(() -> {
          try (ConfinedDirectory.OpenFile f = r.openChecked(Path.of("pipe"))) {
            return "opened a FIFO as a file: " + f;
          } catch (IOException e) {
            return e;
          }
        }));
      }
      for (Future<Object> f : opens) {
        Object result = f.get(5, TimeUnit.SECONDS);
        assertTrue(result instanceof UnsafeFileException, "the open returned and the seek check refused it: " + result);
      }
      assertTrue(System.nanoTime() - start < TimeUnit.SECONDS.toNanos(3), "unblocked within the watchdog period");
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void socket_isRefused() throws Exception {
    Path sock = root.resolve("sock");
    try (ServerSocketChannel server = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
      server.bind(UnixDomainSocketAddress.of(sock));
      try (ConfinedDirectory r = ConfinedDirectory.open(root)) {
        assertThrows(UnsafeFileException.class, () -> r.openFile("sock"));
      }
    }
  }

  @Test
  void sizeComesFromTheHandle_andReadRefusesAFileThatGrewPastIt() throws Exception {
    Files.writeString(root.resolve("f"), "12345");
    try (ConfinedDirectory r = ConfinedDirectory.open(root); ConfinedDirectory.OpenFile f = r.openFile("f")) {
      assertEquals(5, f.size());
      Files.writeString(root.resolve("f"), "1234567890"); // same inode, grows after the open
      assertThrows(java.nio.file.FileSystemException.class, f::readAll);
    }
    try (ConfinedDirectory r = ConfinedDirectory.open(root)) {
      assertThrows(java.nio.file.FileSystemException.class, () -> r.read("f", 9));
      assertEquals(10, r.read("f", 10).length);
    }
  }

  @Test
  void writeIsAtomicOwnerOnly_andDirectoriesAreCreatedOwnerOnly() throws Exception {
    try (ConfinedDirectory r = ConfinedDirectory.open(root);
        ConfinedDirectory a = r.createDirectory("a");
        ConfinedDirectory b = a.createDirectory("b")) {
      b.write("x", "one".getBytes(StandardCharsets.UTF_8));
      b.write("x", "two".getBytes(StandardCharsets.UTF_8));
      assertThrows(IOException.class, () -> b.write("y", out -> {
        out.write(1);
        throw new IOException("writer failed");
      }));
      assertEquals(List.of("x"), b.list(), "no temp file or half file is left");
      assertEquals("b", b.where().substring(2));
    }
    assertEquals("two", Files.readString(root.resolve("a/b/x")));
    assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(root.resolve("a/b/x"))));
    assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(root.resolve("a"))));
    assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(root.resolve("a/b"))));
    assertEquals(Set.of("a"), Set.of(root.toFile().list()), "no staging directory is left in the root");
  }

  @Test
  void deleteTree_removesLinksNeverTheirTargets() throws Exception {
    Files.createDirectories(root.resolve("t/u"));
    Files.writeString(root.resolve("t/u/f"), "x");
    Files.createSymbolicLink(root.resolve("t/link"), outside);
    Files.createSymbolicLink(root.resolve("t/u/flink"), outside.resolve("secret"));
    try (ConfinedDirectory r = ConfinedDirectory.open(root)) {
      assertTrue(r.deleteTree("t"));
      assertFalse(r.deleteTree("t"));
    }
    assertFalse(Files.exists(root.resolve("t"), LinkOption.NOFOLLOW_LINKS));
    assertEquals("SECRET", Files.readString(outside.resolve("secret")));
  }

  @Test
  void regularFileBytes_countsRegularFilesOnly_neverFollowsOrOpens() throws Exception {
    Files.write(root.resolve("a"), new byte[300]);
    Files.write(root.resolve("b"), new byte[20]);
    Files.write(outside.resolve("big"), new byte[5000]);
    Files.createSymbolicLink(root.resolve("link"), outside.resolve("big"));
    Files.createDirectory(root.resolve("dir"));
    Files.write(root.resolve("dir").resolve("nested"), new byte[7000]);
    mkfifo(root.resolve("pipe"));
    try (ConfinedDirectory r = ConfinedDirectory.open(root)) {
      assertTimeoutPreemptively(Duration.ofSeconds(5), () -> assertEquals(320, r.regularFileBytes(),
          "the two files only: not the link's target, the directory's contents or the FIFO"));
    }
  }

  static void mkfifo(Path path) throws Exception {
    Process p = new ProcessBuilder("mkfifo", path.toString()).inheritIO().start();
    assumeTrue(p.waitFor(10, TimeUnit.SECONDS) && p.exitValue() == 0, "mkfifo works here");
  }
}
