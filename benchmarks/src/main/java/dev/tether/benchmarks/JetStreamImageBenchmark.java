package dev.tether.benchmarks;

import dev.tether.api.Frame;
import dev.tether.api.Image;
import dev.tether.api.MediaType;
import dev.tether.api.Payload;
import dev.tether.api.SessionKey;
import dev.tether.images.Images;
import dev.tether.store.FrameQuery;
import dev.tether.store.MemoryTetherStore;
import dev.tether.store.jetstream.JetStreamTetherStore;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
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
 * One {@code user.message} with 4 x 5 MiB PNG images end to end: appended on host A (the JetStream
 * store puts the bytes in the Object Store and stores a frame of blob refs), then read on host B
 * (a second connection) with the images inlined again. Fresh image bytes every operation, so the
 * Object Store never deduplicates. Baseline: the memory store's append + query of the same frame
 * (nothing copied), and plain jnats ({@code objectstore-r1}): the same 4 x 5 MiB put into an Object
 * Store bucket on one connection and read back on another, the floor for any store that keeps
 * image bytes in JetStream (the store adds the base64 decode and encode the wire forces, the blob
 * key's SHA-256, one small frame published and read, and the lookups).
 *
 * <pre>
 * java -jar benchmarks/target/benchmarks.jar JetStreamImageBenchmark -f 1 -wi 2 -i 5
 * </pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 2)
@Measurement(iterations = 5)
@Fork(1)
public class JetStreamImageBenchmark {
  @Param({"memory", "jetstream-r1", "objectstore-r1"})
  public String impl;

  private static final SessionKey SESSION = SessionKey.host("img");
  private Path dir;
  private BenchNats nats;
  private MemoryTetherStore memory;
  private JetStreamTetherStore hostA;
  private JetStreamTetherStore hostB;
  private Frame frame;
  private List<byte[]> raw;
  private long seed;
  private io.nats.client.Connection ncA;
  private io.nats.client.Connection ncB;
  private io.nats.client.ObjectStore osA;
  private io.nats.client.ObjectStore osB;

  @Setup(Level.Trial)
  public void setUp() throws Exception {
    if (impl.equals("memory")) {
      memory = MemoryTetherStore.create();
      return;
    }
    dir = BenchFiles.tempDir("jetstream-img");
    nats = BenchNats.start(dir, 1);
    if (impl.equals("objectstore-r1")) {
      io.nats.client.Options o = io.nats.client.Options.builder().servers(nats.urls().toArray(String[]::new)).build();
      ncA = io.nats.client.Nats.connect(o);
      ncB = io.nats.client.Nats.connect(o);
      ncA.objectStoreManagement().create(io.nats.client.api.ObjectStoreConfiguration.builder("BENCH_OS")
          .storageType(io.nats.client.api.StorageType.File).build());
      osA = ncA.objectStore("BENCH_OS");
      osB = ncB.objectStore("BENCH_OS");
      return;
    }
    hostA = JetStreamTetherStore.builder().servers(nats.urls()).connect();
    hostB = JetStreamTetherStore.builder().servers(nats.urls()).connect();
  }

  @Setup(Level.Invocation)
  public void newImages() {
    List<Image> images = new ArrayList<>();
    raw = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      byte[] png = BenchFiles.png(5 << 20, ++seed);
      raw.add(png);
      images.add(Images.fromBytes(png, MediaType.PNG));
    }
    frame = Frame.of(SESSION, "m-" + seed, Payload.UserMessage.of("four pictures", images));
  }

  @TearDown(Level.Trial)
  public void tearDown() throws Exception {
    if (memory != null) {
      memory.close();
      return;
    }
    if (ncA != null) {
      ncA.close();
      ncB.close();
    } else {
      hostA.close();
      hostB.close();
    }
    nats.close();
    BenchFiles.delete(dir);
  }

  @Benchmark
  public int appendThenReadInline() throws Exception {
    if (memory != null) {
      long seq = memory.append("vm", frame);
      return memory.query("vm", FrameQuery.all().withAfterSeq(seq - 1)).frames().get(0).payload().size();
    }
    if (osA != null) {
      int n = 0;
      for (int i = 0; i < raw.size(); i++) {
        osA.put("img-" + seed + "-" + i, raw.get(i));
      }
      for (int i = 0; i < raw.size(); i++) {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream(raw.get(i).length);
        osB.get("img-" + seed + "-" + i, out);
        n += out.size();
      }
      return n;
    }
    long seq = hostA.append("vm", frame);
    Frame stored = hostB.query("vm", FrameQuery.all().withAfterSeq(seq - 1)).frames().get(0);
    return hostB.inlineImages("vm", stored).payload().size();
  }
}
