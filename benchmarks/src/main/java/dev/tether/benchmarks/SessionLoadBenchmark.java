package dev.tether.benchmarks;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadFeature;
import dev.tether.api.json.TetherJson;
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
 * with {@code Files.readAllLines}, which parses nothing. Target: at most 100 ms, and (issue 24) at
 * most 2x {@code readAllLines}.
 *
 * <p>Two more baselines split what a load costs: {@code baselineJsonTokens} reads the file's
 * bytes and runs a parser from the codec's strict factory over each line, taking every string's
 * text (a streaming parse of the file that builds nothing else); {@code baselineJsonTokensLenient}
 * does the same without duplicate-key detection, which the strict factory does with a set per
 * object of three or more fields.
 *
 * <p>Run: {@code java -jar benchmarks/target/benchmarks.jar 'SessionLoad.*' -f 1 -wi 3 -i 5 -w 2s -r 2s}
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
public class SessionLoadBenchmark {
  @Param({"baselineReadAllLines", "baselineJsonTokens", "baselineJsonTokensLenient", "sessionStore"})
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

  private static final JsonFactory LENIENT = TetherJson.newFactory().rebuild()
      .disable(StreamReadFeature.STRICT_DUPLICATE_DETECTION).build();

  private long tokens(JsonFactory factory) throws IOException {
    byte[] bytes = Files.readAllBytes(file);
    long count = 0;
    for (int from = 0; from < bytes.length; ) {
      int nl = from;
      while (nl < bytes.length && bytes[nl] != '\n') {
        nl++;
      }
      try (JsonParser p = factory.createParser(bytes, from, nl - from)) {
        for (JsonToken t; (t = p.nextToken()) != null; ) {
          count += t == JsonToken.VALUE_STRING || t == JsonToken.FIELD_NAME ? p.getText().length() : 1;
        }
      }
      from = nl + 1;
    }
    return count;
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
    if (impl.equals("baselineJsonTokens")) {
      return tokens(TetherJson.factory());
    }
    if (impl.equals("baselineJsonTokensLenient")) {
      return tokens(LENIENT);
    }
    try (SessionStore store = SessionBench.store(root, blobs)) {
      return store.open(SessionBench.KEY).turns();
    }
  }
}
