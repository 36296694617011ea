package dev.tether.benchmarks;

import dev.tether.api.Frame;
import dev.tether.api.FrameCodec;
import dev.tether.api.SessionKey;
import dev.tether.store.sqlite.DurableTetherStore;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The measurement behind keeping large payloads inside SQLite: a durable append of a 5 MiB frame
 * ({@code impl=sqlite}, {@link DurableTetherStore} with FULL sync, under the 128 MiB budget so
 * old rows are deleted as new ones arrive) against the floor of the side-file design
 * ({@code impl=fileFloor}: write the frame to a temp file, fsync, rename, fsync the directory).
 * The side-file design would still need a SQLite commit for the row that references the file on
 * top of that floor, so SQLite wins unless it costs clearly more than the floor.
 *
 * <pre>
 * java -jar benchmarks/target/benchmarks.jar LargePayloadJournalBenchmark -f 1 -wi 2 -i 5 -w 1s -r 2s
 * </pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = "-Xmx2g")
public class LargePayloadJournalBenchmark {
  @Param({"sqlite", "fileFloor"})
  public String impl;

  private Path dir;
  private DurableTetherStore store;
  private Frame frame;
  private byte[] encoded;
  private long n;

  @Setup
  public void setUp() throws Exception {
    dir = Files.createTempDirectory("tether-large-bench");
    frame = StoreBenchSupport.frame(SessionKey.host("s0"), 5 << 20);
    encoded = FrameCodec.standard().write(frame.withSeq(1));
    if (impl.equals("sqlite")) {
      store = DurableTetherStore.open(dir.resolve("journal.db"));
    }
  }

  @TearDown
  public void tearDown() throws Exception {
    if (store != null) {
      store.close();
    }
    DurableAppendBenchmark.deleteTree(dir);
  }

  @Benchmark
  public long append() throws Exception {
    if (store != null) {
      return store.append("vm", frame);
    }
    long id = ++n;
    Path tmp = dir.resolve(id + ".tmp");
    try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
      ByteBuffer b = ByteBuffer.wrap(encoded);
      while (b.hasRemaining()) {
        ch.write(b);
      }
      ch.force(true);
    }
    Files.move(tmp, dir.resolve(id + ".frame"), StandardCopyOption.ATOMIC_MOVE);
    try (FileChannel d = FileChannel.open(dir, StandardOpenOption.READ)) {
      d.force(true);
    }
    if (id > 25) {
      Files.deleteIfExists(dir.resolve((id - 25) + ".frame")); // same 128 MiB budget
    }
    return id;
  }
}
