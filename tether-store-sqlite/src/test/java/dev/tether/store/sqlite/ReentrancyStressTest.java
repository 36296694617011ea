package dev.tether.store.sqlite;

import dev.tether.store.FrameQuery;
import dev.tether.store.MemoryTetherStore;
import dev.tether.store.Subscription;
import dev.tether.store.SubscriptionEvent;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tether.api.Frame;
import dev.tether.api.RawJson;
import dev.tether.api.SessionKey;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Bounded stress for the places the callback bugs lived: subscription hand-off with consumers
 * that time out and cancel, {@code remove} racing waits and appends whose callbacks call back
 * into the store, and the durable writer with callbacks that append. Each run is bounded by an
 * operation count; a hang fails a generous {@code get} timeout. Iteration counts are printed.
 */
class ReentrancyStressTest {
  static final SessionKey A = SessionKey.host("a");
  static final SessionKey B = SessionKey.host("b");
  static final long SLACK_SECONDS = 120;

  @TempDir Path dir;

  private static Frame frame(SessionKey s, String text) {
    return Frame.builder("assistant.done").session(s).payload(RawJson.of("{\"text\":\"" + text + "\"}")).build();
  }

  @Test
  void subscriptionConsumerThatTimesOutAndCancels_seesEveryFrameOnceInOrder() throws Exception {
    final int frames = 20_000;
    ExecutorService pool = Executors.newFixedThreadPool(3);
    try (MemoryTetherStore s = MemoryTetherStore.create()) {
      Subscription sub = s.subscribe("vm", frames + 1); // large enough that nothing is dropped
      CountDownLatch start = new CountDownLatch(1);
      List<Future<?>> appenders = new ArrayList<>();
      for (int a = 0; a < 2; a++) {
        appenders.add(pool.submit(() -> {
          start.await();
          for (int i = 0; i < frames / 2; i++) {
            s.append("vm", frame(A, "x"));
          }
          return null;
        }));
      }
      AtomicInteger abandoned = new AtomicInteger();
      Future<List<Long>> consumer = pool.submit(() -> {
        start.await();
        Random r = new Random(7);
        List<Long> got = new ArrayList<>();
        while (got.size() < frames) {
          SubscriptionEvent e;
          switch (r.nextInt(4)) {
            case 0 -> {
              CompletableFuture<SubscriptionEvent> f = sub.next();
              if (!f.isDone() && f.cancel(false)) {
                abandoned.incrementAndGet();
                continue;
              }
              e = f.isCancelled() ? null : f.join();
            }
            case 1 -> {
              CompletableFuture<SubscriptionEvent> f = sub.next().orTimeout(50, TimeUnit.MICROSECONDS);
              try {
                e = f.join();
              } catch (RuntimeException timedOut) {
                abandoned.incrementAndGet();
                continue;
              }
            }
            case 2 -> e = sub.next(Duration.ofNanos(r.nextInt(100_000))).orElse(null);
            default -> e = sub.next().get(SLACK_SECONDS, TimeUnit.SECONDS);
          }
          if (e instanceof SubscriptionEvent.Delivered d) {
            got.add(d.frame().seq());
          } else if (e != null) {
            throw new AssertionError("unexpected event " + e);
          }
        }
        return got;
      });
      start.countDown();
      for (Future<?> a : appenders) {
        a.get(SLACK_SECONDS, TimeUnit.SECONDS);
      }
      List<Long> got = consumer.get(SLACK_SECONDS, TimeUnit.SECONDS);
      for (int i = 0; i < frames; i++) {
        assertEquals(i + 1L, got.get(i), "frame " + i);
      }
      assertEquals(0, sub.lostFrames());
      System.out.println("subscription hand-off stress: " + frames + " frames, " + abandoned.get()
          + " next() futures cancelled or timed out by the consumer");
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void removeRacingWaitsAndAppendsWithReentrantCallbacks_neverHangsOrReusesASeq() throws Exception {
    final int rounds = 2_000;
    ExecutorService pool = Executors.newFixedThreadPool(3);
    ConcurrentLinkedQueue<Long> seqs = new ConcurrentLinkedQueue<>();
    AtomicLong callbacks = new AtomicLong();
    try (MemoryTetherStore s = MemoryTetherStore.create()) {
      CountDownLatch start = new CountDownLatch(1);
      Future<?> appender = pool.submit(() -> {
        start.await();
        for (int i = 0; i < rounds; i++) {
          seqs.add(s.append("vm", frame(B, "x")));
        }
        return null;
      });
      Future<?> waiter = pool.submit(() -> {
        start.await();
        List<CompletableFuture<?>> chains = new ArrayList<>();
        for (int i = 0; i < rounds; i++) {
          // Each callback waits, subscribes and appends on the same instance, whatever ended it.
          chains.add(s.waitForFrames("vm", FrameQuery.session(A, Long.MAX_VALUE - 1), Duration.ofSeconds(30))
              .handle((r, e) -> {
                callbacks.incrementAndGet();
                s.waitForFrames("vm", FrameQuery.session(A, Long.MAX_VALUE - 1), Duration.ofMillis(1));
                s.subscribe("vm", 1).close();
                seqs.add(s.append("vm", frame(A, "from callback")));
                return null;
              }));
        }
        return chains;
      });
      Future<Integer> remover = pool.submit(() -> {
        start.await();
        int removed = 0;
        for (int i = 0; i < rounds; i++) {
          if (s.remove("vm")) {
            removed++;
          }
        }
        return removed;
      });
      start.countDown();
      appender.get(SLACK_SECONDS, TimeUnit.SECONDS);
      int removed = remover.get(SLACK_SECONDS, TimeUnit.SECONDS);
      @SuppressWarnings("unchecked")
      List<CompletableFuture<?>> chains = (List<CompletableFuture<?>>) waiter.get(SLACK_SECONDS, TimeUnit.SECONDS);
      s.remove("vm"); // ends the waits no removal reached
      for (CompletableFuture<?> c : chains) {
        c.get(SLACK_SECONDS, TimeUnit.SECONDS);
      }
      Set<Long> unique = new HashSet<>(seqs);
      assertEquals(seqs.size(), unique.size(), "a seq was reused across removals");
      assertTrue(s.lastSeq("vm") >= seqs.stream().mapToLong(Long::longValue).max().orElse(0));
      System.out.println("remove race stress: " + rounds + " appends, " + rounds + " waits, "
          + removed + " removals, " + callbacks.get() + " re-entrant callbacks");
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void durableWriterWithCallbacksThatAppend_pingPongCompletesAndCommitsEveryReply() throws Exception {
    final int rounds = 300;
    Path file = dir.resolve("j.db");
    try (DurableTetherStore s = DurableTetherStore.builder(file).sync(DurableTetherStore.Sync.NORMAL).open()) {
      // Two agents: each waits for the other's frame and replies from the callback.
      CompletableFuture<Integer> a = pingPong(s, A, B, rounds);
      CompletableFuture<Integer> b = pingPong(s, B, A, rounds);
      s.append("vm", frame(A, "serve"));
      assertEquals(rounds, a.get(SLACK_SECONDS, TimeUnit.SECONDS));
      assertEquals(rounds, b.get(SLACK_SECONDS, TimeUnit.SECONDS));
      assertEquals(2L * rounds + 1, s.append("vm", frame(A, "writer still alive")) - 1);
    }
    try (DurableTetherStore s = DurableTetherStore.open(file)) {
      assertEquals(2L * rounds + 2, s.lastSeq("vm"));
      assertEquals(2 * rounds + 2, s.retained("vm").size());
    }
    System.out.println("durable callback stress: " + (2 * rounds) + " appends from waiter callbacks");
  }

  /** Waits for {@code other}'s next frame and appends one on {@code self}, {@code rounds} times. */
  private static CompletableFuture<Integer> pingPong(DurableTetherStore s, SessionKey self, SessionKey other,
      int rounds) {
    CompletableFuture<Integer> done = new CompletableFuture<>();
    step(s, self, other, 0, 0, rounds, done);
    return done;
  }

  private static void step(DurableTetherStore s, SessionKey self, SessionKey other, long cursor, int n,
      int rounds, CompletableFuture<Integer> done) {
    if (n == rounds) {
      done.complete(n);
      return;
    }
    s.waitForFrames("vm", FrameQuery.session(other, cursor), Duration.ofSeconds(60)).whenComplete((r, e) -> {
      if (e != null || r.frames().isEmpty()) {
        done.completeExceptionally(e != null ? e : new AssertionError("timed out at round " + n));
        return;
      }
      try {
        // Alternate the blocking and the async append, both from the callback.
        if (n % 2 == 0) {
          s.append("vm", frame(self, "reply " + n));
        } else {
          s.appendAsync("vm", frame(self, "reply " + n)).join();
        }
        step(s, self, other, r.nextSeq(), n + 1, rounds, done);
      } catch (Throwable t) {
        done.completeExceptionally(t);
      }
    });
  }
}
