package dev.tether.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code serve --console} refuses what it must before anything listens. */
class ConsoleCommandTest {
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

  private String stderr() {
    return err.toString(StandardCharsets.UTF_8);
  }

  @Test
  void nonLoopbackConsole_isRefusedWithoutTheFlag() {
    assertEquals(2, Main.run("serve", "--socket", dir.resolve("t.sock").toString(), "--console", "0.0.0.0:0"));
    assertTrue(stderr().contains("refusing to listen on non-loopback 0.0.0.0:0 (--console)"), stderr());
    assertTrue(stderr().contains("--allow-non-loopback"), stderr());
    assertTrue(!stderr().contains("console: http"), "no console URL for a refused console");
  }

  @Test
  void consoleWithoutPort_isAUsageErrorNamingTheOption() {
    assertEquals(2, Main.run("serve", "--socket", dir.resolve("t.sock").toString(), "--console", "localhost"));
    assertTrue(stderr().contains("--console needs HOST:PORT"), stderr());
  }

  @Test
  void help_documentsTheConsole() {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    PrintStream oldOut = System.out;
    System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
    try {
      Main.run("serve", "--help");
    } finally {
      System.setOut(oldOut);
    }
    String help = out.toString(StandardCharsets.UTF_8);
    assertTrue(help.contains("--console=HOST:PORT"), help);
    assertTrue(help.contains("#token="), help);
  }
}
