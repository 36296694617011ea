package dev.tether.benchmarks;

import dev.tether.api.Frame;
import dev.tether.api.FrameCodec;
import dev.tether.api.SessionKey;
import dev.tether.store.sqlite.DurableTetherStore;
import dev.tether.store.FrameQuery;
import dev.tether.store.MemoryTetherStore;
import dev.tether.store.QueryResult;
import dev.tether.store.TetherStore;
import dev.tether.store.jetstream.JetStreamTetherStore;
import io.nats.client.Connection;
import io.nats.client.JetStream;
import io.nats.client.Message;
import io.nats.client.Nats;
import io.nats.client.Options;
import io.nats.client.PushSubscribeOptions;
import io.nats.client.api.StorageType;
import io.nats.client.api.StreamConfiguration;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.SynchronousQueue;
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
 * Append and wake latency of the JetStream store (one node R1, three nodes R3) beside the memory
 * and SQLite stores and beside plain jnats doing the same work with the same bytes, in one run.
 *
 * <p>{@code append}: one synchronous append of a frame with a 200-byte payload; for JetStream it
 * returns when the stream acknowledged (R3: a quorum). {@code jnats-*} publishes the frame's
 * encoded bytes with {@code JetStream.publish} to a stream of the same replicas: the floor for
 * any store on JetStream.
 *
 * <p>{@code wake}: a wait for the next frame of a session is registered on a second store (for
 * JetStream: a second connection, as on another host), then the frame is appended on the first and
 * the benchmark thread blocks until the wait completes. So wake = append + delivery to the other
 * host's waiter. {@code jnats-*}: publish, then block until an ordered push subscription on a
 * second connection hands the message over.
 *
 * <p>Needs the {@code nats-server} binary (Debian package). Run:
 * <pre>
 * java -jar benchmarks/target/benchmarks.jar JetStreamStoreBenchmark -f 1 -wi 2 -i 3 -w 2s -r 2s
 * </pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 2)
@Fork(1)
public class JetStreamStoreBenchmark {
  @Param({"memory", "sqlite", "jetstream-r1", "jnats-r1", "jnats-async-ids-r1", "jetstream-r3", "jnats-r3", "jnats-async-ids-r3"})
  public String impl;

  private static final SessionKey SESSION = SessionKey.host("bench");
  private Path dir;
  private BenchNats nats;
  private TetherStore writer;
  private TetherStore reader;
  private Connection pubConnection;
  private Connection subConnection;
  private JetStream js;
  private final SynchronousQueue<Message> delivered = new SynchronousQueue<>();
  private Frame frame;
  private byte[] frameBytes;
  private long cursor;

  @Setup
  public void setUp(org.openjdk.jmh.infra.BenchmarkParams params) throws Exception {
    dir = BenchFiles.tempDir("jetstream-bench");
    frame = StoreBenchSupport.frame(SESSION, 200);
    frameBytes = FrameCodec.standard().write(frame);
    int replicas = impl.endsWith("r3") ? 3 : 1;
    switch (impl) {
      case "memory" -> {
        writer = MemoryTetherStore.create();
        reader = writer;
      }
      case "sqlite" -> {
        writer = DurableTetherStore.open(dir.resolve("journal.db"));
        reader = writer;
      }
      default -> {
        nats = BenchNats.start(dir, replicas);
        if (impl.startsWith("jetstream")) {
          writer = connectStore(replicas);
          reader = connectStore(replicas);
        } else {
          Options o = Options.builder().servers(nats.urls().toArray(String[]::new)).build();
          pubConnection = connectRetrying(o);
          subConnection = connectRetrying(o);
          StreamConfiguration sc = StreamConfiguration.builder().name("BENCH").subjects("bench.>")
              .storageType(StorageType.File).replicas(replicas).maxMessages(1000).build();
          pubConnection.jetStreamManagement().addStream(sc);
          js = pubConnection.jetStream();
          var dispatcher = subConnection.createDispatcher();
          subConnection.jetStream().subscribe("bench.w", dispatcher, m -> {
            try {
              delivered.put(m);
            } catch (InterruptedException e) {
              Thread.currentThread().interrupt();
            }
          }, false, PushSubscribeOptions.builder().ordered(true).build());
        }
      }
    }
    if (writer != null) {
      cursor = writer.append("vm", frame);
      if (params.getBenchmark().endsWith("wake")) {
        // Opens the reader's view of the instance. Not for append: a host that only appends holds
        // no view, and jnats' append baseline has no consumer either.
        reader.query("vm", FrameQuery.all());
      }
    }
  }

  private JetStreamTetherStore connectStore(int replicas) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (true) {
      try {
        return JetStreamTetherStore.builder().servers(nats.urls()).replicas(replicas).connect();
      } catch (java.io.IOException e) {
        if (System.nanoTime() > deadline) {
          throw e;
        }
        Thread.sleep(250); // the cluster's JetStream meta leader is not elected yet
      }
    }
  }

  private static Connection connectRetrying(Options o) throws Exception {
    Connection c = Nats.connect(o);
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (true) {
      try {
        c.jetStreamManagement().getAccountStatistics();
        return c;
      } catch (Exception e) {
        if (System.nanoTime() > deadline) {
          throw e;
        }
        Thread.sleep(250);
      }
    }
  }

  @TearDown
  public void tearDown() throws Exception {
    if (writer != null) {
      writer.close();
    }
    if (reader != null && reader != writer) {
      reader.close();
    }
    if (pubConnection != null) {
      pubConnection.close();
      subConnection.close();
    }
    if (nats != null) {
      nats.close();
    }
    BenchFiles.delete(dir);
  }

  private long ids;

  @Benchmark
  public long append() throws Exception {
    if (js != null && impl.startsWith("jnats-async-ids")) {
      // What the store's publish carries: a Nats-Msg-Id (dedupe across retries) and the expected stream.
      var o = io.nats.client.PublishOptions.builder().messageId("b-" + (++ids)).expectedStream("BENCH").build();
      return js.publishAsync("bench.a", null, frameBytes, o).get().getSeqno();
    }
    if (js != null) {
      return js.publish("bench.a", frameBytes).getSeqno(); // bench.a has no subscriber
    }
    return writer.append("vm", frame);
  }

  @Benchmark
  public long wake() throws Exception {
    if (js != null) {
      js.publish("bench.w", frameBytes);
      return delivered.take().metaData().streamSequence();
    }
    CompletableFuture<QueryResult> wait = reader.waitForFrames("vm", FrameQuery.session(SESSION, cursor), Duration.ofSeconds(30));
    writer.append("vm", frame);
    QueryResult r = wait.get(30, TimeUnit.SECONDS);
    cursor = r.nextSeq();
    return cursor;
  }
}
