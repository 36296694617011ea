package dev.tether.store.jetstream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tether.api.Frame;
import dev.tether.api.RawJson;
import dev.tether.api.SessionKey;
import dev.tether.store.FrameQuery;
import dev.tether.store.jetstream.internal.Names;
import dev.tether.store.jetstream.testing.NatsServer;
import io.nats.client.Connection;
import io.nats.client.Nats;
import io.nats.client.Options;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Reads are up whenever writes are (issue 32): two hosts with the store's default timeouts on a
 * 3-node cluster, both reading the instance before the failure; the instance's stream leader is
 * killed (SIGKILL), each node in turn (the leader is moved onto it first), with host A connected
 * to it; a third host C is connected but makes its view only after the kill (its first read).
 * Once the first append after the kill is acknowledged, every read on every host answers (no
 * {@link StoreUnavailableException}) with every acknowledged frame, within about a second.
 */
@Tag("cluster")
class ClusterReadsUpTest {
  static final SessionKey S = SessionKey.host("reads-up");
  /** Extra read latency allowed after the election: the "about a second", plus load. */
  static final long MAX_READ_MILLIS = 3000;

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

  /** A host with the defaults {@code tether serve --nats} uses, connected first to {@code url}. */
  JetStreamTetherStore host(String url) throws Exception {
    return cluster.connect(b -> b.servers(url));
  }

  static Frame frame(int i) {
    return Frame.builder("user.message").version(1).session(S).payload(RawJson.of("{\"text\":\"r-" + i + "\"}")).build();
  }

  /** Moves the stream's leader onto {@code node} (step-downs until it lands there). */
  void leadOn(String instance, NatsServer node) throws Exception {
    String stream = new Names("tether").stream(instance);
    Options o = Options.builder().servers(nodes.stream().map(NatsServer::url).toArray(String[]::new)).build();
    try (Connection nc = Nats.connect(o)) {
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
      while (System.nanoTime() < deadline) {
        String leader = null;
        try {
          leader = nc.jetStreamManagement().getStreamInfo(stream).getClusterInfo().getLeader();
        } catch (Exception notYet) {
          // an election is under way
        }
        if (node.name().equals(leader)) {
          return;
        }
        if (leader != null) {
          nc.request("$JS.API.STREAM.LEADER.STEPDOWN." + stream, null, Duration.ofSeconds(2));
        }
        NatsServer.sleep(300);
      }
      throw new AssertionError("the leader of " + stream + " did not move to " + node.name());
    }
  }

  /** A full read that must answer at once (no retry) with exactly {@code acked} frames' seqs. */
  static long readMustAnswer(JetStreamTetherStore host, String vm, List<Long> acked, String what) {
    long t0 = System.nanoTime();
    List<Long> seqs;
    try {
      seqs = host.query(vm, FrameQuery.builder().afterSeq(0).limit(500).build()).frames().stream().map(Frame::seq).toList();
    } catch (StoreUnavailableException e) {
      throw new AssertionError(what + ": the read failed although writes are acknowledged: " + e.getMessage(), e);
    }
    long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
    assertEquals(acked, seqs, what + ": every acknowledged frame");
    assertTrue(millis <= MAX_READ_MILLIS, what + ": the read took " + millis + " ms");
    return millis;
  }

  @Test
  void streamLeaderKilled_eachNodeInTurn_readsAnswerAfterTheFirstAcknowledgedWrite() throws Exception {
    long slowest = 0;
    for (int round = 0; round < nodes.size(); round++) {
      NatsServer victim = nodes.get(round);
      NatsServer other = nodes.get((round + 1) % nodes.size());
      JetStreamTetherStore a = host(victim.url());
      JetStreamTetherStore b = host(other.url());
      JetStreamTetherStore c = host(nodes.get((round + 2) % nodes.size()).url());
      String vm = "reads-up-" + round;
      List<Long> acked = new ArrayList<>();
      for (int i = 0; i < 5; i++) {
        acked.add(a.append(vm, frame(i)));
      }
      readMustAnswer(a, vm, acked, "before, A");
      readMustAnswer(b, vm, acked, "before, B");
      leadOn(vm, victim);
      victim.kill();
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
      while (true) { // the election: appends may fail until a new leader answers
        try {
          acked.add(a.append(vm, frame(5)));
          break;
        } catch (StoreUnavailableException e) {
          assertTrue(System.nanoTime() < deadline, "no append acknowledged within 60 s of the kill");
        }
      }
      slowest = Math.max(slowest, readMustAnswer(c, vm, acked, "round " + round + ", C's first read (a new view)"));
      for (int i = 6; i < 16; i++) {
        String where = "round " + round + " (killed " + victim.name() + "), after frame " + i;
        slowest = Math.max(slowest, readMustAnswer(a, vm, acked, where + ", A"));
        slowest = Math.max(slowest, readMustAnswer(b, vm, acked, where + ", B"));
        slowest = Math.max(slowest, readMustAnswer(c, vm, acked, where + ", C"));
        acked.add((i % 3 == 0 ? a : i % 3 == 1 ? b : c).append(vm, frame(i)));
      }
      slowest = Math.max(slowest, readMustAnswer(a, vm, acked, "round " + round + ", last, A"));
      slowest = Math.max(slowest, readMustAnswer(b, vm, acked, "round " + round + ", last, B"));
      slowest = Math.max(slowest, readMustAnswer(c, vm, acked, "round " + round + ", last, C"));
      a.close();
      b.close();
      c.close();
      cluster.forgetStores();
      victim.start();
    }
    System.out.println("reads-up: the slowest read after the first acknowledged write took " + slowest + " ms");
  }
}
