package dev.tether.benchmarks;

import dev.tether.api.Frame;
import dev.tether.api.SessionKey;
import dev.tether.store.sqlite.DurableTetherStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Durable small appends (200-byte payloads) per second from 16 concurrent appenders, with
 * {@code synchronous=FULL}: {@code impl=tether} is {@link DurableTetherStore} (group commit),
 * {@code impl=naive} is {@link NaiveSqliteJournal} (one transaction per append). The file lives in
 * {@code java.io.tmpdir}.
 *
 * <p>{@code appendPipelined} measures the same from one thread with 256 appends in flight.
 *
 * <p>Target: tether at least 20,000 appends/s with FULL.
 *
 * <pre>
 * java -jar benchmarks/target/benchmarks.jar DurableAppendBenchmark -f 1 -wi 2 -i 5 -w 1s -r 2s
 * </pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 5, time = 2)
@Fork(1)
@Threads(16)
public class DurableAppendBenchmark {
  @Param({"tether", "naive"})
  public String impl;

  private Path dir;
  private DurableTetherStore tether;
  private NaiveSqliteJournal naive;
  private Frame frame;

  @Setup
  public void setUp() throws Exception {
    dir = Files.createTempDirectory("tether-durable-bench");
    frame = StoreBenchSupport.frame(SessionKey.host("s0"), 200);
    if (impl.equals("tether")) {
      tether = DurableTetherStore.open(dir.resolve("journal.db"));
    } else {
      naive = new NaiveSqliteJournal(dir.resolve("naive.db"));
    }
  }

  @TearDown
  public void tearDown() throws Exception {
    if (tether != null) {
      tether.close();
    }
    if (naive != null) {
      naive.close();
    }
    deleteTree(dir);
  }

  static void deleteTree(Path dir) throws IOException {
    try (Stream<Path> s = Files.walk(dir)) {
      for (Path p : (Iterable<Path>) s.sorted(Comparator.reverseOrder())::iterator) {
        Files.deleteIfExists(p);
      }
    }
  }

  @Benchmark
  public long append() throws Exception {
    return tether != null ? tether.append("vm", frame) : naive.append("vm", frame);
  }

  /**
   * One thread keeping {@value #WINDOW} appends in flight ({@code appendAsync}), as a gateway
   * ingesting a burst would; the naive journal can only append them one after another.
   */
  @Benchmark
  @Threads(1)
  @OperationsPerInvocation(WINDOW)
  public long appendPipelined() throws Exception {
    if (tether == null) {
      long last = 0;
      for (int i = 0; i < WINDOW; i++) {
        last = naive.append("vm", frame);
      }
      return last;
    }
    @SuppressWarnings("unchecked")
    CompletableFuture<Long>[] inFlight = new CompletableFuture[WINDOW];
    for (int i = 0; i < WINDOW; i++) {
      inFlight[i] = tether.appendAsync("vm", frame);
    }
    return CompletableFuture.allOf(inFlight).thenApply(v -> inFlight[WINDOW - 1].join()).get();
  }

  static final int WINDOW = 256;
}
