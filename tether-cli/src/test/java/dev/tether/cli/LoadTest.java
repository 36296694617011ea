package dev.tether.cli;

import dev.tether.client.http.HttpTetherClient;
import dev.tether.server.testing.Fixtures;
import dev.tether.client.HostAddress;
import dev.tether.client.FramePage;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tether.api.Frame;
import dev.tether.api.FrameTypes;
import dev.tether.api.Frames;
import dev.tether.api.SessionKey;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Loopback load test, not part of the default run (tag {@code load}): {@code tether serve} and
 * {@code tether agent} as child JVMs on a Unix socket; this JVM holds {@value #HELD} long-polls
 * on as many sessions, and while they are held sends {@value #ASKS} user messages ({@value #CONCURRENCY}
 * at a time, every tenth asking for a chart; {@value #WARMUP} unmeasured ones first) and measures, for each, the time from the POST to its {@code assistant.done}
 * arriving through a long-poll. Finally one frame is appended to every held session and each held
 * poll must deliver it. Prints p50/p99 and the server's memory; bounded (every wait has a timeout).
 *
 * <pre>
 * ./mvnw -o -pl tether-cli -am verify -Dtest=LoadTest -DexcludedGroups= -Dsurefire.failIfNoSpecifiedTests=false
 * </pre>
 */
@Tag("load")
class LoadTest {
  static final int HELD = 1000;
  static final int ASKS = 400;
  static final int CONCURRENCY = 4;
  static final int WARMUP = 40;
  private static final String INSTANCE = "load";

  @TempDir Path dir;

  @Test
  void thousandHeldLongPolls_whileTheAgentAnswers() throws Exception {
    Path socket = dir.resolve("t.sock");
    try (ChildJvm serve = ChildJvm.start(dir, "serve", Map.of(), "serve", "--auto-create", "--socket", socket.toString());
        HttpTetherClient client = Clients.of(new HostAddress.Unix(socket), null)) {
      serve.awaitStderr("listening on", 60_000);
      try (ChildJvm agent = ChildJvm.start(dir, "agent", Map.of(), "agent", "--host", socket.toString(), "--instance", INSTANCE)) {
        agent.awaitStderr("ready on", 60_000);
        long rssBefore = rssKb(serve.pid(), "VmRSS");

        // 1. Hold HELD long-polls, each re-polling when its 30 s wait ends, until its frame comes.
        AtomicInteger delivered = new AtomicInteger();
        List<CompletableFuture<Void>> held = new ArrayList<>();
        for (int i = 0; i < HELD; i++) {
          held.add(holdUntilDone(client, "held-" + i, 0, delivered));
        }
        int waits = 0;
        for (int i = 0; i < 600 && waits < HELD; i++) {
          waits = Clients.waitsHeld(new HostAddress.Unix(socket), null);
          Thread.sleep(50);
        }
        assertTrue(waits >= HELD, "the server holds the long-polls: " + waits);
        long rssHeld = rssKb(serve.pid(), "VmRSS");

        // 2. While they are held, measure reply latency (after WARMUP unmeasured asks, so that
        //    class loading and the first Java2D chart do not count).
        ConcurrentLinkedQueue<Long> latencies = new ConcurrentLinkedQueue<>();
        ExecutorService askers = Executors.newFixedThreadPool(CONCURRENCY);
        long start = 0;
        List<Future<?>> asks = new ArrayList<>();
        for (int i = -WARMUP; i < ASKS; i++) {
          if (i == 0) {
            for (Future<?> f : asks) {
              f.get(120, TimeUnit.SECONDS);
            }
            asks.clear();
            latencies.clear();
            start = System.nanoTime();
          }
          String session = "ask-" + Math.floorMod(i, CONCURRENCY);
          String text = Math.floorMod(i, 10) == 0 ? "chart 1 2 3 " + i : "hello " + i;
          asks.add(askers.submit(() -> {
            long t0 = System.nanoTime();
            var accepted = client.send(INSTANCE, Fixtures.userMessage(session, text)).get(30, TimeUnit.SECONDS);
            long cursor = accepted.ingressSeq();
            while (true) {
              FramePage page = Clients.poll(client,INSTANCE, "host", session, cursor, 0, 30_000,
                  List.of(FrameTypes.ASSISTANT_DONE), accepted.msgId()).get(60, TimeUnit.SECONDS);
              if (!page.frames().isEmpty()) {
                latencies.add(System.nanoTime() - t0);
                return null;
              }
              cursor = page.nextSeq();
            }
          }));
        }
        for (Future<?> f : asks) {
          f.get(120, TimeUnit.SECONDS);
        }
        long elapsed = System.nanoTime() - start;
        askers.shutdown();
        int stillHeld = Clients.waitsHeld(new HostAddress.Unix(socket), null);
        long rssPeak = rssKb(serve.pid(), "VmHWM");
        long rssAfter = rssKb(serve.pid(), "VmRSS");
        String heap = heapInfo(serve.pid());

        // 3. Every held poll is alive: answer each one.
        for (int i = 0; i < HELD; i++) {
          Frame f = Frames.assistantDone(SessionKey.host("held-" + i), "release", "bye", List.of());
          client.send(INSTANCE, f).get(30, TimeUnit.SECONDS);
        }
        CompletableFuture.allOf(held.toArray(CompletableFuture[]::new)).get(120, TimeUnit.SECONDS);
        assertEquals(HELD, delivered.get());

        List<Long> sorted = new ArrayList<>(latencies);
        Collections.sort(sorted);
        assertEquals(ASKS, sorted.size());
        String report = String.format(java.util.Locale.ROOT,
            "held long-polls: %d (server reported %d before and %d during the asks)%n"
                + "asks: %d at concurrency %d in %.2f s (%.0f replies/s)%n"
                + "reply latency (POST to assistant.done via long-poll): p50 %.2f ms, p90 %.2f ms, p99 %.2f ms, max %.2f ms%n"
                + "server RSS: %d MiB idle, %d MiB with the polls held, %d MiB after the asks, peak %d MiB (-Xmx256m)%n"
                + "server heap: %s%n",
            HELD, waits, stillHeld, ASKS, CONCURRENCY, elapsed / 1e9, ASKS / (elapsed / 1e9),
            pct(sorted, 50), pct(sorted, 90), pct(sorted, 99), sorted.get(sorted.size() - 1) / 1e6,
            rssBefore / 1024, rssHeld / 1024, rssAfter / 1024, rssPeak / 1024, heap);
        System.out.print(report);
        Files.writeString(Path.of("target", "load-test.txt"), report);
        assertTrue(stillHeld >= HELD, "the held polls stayed held while the agent answered: " + stillHeld);
      }
    }
  }

  private static CompletableFuture<Void> holdUntilDone(HttpTetherClient client, String session, long after, AtomicInteger delivered) {
    return Clients.poll(client,INSTANCE, "host", session, after, 0, 30_000, List.of(FrameTypes.ASSISTANT_DONE), null)
        .thenCompose(page -> {
          if (page.frames().isEmpty()) {
            return holdUntilDone(client, session, page.nextSeq(), delivered);
          }
          delivered.incrementAndGet();
          return CompletableFuture.completedFuture(null);
        });
  }

  private static double pct(List<Long> sorted, int p) {
    int i = (int) Math.ceil(p / 100.0 * sorted.size()) - 1;
    return sorted.get(Math.max(0, i)) / 1e6;
  }

  private static long rssKb(long pid, String field) throws Exception {
    for (String line : Files.readAllLines(Path.of("/proc/" + pid + "/status"))) {
      if (line.startsWith(field + ":")) {
        return Long.parseLong(line.replaceAll("[^0-9]", ""));
      }
    }
    return -1;
  }

  private static String heapInfo(long pid) {
    try {
      Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "jcmd").toString(),
          Long.toString(pid), "GC.heap_info").redirectErrorStream(true).start();
      String out = new String(p.getInputStream().readAllBytes());
      p.waitFor(20, TimeUnit.SECONDS);
      for (String line : out.split("\n")) {
        if (line.contains("total") && line.contains("used")) {
          return line.trim();
        }
      }
      return out.trim();
    } catch (Exception e) {
      return "unavailable (" + e.getMessage() + ")";
    }
  }
}
