package dev.tether.store.jetstream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tether.api.Frame;
import dev.tether.api.RawJson;
import dev.tether.api.SessionKey;
import dev.tether.store.FrameQuery;
import dev.tether.store.QueryResult;
import dev.tether.store.Retention;
import dev.tether.store.jetstream.testing.NatsServer;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Measures what many instances cost on one nats-server node (docs/jetstream-scale.md): host A
 * creates N instances (one frame each), host B (another connection, same JVM) starts, polls each
 * once, then long-polls all of them; appends on A wake B's waits; idle views are released.
 *
 * <p>Run: {@code ./mvnw -B -o -pl tether-store-jetstream -am verify -Dmaven.javadoc.skip=true
 * -Dmaven.source.skip=true -Dtest=ScaleProbe -Dgroups=scale -Djetstream.excludedGroups=none
 * -Dsurefire.failIfNoSpecifiedTests=false -Dscale.instances=1000 -Dscale.idleSeconds=20} (give 10,000
 * instances {@code -Dscale.idleSeconds=300}, so that views outlive B's passes). Prints lines starting
 * {@code SCALE} and writes them to {@code target/scale-N.txt}.
 */
@Tag("scale")
class ScaleProbe {
  static final SessionKey S = SessionKey.host("s");
  @TempDir Path dir;
  final List<String> lines = new ArrayList<>();

  void report(String format, Object... args) {
    String line = "SCALE " + String.format(format, args);
    System.out.println(line);
    lines.add(line);
  }

  static long heapUsedAfterGc() {
    for (int i = 0; i < 3; i++) {
      System.gc();
      NatsServer.sleep(100);
    }
    Runtime r = Runtime.getRuntime();
    return r.totalMemory() - r.freeMemory();
  }

  static long rssKiB(long pid) throws Exception {
    for (String l : Files.readAllLines(Path.of("/proc/" + pid + "/status"))) {
      if (l.startsWith("VmRSS:")) {
        return Long.parseLong(l.replaceAll("[^0-9]", ""));
      }
    }
    return -1;
  }

  static int threads() {
    return ManagementFactory.getThreadMXBean().getThreadCount();
  }

  static Frame frame(int i) {
    return Frame.builder("user.message").version(1).session(S).payload(RawJson.of("{\"text\":\"hello " + i + "\"}")).build();
  }

  @Test
  void instances() throws Exception {
    int n = Integer.getInteger("scale.instances", 1000);
    // B's idle timeout: longer than its passes over all instances, or views go between passes
    int idleSeconds = Integer.getInteger("scale.idleSeconds", 20);
    // 1 MiB per instance: JetStream reserves MaxBytes of every stream on the server's disk budget.
    Retention retention = Retention.builder().maxFrames(100).maxBytes(1 << 20).build();
    try (NatsServer server = NatsServer.single(dir)) {
      long rss0 = rssKiB(server.pid());
      long heap0 = heapUsedAfterGc();
      report("instances=%d retention=%s nats-server=%s", n, retention, "2.9.10 single node, file store");
      try (JetStreamTetherStore a = JetStreamTetherStore.builder().servers(server.url()).retention(retention).replicas(1).connect()) {
        long t0 = System.nanoTime();
        for (int i = 0; i < n; i++) {
          a.append("vm" + i, frame(i));
        }
        long createMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
        report("A created %d instances (stream + first append each) in %d ms (%.2f ms each); A holds %d views",
            n, createMs, (double) createMs / n, a.openViews());
        report("server RSS %d MiB (idle server %d MiB)", rssKiB(server.pid()) >> 10, rss0 >> 10);

        long heap1 = heapUsedAfterGc();
        int threads1 = threads();
        long tStart = System.nanoTime();
        try (JetStreamTetherStore b = JetStreamTetherStore.builder().servers(server.url()).retention(retention)
            .replicas(1).idleTimeout(Duration.ofSeconds(idleSeconds)).connect()) {
          long startMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - tStart);
          long tFirst = System.nanoTime();
          QueryResult first = b.query("vm0", FrameQuery.all());
          long firstPollUs = TimeUnit.NANOSECONDS.toMicros(System.nanoTime() - tFirst);
          assertEquals(1, first.frames().size());
          long tAll = System.nanoTime();
          for (int i = 1; i < n; i++) {
            assertEquals(1, b.query("vm" + i, FrameQuery.all()).frames().size());
          }
          long allMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - tAll);
          report("B started in %d ms; its first poll of one instance took %.1f ms; a first poll of each of the other %d took %d ms (%.2f ms each)",
              startMs, firstPollUs / 1000.0, n - 1, allMs, (double) allMs / Math.max(1, n - 1));
          long tSecond = System.nanoTime();
          for (int i = 0; i < n; i++) {
            b.query("vm" + i, FrameQuery.all());
          }
          long secondMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - tSecond);
          report("a second poll of each (views open, one stream-info request each for the read barrier): %d ms (%.2f ms each)",
              secondMs, (double) secondMs / n);
          long heap2 = heapUsedAfterGc();
          report("B with %d open views: heap +%d KiB (%.1f KiB per view), threads %d -> %d (JVM, both hosts), server consumers %d, server RSS %d MiB",
              b.openViews(), (heap2 - heap1) >> 10, (heap2 - heap1) / 1024.0 / n, threads1, threads(),
              b.connection().jetStreamManagement().getAccountStatistics().getConsumers(), rssKiB(server.pid()) >> 10);

          List<CompletableFuture<QueryResult>> waits = new ArrayList<>();
          long tWaits = System.nanoTime();
          for (int i = 0; i < n; i++) {
            waits.add(b.waitForFrames("vm" + i, FrameQuery.session(S, 1), Duration.ofMinutes(5)));
          }
          long waitsMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - tWaits);
          long heap3 = heapUsedAfterGc();
          report("B registered %d long-polls in %d ms; heap +%d KiB over the views, threads %d",
              n, waitsMs, (heap3 - heap2) >> 10, threads());

          int samples = Math.min(n, 200);
          long[] wakeUs = new long[samples];
          for (int k = 0; k < samples; k++) {
            int i = (int) ((long) k * n / samples);
            long t = System.nanoTime();
            a.append("vm" + i, frame(-1));
            long acked = System.nanoTime();
            waits.get(i).get(30, TimeUnit.SECONDS);
            wakeUs[k] = TimeUnit.NANOSECONDS.toMicros(System.nanoTime() - t);
            if (k == 0) {
              report("first wake: append acknowledged after %.2f ms", (acked - t) / 1e6);
            }
          }
          Arrays.sort(wakeUs);
          report("append on A -> wait on B completes, %d samples with %d waits pending: median %.2f ms, p90 %.2f ms, max %.2f ms",
              samples, n, wakeUs[samples / 2] / 1000.0, wakeUs[samples * 9 / 10] / 1000.0, wakeUs[samples - 1] / 1000.0);
          for (CompletableFuture<QueryResult> w : waits) {
            w.cancel(true);
          }
          long tIdle = System.nanoTime();
          while (b.openViews() > 0 && System.nanoTime() - tIdle < TimeUnit.SECONDS.toNanos(idleSeconds + 120L)) {
            NatsServer.sleep(500);
          }
          long released = System.nanoTime();
          var jsm = b.connection().jetStreamManagement();
          while (jsm.getAccountStatistics().getConsumers() > 0 && System.nanoTime() - released < TimeUnit.SECONDS.toNanos(60)) {
            NatsServer.sleep(250);
          }
          report("the server dropped the released views' consumers %d ms after the last release (ephemeral consumers go when their interest does)",
              TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - released));
          long heap4 = heapUsedAfterGc();
          report("after idleTimeout (%d s) B holds %d views (released %d): heap %+d KiB against before B's views, server consumers %d, threads %d",
              idleSeconds, b.openViews(), b.releasedViews(), (heap4 - heap1) >> 10,
              b.connection().jetStreamManagement().getAccountStatistics().getConsumers(), threads());
          assertTrue(b.openViews() == 0);
        }
        report("server RSS at the end %d MiB; JVM heap of both hosts over the start %d KiB", rssKiB(server.pid()) >> 10,
            (heapUsedAfterGc() - heap0) >> 10);
      }
    }
    Files.write(Path.of("target", "scale-" + n + ".txt"), lines);
  }
}
