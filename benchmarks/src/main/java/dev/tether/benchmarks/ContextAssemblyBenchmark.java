package dev.tether.benchmarks;

import dev.tether.api.Conversation;
import dev.tether.sessions.FileBlobStore;
import dev.tether.sessions.SessionLog;
import dev.tether.sessions.SessionStore;
import java.io.IOException;
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
 * {@code assembleContext("...", 40, 100_000)} on sessions of 1,000 and 10,000 turns (every fifth
 * with a real 1 KiB image blob, so the 40 newest turns read 8 blobs). {@code loaded} assembles
 * from the open session, whose cost should not depend on the session length; the baseline
 * {@code reloadEachTime} reloads the file first, as an agent without an in-memory session would,
 * and grows with it.
 *
 * <p>Run: {@code java -jar benchmarks/target/benchmarks.jar 'ContextAssembly.*' -f 1 -wi 3 -i 5 -w 2s -r 2s}
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class ContextAssemblyBenchmark {
  private static final String SYSTEM = "You are a helpful agent in a VM. Answer briefly.";

  @Param({"1000", "10000"})
  public int sessionTurns;

  @Param({"reloadEachTime", "loaded"})
  public String impl;

  private Path root;
  private FileBlobStore blobs;
  private SessionStore store;
  private SessionLog log;

  @Setup
  public void setUp() throws IOException {
    root = BenchFiles.tempDir("bench-context");
    SessionBench.write(root, sessionTurns, true);
    blobs = SessionBench.blobs(root);
    store = SessionBench.store(root, blobs);
    log = store.open(SessionBench.KEY);
    Conversation c = log.assembleContext(SYSTEM, 40, 100_000);
    if (c.turns().size() < 30 || c.images().size() != 8) {
      throw new IllegalStateException("unexpected context: " + c.turns().size() + " turns, " + c.images().size() + " images");
    }
  }

  @TearDown
  public void tearDown() throws IOException {
    store.close();
    BenchFiles.delete(root);
  }

  @Benchmark
  public Conversation assemble() throws IOException {
    if (impl.equals("loaded")) {
      return log.assembleContext(SYSTEM, 40, 100_000);
    }
    try (SessionStore fresh = SessionBench.store(root, blobs)) {
      return fresh.open(SessionBench.KEY).assembleContext(SYSTEM, 40, 100_000);
    }
  }
}
