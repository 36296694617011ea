package dev.tether.benchmarks;

import dev.tether.api.MediaType;
import dev.tether.api.blobs.BlobKey;
import dev.tether.sessions.FileBlobStore;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.StandardOpenOption;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * Putting a new 5 MiB image into the blob store (SHA-256, temp file, rename, and with
 * {@code durable} both fsyncs) against the baseline {@code MessageDigest} + {@code Files.write}
 * of the same bytes ({@code baseline}), and against that baseline plus one {@code force(true)}
 * ({@code baselineFsync}), which is the least a durable write costs on the machine. Each invocation changes 8 bytes so nothing deduplicates, and deletes its
 * file afterwards in both variants.
 *
 * <p>Run: {@code java -jar benchmarks/target/benchmarks.jar 'BlobPut.*' -f 1 -wi 3 -i 5 -w 2s -r 2s}
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
public class BlobPutBenchmark {
  @Param({"baseline", "store", "baselineFsync", "storeDurable"})
  public String impl;

  private Path dir;
  private FileBlobStore store;
  private byte[] bytes;
  private long counter;

  @Setup
  public void setUp() throws IOException {
    dir = BenchFiles.tempDir("bench-blobs");
    store = FileBlobStore.builder(dir).durable(impl.equals("storeDurable")).build();
    bytes = BenchFiles.png(5 << 20, 1);
  }

  @TearDown
  public void tearDown() throws IOException {
    BenchFiles.delete(dir);
  }

  @Benchmark
  public Object put() throws Exception {
    long c = ++counter;
    for (int i = 0; i < 8; i++) {
      bytes[8 + i] = (byte) (c >>> (8 * i));
    }
    if (impl.startsWith("baseline")) {
      byte[] digest = MessageDigest.getInstance("SHA-256").digest(bytes);
      Path file = dir.resolve(HexFormat.of().formatHex(digest) + ".png");
      if (impl.equals("baseline")) {
        Files.write(file, bytes);
      } else {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
          ByteBuffer buffer = ByteBuffer.wrap(bytes);
          while (buffer.hasRemaining()) {
            ch.write(buffer);
          }
          ch.force(true);
        }
      }
      Files.delete(file);
      return digest;
    }
    BlobKey key = store.put(bytes, MediaType.PNG);
    store.delete(key);
    return key;
  }
}
