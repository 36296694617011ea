package dev.tether.benchmarks;

import dev.tether.sessions.FileBlobStore;
import dev.tether.sessions.SessionStore;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
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
 * Loading a 10,000-turn session holding 2,000 image refs from its JSONL file (a new store each
 * time, so nothing is cached in the SDK) against the baseline of reading the same file as lines
 * with {@code Files.readAllLines}, which parses nothing. Target: at most 100 ms.
 *
 * <p>Run: {@code java -jar benchmarks/target/benchmarks.jar 'SessionLoad.*' -f 1 -wi 3 -i 5 -w 2s -r 2s}
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
public class SessionLoadBenchmark {
  @Param({"baselineReadAllLines", "sessionStore"})
  public String impl;

  private Path root;
  private Path file;
  private FileBlobStore blobs;

  @Setup
  public void setUp() throws IOException {
    root = BenchFiles.tempDir("bench-session-load");
    SessionBench.write(root, 10_000, false);
    blobs = SessionBench.blobs(root);
    try (SessionStore store = SessionBench.store(root, blobs)) {
      file = store.file(SessionBench.KEY);
      if (store.open(SessionBench.KEY).size() != 10_000) {
        throw new IllegalStateException("the session did not load 10,000 turns");
      }
    }
  }

  @TearDown
  public void tearDown() throws IOException {
    BenchFiles.delete(root);
  }

  @Benchmark
  public Object load() throws IOException {
    if (impl.equals("baselineReadAllLines")) {
      return Files.readAllLines(file, StandardCharsets.UTF_8);
    }
    try (SessionStore store = SessionBench.store(root, blobs)) {
      return store.open(SessionBench.KEY).turns();
    }
  }
}
