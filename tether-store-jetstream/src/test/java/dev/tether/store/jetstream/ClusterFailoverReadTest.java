package dev.tether.store.jetstream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tether.api.Frame;
import dev.tether.api.RawJson;
import dev.tether.api.SessionKey;
import dev.tether.store.FrameQuery;
import dev.tether.store.QueryResult;
import dev.tether.store.jetstream.testing.NatsServer;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * No stale reads after failover (issue 21): two hosts on separate connections to a 3-node
 * cluster, 7 frames appended on A, SIGKILL of the node A is connected to, 1 more on A, 10
 * alternating on A and B; a full read on A and on B returns all 18 in order. Each of the three
 * nodes is A's node (and killed) once. Both hosts read before the kill, so their views exist then
 * (their consumers possibly on the killed node). A read may fail with {@link StoreUnavailableException}
 * while the view catches up (HTTP 503, the client retries); it must never answer with fewer.
 */
@Tag("cluster")
class ClusterFailoverReadTest {
  static final SessionKey S = SessionKey.host("failover");
  static final Pattern TEXT = Pattern.compile("\\{\"text\":\"f-(\\d+)\"\\}");

  @TempDir Path dir;
  ThreeNodes cluster;
  List<NatsServer> nodes;
  int unavailableReads;

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

  /** A host connected first to {@code urls.get(0)}; it learns the other nodes from the cluster. */
  JetStreamTetherStore host(String url) throws Exception {
    return cluster.connect(b -> b.servers(url).appendTimeout(Duration.ofSeconds(30))
        .readBarrierTimeout(Duration.ofSeconds(2)).catchUpTimeout(Duration.ofSeconds(10)));
  }

  static Frame frame(int i) {
    return Frame.builder("user.message").version(1).session(S).payload(RawJson.of("{\"text\":\"f-" + i + "\"}")).build();
  }

  static int number(Frame f) {
    Matcher m = TEXT.matcher(new String(f.payload().toByteArray(), StandardCharsets.UTF_8));
    assertTrue(m.matches(), f.toString());
    return Integer.parseInt(m.group(1));
  }

  /** A full read; retried while the store says it is unavailable (what an HTTP client does on 503). */
  List<Frame> readAll(JetStreamTetherStore s, String vm) {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (true) {
      try {
        QueryResult r = s.query(vm, FrameQuery.builder().afterSeq(0).limit(200).build());
        return r.frames();
      } catch (StoreUnavailableException e) {
        unavailableReads++;
        if (System.nanoTime() > deadline) {
          throw e;
        }
        NatsServer.sleep(200);
      }
    }
  }

  /** One append; the store itself retries through the failover until its 30 s append timeout. */
  static long append(JetStreamTetherStore s, String vm, int i) {
    return s.append(vm, frame(i));
  }

  NatsServer nodeAt(String connectedUrl) {
    int port = URI.create(connectedUrl).getPort();
    return nodes.stream().filter(n -> URI.create(n.url()).getPort() == port).findFirst().orElseThrow();
  }

  @Test
  void nodeOfHostAKilled_fullReadsOnAAndBReturnAll18_forEachNode() throws Exception {
    for (int round = 0; round < nodes.size(); round++) {
      NatsServer home = nodes.get(round);
      NatsServer other = nodes.get((round + 1) % nodes.size());
      JetStreamTetherStore a = host(home.url());
      JetStreamTetherStore b = host(other.url());
      String vm = "failover-" + round;
      for (int i = 0; i < 7; i++) {
        append(a, vm, i);
      }
      // Both hosts serve reads before the failure, so each has a view whose consumer may sit on
      // the node about to die (appends alone make no view): the stale case the issue saw.
      assertEquals(7, readAll(a, vm).size());
      assertEquals(7, readAll(b, vm).size());
      NatsServer victim = nodeAt(a.connection().getConnectedUrl());
      assertEquals(home, victim, "A is connected to node " + home.name());
      victim.kill();
      append(a, vm, 7);
      for (int i = 8; i < 18; i++) {
        append(i % 2 == 0 ? a : b, vm, i);
      }
      for (JetStreamTetherStore host : List.of(a, b)) {
        List<Frame> read = readAll(host, vm);
        assertEquals(18, read.size(), "round " + round + " (killed " + victim.name() + "), host "
            + (host == a ? "A" : "B") + " read " + read.stream().map(ClusterFailoverReadTest::number).toList());
        long previous = 0;
        for (int i = 0; i < 18; i++) {
          assertEquals(i, number(read.get(i)), "frame " + i + " in append order");
          assertTrue(read.get(i).seq() > previous);
          previous = read.get(i).seq();
        }
      }
      a.close();
      b.close();
      cluster.forgetStores();
      victim.start();
    }
    System.out.println("failover: reads answered unavailable (then retried) " + unavailableReads + " times");
  }
}
