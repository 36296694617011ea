package dev.tether.sessions;

import dev.tether.api.blobs.BlobKey;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tether.api.SessionKey;
import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kills a child JVM ({@link SessionCrashChild}) with {@code destroyForcibly} while it puts blobs
 * and appends turns, at least 10 times (bounded by count and time), and after each kill checks,
 * with fresh instances as after a restart: every session loads; turns are exactly
 * {@code turn s#0..m-1} in order, so none is duplicated or out of place; every acknowledged turn
 * is there; every blob a turn refers to reads back verified; and temp files from interrupted
 * puts are never listed as blobs and every listed blob verifies.
 */
class SessionCrashTest {
  private static final int KILLS = 12;
  private static final Duration BUDGET = Duration.ofSeconds(150);
  private static final Duration PER_RUN_ACK_WAIT = Duration.ofSeconds(30);

  @TempDir Path root;

  @Test
  void killedWhileAppendingAndPutting_restartLosesNoAcknowledgedTurnAndNoTempFileIsABlob() throws Exception {
    Random random = new Random(20260101);
    Map<Integer, Integer> acked = new HashMap<>();
    Map<Integer, Map<Integer, String>> ackedBlobs = new HashMap<>();
    long deadline = System.nanoTime() + BUDGET.toNanos();
    int kills = 0;
    int totalAcks = 0;
    while (kills < KILLS && System.nanoTime() < deadline) {
      int target = 1 + random.nextInt(40);
      Process child = start(random.nextLong(), kills);
      BlockingQueue<String> lines = new LinkedBlockingQueue<>();
      Thread reader = new Thread(() -> readLines(child, lines), "crash-child-stdout");
      reader.setDaemon(true);
      reader.start();
      int got = 0;
      long runDeadline = System.nanoTime() + PER_RUN_ACK_WAIT.toNanos();
      while (got < target) {
        String line = lines.poll(Math.max(1, runDeadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        if (line == null) {
          break; // slow machine: kill with what we have
        }
        String[] f = line.split(" ");
        int s = Integer.parseInt(f[1]);
        int n = Integer.parseInt(f[2]);
        acked.merge(s, n + 1, Math::max);
        ackedBlobs.computeIfAbsent(s, k -> new HashMap<>()).put(n, f[3]);
        got++;
      }
      child.destroyForcibly();
      assertTrue(child.waitFor(30, TimeUnit.SECONDS), "the child died");
      reader.join(10_000);
      for (String line; (line = lines.poll()) != null; ) { // acks printed before the kill landed
        String[] f = line.split(" ");
        acked.merge(Integer.parseInt(f[1]), Integer.parseInt(f[2]) + 1, Math::max);
        ackedBlobs.computeIfAbsent(Integer.parseInt(f[1]), k -> new HashMap<>()).put(Integer.parseInt(f[2]), f[3]);
        got++;
      }
      totalAcks += got;
      kills++;
      verifyAfterRestart(acked, ackedBlobs);
    }
    assertTrue(kills >= 10, "only " + kills + " kills within " + BUDGET);
    assertTrue(totalAcks > 0, "the child never acknowledged a turn; see " + root.resolve("child-0.err"));
  }

  private void verifyAfterRestart(Map<Integer, Integer> acked, Map<Integer, Map<Integer, String>> ackedBlobs) throws IOException {
    FileBlobStore blobs = FileBlobStore.open(root.resolve("blobs"));
    List<BlobKey> listed = blobs.keys();
    for (BlobKey key : listed) {
      blobs.get(key); // verifies the hash: a half-written temp file never became a blob
    }
    try (Stream<Path> files = Files.list(blobs.directory())) {
      for (Path file : (Iterable<Path>) files::iterator) {
        String name = file.getFileName().toString();
        assertTrue(BlobKey.parse(name).isPresent() || name.startsWith(".tmp-"), "unexpected file " + name);
      }
    }
    try (SessionStore store = SessionStore.builder(root.resolve("sessions"), blobs).build()) {
      for (int s = 0; s < SessionCrashChild.KEYS.size(); s++) {
        SessionKey key = SessionCrashChild.KEYS.get(s);
        SessionLog log = store.open(key);
        List<SessionTurn> turns = log.turns();
        assertTrue(log.skippedLines() <= 1, key + " skipped " + log.skippedLines() + " lines; only a torn tail may be");
        int mustHave = acked.getOrDefault(s, 0);
        assertTrue(turns.size() >= mustHave, key + " has " + turns.size() + " turns but " + mustHave + " were acknowledged");
        for (int n = 0; n < turns.size(); n++) {
          SessionTurn turn = turns.get(n);
          SessionPart.Text text = (SessionPart.Text) turn.parts().get(0);
          assertTrue(text.text().startsWith(SessionCrashChild.text(s, n)), key + " turn " + n + " is " + text.text());
          for (BlobKey blob : turn.blobKeys()) {
            assertTrue(listed.contains(blob), "turn " + n + " of " + key + " refers to missing blob " + blob);
          }
          String ackedBlob = ackedBlobs.getOrDefault(s, Map.of()).get(n);
          if (ackedBlob != null && !ackedBlob.equals("-")) {
            assertEquals(List.of(BlobKey.of(ackedBlob)), turn.blobKeys());
            assertArrayEquals(blobs.get(BlobKey.of(ackedBlob)), log.assembleContext("", 1_000_000, Integer.MAX_VALUE)
                .turns().get(n).parts().stream().filter(p -> p instanceof dev.tether.api.Part.Image)
                .map(p -> ((dev.tether.api.Part.Image) p).data().toByteArray()).findFirst().orElseThrow());
          }
        }
      }
    }
  }

  private Process start(long seed, int run) throws IOException {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    ProcessBuilder pb = new ProcessBuilder(java, "-Xmx256m", "-XX:TieredStopAtLevel=1", "-Xshare:auto",
        "-cp", System.getProperty("java.class.path"), SessionCrashChild.class.getName(),
        root.toString(), Long.toString(seed));
    pb.redirectError(root.resolve("child-" + run + ".err").toFile());
    pb.redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null").exists() ? new File("/dev/null") : root.toFile()));
    return pb.start();
  }

  private static void readLines(Process child, BlockingQueue<String> lines) {
    try (BufferedReader in = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
      for (String line; (line = in.readLine()) != null; ) {
        if (line.startsWith("ACK ")) {
          lines.add(line);
        }
      }
    } catch (IOException e) {
      // the child was killed mid-line; acks read so far stand
    }
  }
}
