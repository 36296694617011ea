package dev.tether.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.tether.api.Frame;
import dev.tether.api.RawJson;
import dev.tether.api.SessionKey;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * N appenders on random sessions and M pollers that follow one session each with the
 * wait-then-advance-cursor loop a host agent runs. Every poller must see exactly the frames of its
 * session, each once, in seq order (no skipped or duplicated frame for any cursor), and no wait
 * may hang after the last append (no lost wake-up: the pollers' waits are far longer than the
 * test, so only a wake-up can end them). Bounded by frame count and a time limit.
 */
class CursorStressTest {
  static final int SESSIONS = 6;
  static final int APPENDERS = 4;
  static final int PER_APPENDER = 2_500;
  static final int POLLERS_PER_SESSION = 2;

  @Test
  void appendersAndPollers_everyCursorSeesEachFrameOfItsSessionOnce() throws Exception {
    // The ring is large enough that nothing is evicted: a gap would be a legitimate skip.
    MemoryTetherStore store = MemoryTetherStore.create(
        Retention.builder().maxFrames(APPENDERS * PER_APPENDER + 10).build());
    Map<Integer, ConcurrentLinkedQueue<Long>> appended = new ConcurrentHashMap<>();
    for (int s = 0; s < SESSIONS; s++) {
      appended.put(s, new ConcurrentLinkedQueue<>());
    }
    int pollers = SESSIONS * POLLERS_PER_SESSION;
    ExecutorService pool = Executors.newFixedThreadPool(APPENDERS + pollers);
    CountDownLatch start = new CountDownLatch(1);
    try {
      List<Future<List<Long>>> seen = new ArrayList<>();
      for (int p = 0; p < pollers; p++) {
        int session = p % SESSIONS;
        int limit = 1 + p % 7; // small limits exercise next_seq after truncated pages
        seen.add(pool.submit(() -> poll(store, session, limit, start)));
      }
      List<Future<?>> appenders = new ArrayList<>();
      for (int a = 0; a < APPENDERS; a++) {
        long seed = a;
        appenders.add(pool.submit(() -> {
          Random r = new Random(seed);
          start.await();
          for (int i = 0; i < PER_APPENDER; i++) {
            int session = r.nextInt(SESSIONS);
            long seq = store.append("vm", frame(session, "data"));
            appended.get(session).add(seq);
          }
          return null;
        }));
      }
      start.countDown();
      for (Future<?> a : appenders) {
        a.get(60, TimeUnit.SECONDS);
      }
      // One end marker per session lets each poller know it has seen everything.
      for (int s = 0; s < SESSIONS; s++) {
        appended.get(s).add(store.append("vm", frame(s, "end")));
      }
      for (int p = 0; p < pollers; p++) {
        List<Long> got = seen.get(p).get(60, TimeUnit.SECONDS);
        List<Long> expected = new ArrayList<>(appended.get(p % SESSIONS));
        expected.sort(null);
        assertEquals(expected, got, "poller " + p + " on session " + (p % SESSIONS));
      }
      assertEquals(0, store.pendingWaits("vm"));
      assertEquals(APPENDERS * PER_APPENDER + SESSIONS, store.lastSeq("vm"));
    } finally {
      pool.shutdownNow();
      store.close();
    }
  }

  @Test
  void concurrentAppends_subscribersSeeIncreasingSeqsAndAccountForEveryFrame() throws Exception {
    MemoryTetherStore store = MemoryTetherStore.create();
    Subscription never = store.subscribe("vm", 1); // never read: must not slow anyone down
    Subscription small = store.subscribe("vm", 8);
    Subscription large = store.subscribe("vm", APPENDERS * 1000 + 1);
    ExecutorService pool = Executors.newFixedThreadPool(APPENDERS + 1);
    try {
      CountDownLatch start = new CountDownLatch(1);
      List<Future<?>> appenders = new ArrayList<>();
      for (int a = 0; a < APPENDERS; a++) {
        int id = a;
        appenders.add(pool.submit(() -> {
          start.await();
          for (int i = 0; i < 1000; i++) {
            store.append("vm", frame(id, "x"));
          }
          return null;
        }));
      }
      // A slow reader of the small subscription, concurrently with the appenders.
      Future<long[]> reader = pool.submit(() -> {
        start.await();
        long last = 0;
        long delivered = 0;
        long lost = 0;
        while (delivered + lost < APPENDERS * 1000L) {
          SubscriptionEvent e = small.next(Duration.ofSeconds(30)).orElseThrow();
          if (e instanceof SubscriptionEvent.Delivered d) {
            assertTrue(d.frame().seq() > last, "seqs increase");
            last = d.frame().seq();
            delivered++;
          } else if (e instanceof SubscriptionEvent.Lost l) {
            assertTrue(l.firstSeq() > last && l.lastSeq() >= l.firstSeq(), "lost range follows delivered frames");
            assertEquals(l.lastSeq() - l.firstSeq() + 1, l.count(), "a lost range is contiguous");
            last = l.lastSeq();
            lost += l.count();
          }
        }
        return new long[] {delivered, lost};
      });
      start.countDown();
      for (Future<?> a : appenders) {
        a.get(60, TimeUnit.SECONDS);
      }
      long[] counts = reader.get(60, TimeUnit.SECONDS);
      assertEquals(APPENDERS * 1000L, counts[0] + counts[1]);
      assertEquals(counts[1], small.lostFrames());
      assertEquals(APPENDERS * 1000L - 1, never.lostFrames());
      long last = 0;
      for (int i = 0; i < APPENDERS * 1000; i++) {
        long seq = ((SubscriptionEvent.Delivered) large.poll().orElseThrow()).frame().seq();
        assertEquals(last + 1, seq, "a big enough buffer gets every frame in order");
        last = seq;
      }
      assertEquals(0, large.lostFrames());
    } finally {
      pool.shutdownNow();
      store.close();
    }
  }

  private static Frame frame(int session, String text) {
    return Frame.builder("assistant.done").session(SessionKey.host("s" + session))
        .payload(RawJson.of("{\"text\":\"" + text + "\"}")).build();
  }

  private static List<Long> poll(MemoryTetherStore store, int session, int limit, CountDownLatch start)
      throws Exception {
    start.await();
    List<Long> got = new ArrayList<>();
    long cursor = 0;
    FrameQuery base = FrameQuery.builder().session(SessionKey.host("s" + session)).limit(limit).build();
    while (true) {
      QueryResult r = store.waitForFrames("vm", base.withAfterSeq(cursor), Duration.ofMinutes(10))
          .get(60, TimeUnit.SECONDS);
      assertTrue(!r.gap(), "nothing is evicted in this test");
      assertTrue(r.nextSeq() >= cursor, "next_seq went backwards");
      for (Frame f : r.frames()) {
        if (f.seq() <= cursor) {
          fail("frame " + f.seq() + " at or before cursor " + cursor);
        }
        got.add(f.seq());
        if (f.payload().toString().contains("end")) {
          return got;
        }
      }
      cursor = r.nextSeq();
    }
  }
}
