package dev.tether.benchmarks;

import dev.tether.api.Frame;
import dev.tether.api.SessionKey;
import dev.tether.store.sqlite.DurableTetherStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
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
 * Reopening a journal that holds a full ring: 1000 frames of 134,217-byte payloads (128 MiB of
 * payload, both caps reached). {@code impl=tether} opens {@link DurableTetherStore} (checks, reads,
 * decodes every frame, rebuilds the ring and indexes) and closes it; {@code impl=rawSelect} only
 * reads the same blobs with plain JDBC, the floor for any SQLite-backed restore. The file was just
 * written, so it is read from the page cache.
 *
 * <p>Target: tether at most 1 s.
 *
 * <pre>
 * java -jar benchmarks/target/benchmarks.jar StoreReopenBenchmark -f 1 -wi 2 -i 5
 * </pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 2)
@Measurement(iterations = 5)
@Fork(value = 1, jvmArgsAppend = "-Xmx2g")
public class StoreReopenBenchmark {
  @Param({"tether", "rawSelect"})
  public String impl;

  private Path dir;
  private Path file;

  @Setup
  public void setUp() throws Exception {
    dir = Files.createTempDirectory("tether-reopen-bench");
    file = dir.resolve("journal.db");
    int payload = (int) ((128L << 20) / 1000);
    Frame f = StoreBenchSupport.frame(SessionKey.host("s0"), payload);
    try (DurableTetherStore s = DurableTetherStore.builder(file)
        .sync(DurableTetherStore.Sync.NORMAL).open()) {
      for (int i = 0; i < 1000; i++) {
        s.append("vm", f);
      }
      if (s.retained("vm").size() != 1000) {
        throw new IllegalStateException("expected a full ring, got " + s.retained("vm").size());
      }
    }
  }

  @TearDown
  public void tearDown() throws Exception {
    DurableAppendBenchmark.deleteTree(dir);
  }

  @Benchmark
  public long reopen() throws Exception {
    if (impl.equals("tether")) {
      try (DurableTetherStore s = DurableTetherStore.open(file)) {
        return s.retainedBytes("vm");
      }
    }
    long bytes = 0;
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file);
        Statement st = c.createStatement();
        ResultSet rs = st.executeQuery("SELECT frame FROM frames WHERE instance = 'vm' ORDER BY seq DESC")) {
      while (rs.next()) {
        bytes += rs.getBytes(1).length;
      }
    }
    return bytes;
  }
}
