package dev.tether.store.sqlite;

import dev.tether.store.Retention;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.tether.api.Frame;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kills a child JVM that appends to a journal with SIGKILL at random moments (during open, between
 * appends, mid-commit) and checks after each kill that the store opens cleanly, that every append
 * the child saw acknowledged is present with its content, and that no seq was handed out twice.
 */
class JournalCrashTest {
  static final Retention RETENTION = Retention.builder().maxFrames(1_000_000).build();
  static final int KILLS = 22;
  static final long BUDGET_NANOS = TimeUnit.SECONDS.toNanos(50);

  @TempDir Path dir;

  @Test
  void sigkillAtRandomMoments_losesNoAcknowledgedAppendAndNeverRepeatsASeq() throws Exception {
    Path file = dir.resolve("crash.db");
    Random random = new Random(Long.getLong("crash.seed", System.nanoTime()));
    Map<Long, String> acked = new HashMap<>();
    long highestAcked = 0;
    long start = System.nanoTime();
    int kills = 0;
    for (int run = 0; run < KILLS; run++) {
      assertTrue(System.nanoTime() - start < BUDGET_NANOS, "crash loop over its time budget after " + kills + " kills");
      Process child = new ProcessBuilder(
          Path.of(System.getProperty("java.home"), "bin", "java").toString(),
          "-Xmx64m", "-XX:TieredStopAtLevel=1", "-Xshare:auto",
          "-cp", System.getProperty("java.class.path"),
          JournalCrashChild.class.getName(), file.toString(), "r" + run)
          .redirectError(ProcessBuilder.Redirect.DISCARD)
          .start();
      List<String> lines = Collections.synchronizedList(new ArrayList<>());
      Thread reader = new Thread(() -> {
        try (BufferedReader r = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
          for (String line; (line = r.readLine()) != null; ) {
            lines.add(line);
          }
        } catch (Exception ignored) {
          // The pipe breaks when the child dies.
        }
      });
      reader.start();
      int mode = random.nextInt(4);
      if (mode == 0) {
        // Kill during startup or while opening the journal.
        Thread.sleep(random.nextInt(400));
      } else {
        int target = random.nextInt(300);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
        while (lines.size() <= target && System.nanoTime() < deadline && child.isAlive()) {
          Thread.sleep(1);
        }
        if (lines.size() <= target) {
          fail("child produced only " + lines.size() + " lines; it may have failed to start");
        }
        if (random.nextBoolean()) {
          Thread.sleep(0, random.nextInt(999_999));
        }
      }
      child.destroyForcibly();
      assertTrue(child.waitFor(20, TimeUnit.SECONDS), "child did not die");
      kills++;
      reader.join(10_000);
      recordAcks(new ArrayList<>(lines), acked, highestAcked);
      highestAcked = verify(file, acked, highestAcked);
    }
    assertTrue(kills >= 20);
    assertTrue(acked.size() >= 100, "the children acknowledged only " + acked.size() + " appends");
  }

  private static void recordAcks(List<String> transcript, Map<Long, String> acked, long floor) {
    for (String line : transcript) {
      if (line.startsWith("ready")) {
        continue;
      }
      int space = line.indexOf(' ');
      long seq = Long.parseLong(line.substring(0, space));
      String tag = line.substring(space + 1);
      assertTrue(seq > floor, "seq " + seq + " was handed out again after a restart (floor " + floor + ")");
      String before = acked.put(seq, tag);
      if (before != null) {
        fail("seq " + seq + " was acknowledged twice: " + before + " and " + tag);
      }
    }
  }

  private static long verify(Path file, Map<Long, String> acked, long highestAcked) throws Exception {
    try (DurableTetherStore s = DurableTetherStore.builder(file).retention(RETENTION).open()) {
      List<Frame> frames = s.retained("vm");
      Map<Long, Frame> bySeq = new HashMap<>();
      long prev = 0;
      for (Frame f : frames) {
        assertTrue(f.seq() > prev, "seqs strictly increase");
        prev = f.seq();
        bySeq.put(f.seq(), f);
      }
      for (Map.Entry<Long, String> e : acked.entrySet()) {
        Frame f = bySeq.get(e.getKey());
        assertNotNull(f, "acknowledged seq " + e.getKey() + " is missing after the crash");
        assertEquals("{\"text\":\"" + e.getValue() + "\"}", f.payload().toString());
      }
      assertTrue(s.lastSeq("vm") >= highestAcked);
      return Math.max(highestAcked, s.lastSeq("vm"));
    }
  }
}
