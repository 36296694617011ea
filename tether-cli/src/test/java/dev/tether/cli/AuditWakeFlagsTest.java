package dev.tether.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.ResourceLock;

/** {@code serve}'s refusals of bad audit and wake flags and of a hostile audit file: one line each, exit 2, in-process. */
@ResourceLock("System.out")
class AuditWakeFlagsTest {
  @TempDir Path dir;
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();
  private PrintStream oldErr;

  @BeforeEach
  void capture() {
    oldErr = System.err;
    System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
  }

  @AfterEach
  void restore() {
    System.setErr(oldErr);
  }

  /** Runs {@code serve} with {@code args} on a socket in the temporary directory; returns the exit status. */
  private int serve(String... args) {
    String[] all = new String[args.length + 3];
    all[0] = "serve";
    all[1] = "--socket";
    all[2] = dir.resolve("s.sock").toString();
    System.arraycopy(args, 0, all, 3, args.length);
    return Main.run(all);
  }

  private String oneLine() {
    String text = err.toString(StandardCharsets.UTF_8).lines().filter(l -> !l.startsWith("INFO: Instrumented"))
        .reduce("", (a, b) -> a.isEmpty() ? b : a + "\n" + b).strip();
    assertEquals(1, text.lines().count(), text);
    return text;
  }

  @Test
  void aSymbolicLinkAsTheAuditLog_isRefusedInOneLine_andItsTargetUntouched() throws Exception {
    Path target = Files.writeString(dir.resolve("elsewhere"), "precious");
    Path link = Files.createSymbolicLink(dir.resolve("audit.log"), target);
    assertEquals(2, serve("--audit-log", link.toString()));
    String line = oneLine();
    assertTrue(line.contains("--audit-log: ") && line.contains("is a symbolic link; refusing"), line);
    assertEquals("precious", Files.readString(target));
  }

  @Test
  void aFifoAsTheAuditLog_isRefusedAtOnce() throws Exception {
    Path fifo = dir.resolve("audit.log");
    assertEquals(0, new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor());
    assertEquals(2, assertTimeoutPreemptively(Duration.ofSeconds(10), () -> serve("--audit-log", fifo.toString())));
    assertTrue(oneLine().contains("not a regular file (a FIFO, socket or device)"));
  }

  @Test
  void badFlags_areOneLineEach() {
    assertEquals(2, serve("--audit-log", dir.resolve("a.log").toString(), "--audit-log-max-bytes", "100"));
    assertTrue(oneLine().contains("--audit-log-max-bytes must be at least 4096 but was 100"));
    err.reset();
    assertEquals(2, serve("--audit-log-keep", "3"));
    assertTrue(oneLine().contains("--audit-log-max-bytes and --audit-log-keep need --audit-log"));
    err.reset();
    assertEquals(2, serve("--wake-idle", "5"));
    assertTrue(oneLine().contains("--wake-idle and --wake-timeout need --wake-command"));
    err.reset();
    assertEquals(2, serve("--wake-command", "true", "--wake-idle", "0"));
    assertTrue(oneLine().contains("--wake-idle must be at least 1 but was 0"));
  }
}
