package dev.tether.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link AuditLogFile}: rotation bounds the disk, hostile paths are refused, hostile values stay on their line. */
class AuditLogFileTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path dir;

  private static AuditEvent event(int i, String session) {
    return new AuditEvent(Instant.now(), "tok-" + i, "vm" + (i % 3), "host", session, "host-" + i, "user.message",
        "/v1/instances/{id}/tether", "POST", 202, null, 100 + i, 60);
  }

  private static List<Path> files(Path dir) throws IOException {
    try (Stream<Path> s = Files.list(dir)) {
      return s.sorted().toList();
    }
  }

  @Test
  void rotation_keepsEveryFileUnderMaxBytes_atMostKeepPlusOneFiles_andTheNewestLinesIntact() {
    int[] round = {0};
    qt().withExamples(25).forAll(integers().between(4096, 16384), integers().between(0, 3), integers().between(0, 600))
        .checkAssert((maxBytes, keep, events) -> {
          try {
            Path d = Files.createDirectory(dir.resolve("r" + round[0]++));
            Path file = d.resolve("audit.log");
            AuditLogFile log = AuditLogFile.open(file, maxBytes, keep);
            for (int i = 0; i < events; i++) {
              log.audited(event(i, "s" + i));
            }
            log.close();
            assertEquals(0, log.dropped());
            List<Path> all = files(d);
            assertTrue(all.size() <= keep + 1, all.toString());
            long total = 0;
            for (Path p : all) {
              long size = Files.size(p);
              assertTrue(size <= maxBytes, p + " has " + size + " > " + maxBytes);
              total += size;
            }
            assertTrue(total <= (long) (keep + 1) * maxBytes);
            List<String> newest = Files.readAllLines(file);
            if (events > 0) {
              String last = newest.get(newest.size() - 1);
              assertEquals("host-" + (events - 1), JSON.readTree(last).get("msg_id").asText());
            }
            for (String line : newest) {
              JSON.readTree(line); // every line whole JSON
            }
          } catch (IOException e) {
            throw new AssertionError(e);
          }
        });
  }

  @Test
  void anEarlierRunsLog_becomesFile1_andTheNewFileIs0600() throws Exception {
    Path file = dir.resolve("audit.log");
    Files.writeString(file, "{\"old\":true}\n");
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));
    try (AuditLogFile log = AuditLogFile.open(file, 1 << 20, 2)) {
      log.audited(event(1, "s"));
    }
    assertEquals("{\"old\":true}\n", Files.readString(dir.resolve("audit.log.1")));
    assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)));
    assertEquals(1, Files.readAllLines(file).size());
  }

  @Test
  void aSymbolicLink_isRefusedInOneLine_andItsTargetIsUntouched() throws Exception {
    Path target = dir.resolve("elsewhere");
    Files.writeString(target, "precious");
    Path link = Files.createSymbolicLink(dir.resolve("audit.log"), target);
    IOException e = assertThrows(IOException.class, () -> AuditLogFile.open(link));
    assertTrue(e.getMessage().contains("is a symbolic link; refusing"), e.getMessage());
    assertFalse(e.getMessage().contains("\n"));
    assertEquals("precious", Files.readString(target));
    assertTrue(Files.isSymbolicLink(link), "left as it was");
  }

  @Test
  void aFifo_isRefusedAtOnce_neverOpened() throws Exception {
    Path fifo = dir.resolve("audit.log");
    Process p = new ProcessBuilder("mkfifo", fifo.toString()).start();
    assertEquals(0, p.waitFor());
    IOException e = assertTimeoutPreemptively(Duration.ofSeconds(5), () -> assertThrows(IOException.class, () -> AuditLogFile.open(fifo)));
    assertTrue(e.getMessage().contains("not a regular file (a FIFO, socket or device)"), e.getMessage());
  }

  @Test
  void aDirectory_isRefused() throws Exception {
    Path d = Files.createDirectory(dir.resolve("audit.log"));
    IOException e = assertThrows(IOException.class, () -> AuditLogFile.open(d));
    assertTrue(e.getMessage().contains("is a directory"), e.getMessage());
  }

  @Test
  void aLinkPlantedAsTheNextRotatedName_isRenamedOver_neverWrittenThrough() throws Exception {
    Path target = dir.resolve("elsewhere");
    Files.writeString(target, "precious");
    Path file = dir.resolve("audit.log");
    Files.createSymbolicLink(dir.resolve("audit.log.1"), target);
    try (AuditLogFile log = AuditLogFile.open(file, 4096, 1)) {
      for (int i = 0; i < 200; i++) {
        log.audited(event(i, "s"));
      }
    }
    assertEquals("precious", Files.readString(target));
    assertFalse(Files.isSymbolicLink(dir.resolve("audit.log.1")));
  }

  @Test
  void hostileValues_stayOnTheirLine_andAreCut() throws Exception {
    Path file = dir.resolve("audit.log");
    String hostile = "a\n{\"forged\":true}\u001b[31m" + "x".repeat(10_000) + "\ud83d\ude00";
    try (AuditLogFile log = AuditLogFile.open(file)) {
      log.audited(new AuditEvent(Instant.now(), null, hostile, hostile, hostile, hostile, hostile, "/v1/instances/{id}",
          "GET", 404, "INSTANCE_NOT_FOUND", 0, 10));
    }
    List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
    assertEquals(1, lines.size());
    assertTrue(lines.get(0).length() < 4096, "cut to 256 characters a field");
    assertEquals(256, JSON.readTree(lines.get(0)).get("instance").asText().length());
  }

  @Test
  void aFloodFromManyThreads_neverBlocksThem_andEveryEventIsWrittenOrCountedAsDropped() throws Exception {
    Path file = dir.resolve("audit.log");
    int threads = 4;
    int each = 12_500;
    AuditLogFile log = AuditLogFile.open(file);
    Thread[] senders = new Thread[threads];
    for (int t = 0; t < threads; t++) {
      int base = t * each;
      senders[t] = new Thread(() -> {
        for (int i = 0; i < each; i++) {
          log.audited(event(base + i, "s"));
        }
      });
    }
    assertTimeoutPreemptively(Duration.ofSeconds(20), () -> {
      for (Thread s : senders) {
        s.start();
      }
      for (Thread s : senders) {
        s.join();
      }
    });
    log.close();
    long lines;
    try (Stream<String> l = Files.lines(file)) {
      lines = l.count();
    }
    assertEquals((long) threads * each, lines + log.dropped(), "written " + lines + ", dropped " + log.dropped());
  }

  @Test
  void afterClose_eventsAreDroppedAndCounted() throws Exception {
    AuditLogFile log = AuditLogFile.open(dir.resolve("audit.log"));
    log.close();
    log.audited(event(1, "s"));
    log.audited(event(2, "s"));
    assertEquals(2, log.dropped());
  }
}
