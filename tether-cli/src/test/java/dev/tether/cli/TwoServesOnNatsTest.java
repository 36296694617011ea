package dev.tether.cli;

import dev.tether.client.http.HttpTetherClient;
import dev.tether.server.testing.Fixtures;
import dev.tether.client.HostAddress;
import dev.tether.client.SendReceipt;
import dev.tether.client.FramePage;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tether.api.Frame;
import dev.tether.store.jetstream.testing.NatsServer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two {@code tether serve --nats} processes (their own JVMs) on one 3-node nats-server cluster
 * (R3 streams): what one accepts, the other serves, with the same seq, and long-polls on one wake
 * on a POST to the other. Skipped when nats-server is not installed (failed in CI).
 */
class TwoServesOnNatsTest {
  static final java.util.concurrent.atomic.AtomicInteger STARTS = new java.util.concurrent.atomic.AtomicInteger();
  @TempDir static Path dir;
  static List<NatsServer> cluster;
  static ChildJvm serveA;
  static ChildJvm serveB;
  static HttpTetherClient a;
  static HttpTetherClient b;

  @BeforeAll
  static void start() throws Exception {
    NatsServer.binary();
    cluster = NatsServer.cluster(dir.resolve("nats"), 3);
    String urls = String.join(",", cluster.stream().map(NatsServer::url).toList());
    serveA = startServe("a", urls);
    serveB = startServe("b", urls);
    a = Clients.of(new HostAddress.Unix(dir.resolve("a.sock")), null);
    b = Clients.of(new HostAddress.Unix(dir.resolve("b.sock")), null);
  }

  static ChildJvm startServe(String name, String urls) throws Exception {
    // The cluster elects its JetStream meta leader a few seconds after start; serve fails fast
    // until then, so start it again until it listens.
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
    while (true) {
      // A log of its own per start: an earlier run's "listening on" must not count.
      ChildJvm serve = ChildJvm.start(dir, "serve-" + name + "-" + STARTS.incrementAndGet(), Map.of(), "serve", "--auto-create", "--socket",
          dir.resolve(name + ".sock").toString(), "--nats", urls, "--nats-replicas", "3");
      try {
        serve.awaitStderr("listening on", 60_000);
        return serve;
      } catch (IllegalStateException exited) {
        serve.close();
        if (System.nanoTime() > deadline) {
          throw exited;
        }
        Thread.sleep(500);
      }
    }
  }

  @AfterAll
  static void stop() {
    for (AutoCloseable c : new AutoCloseable[] {a, b, serveA, serveB}) {
      try {
        if (c != null) {
          c.close();
        }
      } catch (Exception ignored) {
        // best effort
      }
    }
    if (cluster != null) {
      cluster.forEach(NatsServer::close);
    }
  }

  static String instance(String name) {
    return name + "-" + Long.toString(System.nanoTime(), 36);
  }

  @Test
  void postOnOne_isReturnedByAPollOnTheOther_withTheSameSeq() throws Exception {
    String vm = instance("same-seq");
    for (int i = 0; i < 5; i++) {
      SendReceipt accepted = (i % 2 == 0 ? a : b)
          .send(vm, Fixtures.userMessage("s1", "hello " + i)).get(60, TimeUnit.SECONDS);
      HttpTetherClient other = i % 2 == 0 ? b : a;
      FramePage page = Clients.poll(other,vm, "host", "s1", accepted.ingressSeq() - 1, 0, 0, null, null)
          .get(60, TimeUnit.SECONDS);
      assertEquals(1, page.frames().size(), "poll without wait, right after the POST elsewhere");
      Frame f = page.frames().get(0);
      assertEquals(accepted.ingressSeq(), f.seq());
      assertEquals(accepted.msgId(), f.msgId().orElseThrow());
    }
  }

  @Test
  void longPollOnOne_returnsWithinASecondOfAPostOnTheOther() throws Exception {
    String vm = instance("wake");
    long cursor = a.send(vm, Fixtures.userMessage("w", "opens the instance")).get(60, TimeUnit.SECONDS).ingressSeq();
    for (int round = 0; round < 3; round++) {
      int held = Clients.waitsHeld(b.address(), null);
      CompletableFuture<FramePage> poll = Clients.poll(b,vm, "host", "w", cursor, 0, 20_000, null, null);
      for (int i = 0; i < 200 && Clients.waitsHeld(b.address(), null) <= held; i++) {
        Thread.sleep(25);
      }
      long t0 = System.nanoTime();
      SendReceipt accepted = a.send(vm, Fixtures.userMessage("w", "wake " + round)).get(60, TimeUnit.SECONDS);
      FramePage page = poll.get(60, TimeUnit.SECONDS);
      long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
      assertEquals(accepted.ingressSeq(), page.frames().get(0).seq());
      assertTrue(ms < 1000, "the long-poll on B returned " + ms + " ms after the POST on A");
      cursor = accepted.ingressSeq();
    }
  }

  @Test
  void twoHundredLongPollsOnOne_eachAnsweredWithItsOwnFrameFromTheOther() throws Exception {
    String vm = instance("fan");
    long start = a.send(vm, Fixtures.userMessage("opener", "opens the instance")).get(60, TimeUnit.SECONDS).ingressSeq();
    int before = Clients.waitsHeld(b.address(), null);
    List<CompletableFuture<FramePage>> polls = new ArrayList<>();
    for (int i = 0; i < 200; i++) {
      polls.add(Clients.poll(b,vm, "host", "s" + i, start, 0, 30_000, null, null));
    }
    for (int i = 0; i < 600 && Clients.waitsHeld(b.address(), null) < before + 200; i++) {
      Thread.sleep(25);
    }
    assertTrue(Clients.waitsHeld(b.address(), null) >= before + 200, "B holds the 200 long-polls");
    List<CompletableFuture<SendReceipt>> posts = new ArrayList<>();
    for (int i = 0; i < 200; i++) {
      posts.add(a.send(vm, Fixtures.userMessage("s" + i, "for s" + i)));
    }
    for (int i = 0; i < 200; i++) {
      SendReceipt accepted = posts.get(i).get(60, TimeUnit.SECONDS);
      FramePage page = polls.get(i).get(60, TimeUnit.SECONDS);
      assertEquals(1, page.frames().size(), "poll " + i);
      Frame f = page.frames().get(0);
      assertEquals("s" + i, f.session().orElseThrow().id());
      assertEquals(accepted.msgId(), f.msgId().orElseThrow());
      assertEquals(accepted.ingressSeq(), f.seq());
    }
  }

  @Test
  void everyServeRestarted_nextSeqIsLargerThanAllEarlier() throws Exception {
    String vm = instance("restart");
    long last = 0;
    for (int i = 0; i < 5; i++) {
      last = Math.max(last, (i % 2 == 0 ? a : b).send(vm, Fixtures.userMessage("r", "before " + i)).get(60, TimeUnit.SECONDS).ingressSeq());
    }
    a.close();
    b.close();
    serveA.terminate();
    serveB.terminate();
    String urls = String.join(",", cluster.stream().map(NatsServer::url).toList());
    serveA = startServe("a", urls);
    serveB = startServe("b", urls);
    a = Clients.of(new HostAddress.Unix(dir.resolve("a.sock")), null);
    b = Clients.of(new HostAddress.Unix(dir.resolve("b.sock")), null);
    long next = b.send(vm, Fixtures.userMessage("r", "after")).get(60, TimeUnit.SECONDS).ingressSeq();
    assertTrue(next > last, next + " > " + last);
    assertEquals(last + 1, Clients.poll(a,vm, "host", "r", 0, 0, 0, null, null).get(60, TimeUnit.SECONDS).frames().size(),
        "every frame is still there after the restart");
  }
}
