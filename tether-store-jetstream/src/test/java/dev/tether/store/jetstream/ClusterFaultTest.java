package dev.tether.store.jetstream;

import dev.tether.store.jetstream.testing.NatsServer;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tether.api.Frame;
import dev.tether.api.RawJson;
import dev.tether.api.SessionKey;
import dev.tether.store.FrameQuery;
import dev.tether.store.QueryResult;
import io.nats.client.Connection;
import io.nats.client.Nats;
import io.nats.client.Options;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Fault tests on a real 3-node nats-server cluster (routes on loopback), R3 streams: SIGKILL of the
 * stream leader during appends, one node down for good, every node restarted. Tagged
 * {@code cluster}: {@code .ci/run} runs them ({@code -Dgroups=cluster}).
 */
@Tag("cluster")
class ClusterFaultTest {
  static final SessionKey S = SessionKey.host("fault");
  static final Pattern TEXT = Pattern.compile("\\{\"text\":\"f-(\\d+)\"\\}");

  @TempDir Path dir;
  ThreeNodes cluster;
  List<NatsServer> nodes;

  @BeforeEach
  void startCluster() {
    cluster = new ThreeNodes(dir);
    nodes = cluster.nodes;
  }

  @AfterEach
  void stop() {
    if (cluster != null) {
      cluster.close();
    }
  }

  JetStreamTetherStore store() throws Exception {
    List<String> urls = nodes.stream().map(NatsServer::url).toList();
    return cluster.connect(b -> b.servers(urls).appendTimeout(Duration.ofSeconds(30))
        .readBarrierTimeout(Duration.ofSeconds(2)));
  }

  static Frame frame(int i) {
    return Frame.builder("assistant.message").version(1).session(S).payload(RawJson.of("{\"text\":\"f-" + i + "\"}")).build();
  }

  /** The stream leader's server name, asked on a separate plain connection. */
  String leader(String instance) throws Exception {
    Options o = Options.builder().servers(nodes.stream().filter(NatsServer::running).map(NatsServer::url).toArray(String[]::new)).build();
    try (Connection nc = Nats.connect(o)) {
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
      while (true) {
        try {
          String l = nc.jetStreamManagement().getStreamInfo(new dev.tether.store.jetstream.internal.Names("tether").stream(instance))
              .getClusterInfo().getLeader();
          if (l != null) {
            return l;
          }
        } catch (Exception notYet) {
          if (System.nanoTime() > deadline) {
            throw notYet;
          }
        }
        NatsServer.sleep(200);
      }
    }
  }

  NatsServer node(String name) {
    return nodes.stream().filter(n -> n.name().equals(name)).findFirst().orElseThrow();
  }

  /** Every frame of the instance, read page by page. */
  static List<Frame> readAll(JetStreamTetherStore s, String instance) {
    List<Frame> all = new ArrayList<>();
    long cursor = 0;
    while (true) {
      QueryResult r = s.query(instance, FrameQuery.builder().afterSeq(cursor).limit(200).build());
      all.addAll(r.frames());
      if (r.frames().isEmpty()) {
        return all;
      }
      cursor = r.nextSeq();
    }
  }

  static int number(Frame f) {
    Matcher m = TEXT.matcher(new String(f.payload().toByteArray(), StandardCharsets.UTF_8));
    assertTrue(m.matches(), f.toString());
    return Integer.parseInt(m.group(1));
  }

  @Test
  void leaderKilledDuring300Appends_everyAcknowledgedFrameIsReadExactlyOnceElsewhere() throws Exception {
    JetStreamTetherStore writer = store();
    try (JetStreamTetherStore defaults = JetStreamTetherStore.builder().servers(nodes.get(0).url()).connect()) {
      assertEquals(3, defaults.replicas(), "replicas follow the cluster size by default");
    }
    String vm = "leader-kill";
    Map<Integer, Long> acked = new ConcurrentHashMap<>();
    AtomicInteger failed = new AtomicInteger();
    acked.put(0, writer.append(vm, frame(0)));
    NatsServer victim = node(leader(vm));
    CompletableFuture<Void> appends = CompletableFuture.runAsync(() -> {
      for (int i = 1; i < 300; i++) {
        try {
          acked.put(i, writer.append(vm, frame(i)));
        } catch (StoreUnavailableException e) {
          failed.incrementAndGet(); // not acknowledged: may or may not be stored, never twice
        }
      }
    });
    while (acked.size() < 50 && !appends.isDone()) {
      Thread.sleep(5);
    }
    victim.kill();
    while (acked.size() < 150 && !appends.isDone()) {
      Thread.sleep(5);
    }
    victim.start();
    appends.get(10, TimeUnit.MINUTES);

    JetStreamTetherStore reader = store(); // another connection, its own view built from the stream
    List<Frame> read = readAll(reader, vm);
    Map<Integer, Long> seen = new HashMap<>();
    long previous = 0;
    for (Frame f : read) {
      assertTrue(f.seq() > previous, "seqs strictly increase: " + previous + " then " + f.seq());
      previous = f.seq();
      Long before = seen.put(number(f), f.seq());
      assertEquals(null, before, "frame f-" + number(f) + " stored twice");
    }
    for (Map.Entry<Integer, Long> e : acked.entrySet()) {
      assertEquals(e.getValue(), seen.get(e.getKey()), "acknowledged frame f-" + e.getKey() + " at its seq");
    }
    assertTrue(acked.size() + failed.get() == 300);
    assertTrue(acked.size() >= 250, "most appends outlive a leader change within the timeout: " + acked.size());
  }

  @Test
  void oneNodeDownForGood_appendsReadsAndWaitsStillWork() throws Exception {
    JetStreamTetherStore a = store();
    JetStreamTetherStore b = store();
    String vm = "node-down";
    long first = a.append(vm, frame(1));
    node(leader(vm)).kill(); // the worst node to lose
    long second = a.append(vm, frame(2));
    assertTrue(second > first);
    assertEquals(List.of(first, second), readAll(b, vm).stream().map(Frame::seq).toList());
    CompletableFuture<QueryResult> wait = b.waitForFrames(vm, FrameQuery.session(S, second), Duration.ofSeconds(60));
    long third = a.append(vm, frame(3));
    assertEquals(third, wait.get(60, TimeUnit.SECONDS).frames().get(0).seq());
  }

  @Test
  void everyNodeAndStoreRestarted_nextSeqIsLargerThanAllEarlier() throws Exception {
    JetStreamTetherStore a = store();
    String vm = "restart";
    long last = 0;
    for (int i = 0; i < 20; i++) {
      last = a.append(vm, frame(i));
    }
    a.close();
    cluster.forgetStores();
    for (NatsServer n : nodes) {
      n.kill();
    }
    for (NatsServer n : nodes) {
      n.start();
    }
    JetStreamTetherStore again = store();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    long next;
    while (true) {
      try {
        next = again.append(vm, frame(100));
        break;
      } catch (StoreUnavailableException e) {
        if (System.nanoTime() > deadline) {
          throw e;
        }
      }
    }
    assertTrue(next > last, next + " > " + last);
    assertNotNull(readAll(again, vm));
  }
}
