package dev.tether.benchmarks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Random;
import java.util.stream.Stream;

/** Temp directories and PNG-signed byte arrays for the benchmarks. */
final class BenchFiles {
  private static final byte[] PNG = {(byte) 0x89, 'P', 'N', 'G', 0x0D, 0x0A, 0x1A, 0x0A};

  private BenchFiles() {}

  static byte[] png(int size, long seed) {
    byte[] bytes = new byte[size];
    new Random(seed).nextBytes(bytes);
    System.arraycopy(PNG, 0, bytes, 0, PNG.length);
    return bytes;
  }

  /** A temp directory on the working directory's file system (not tmpfs), so fsync costs what it costs. */
  static Path tempDir(String prefix) throws IOException {
    return Files.createTempDirectory(Path.of("").toAbsolutePath(), prefix);
  }

  static void delete(Path dir) throws IOException {
    if (dir == null) {
      return;
    }
    try (Stream<Path> files = Files.walk(dir)) {
      files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    }
  }
}
