package dev.tether.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tether.client.HostAddress;
import dev.tether.client.SendReceipt;
import dev.tether.client.http.HttpTetherClient;
import dev.tether.client.http.RateLimitedException;
import dev.tether.api.Frames;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * {@code serve --rate-limit-instance} and {@code --rate-limit-token}: documented in {@code --help},
 * a malformed value refused in one line, and a flood against a real {@code serve} child process
 * answered 429 {@code RATE_LIMITED} with {@code Retry-After} past the burst.
 */
@ResourceLock("System.out")
class RateLimitServeTest {
  @TempDir Path dir;

  /** Runs {@code tether args} in-process; its exit status, with what it wrote to {@code out} and {@code err}. */
  private static int run(ByteArrayOutputStream out, ByteArrayOutputStream err, String... args) {
    PrintStream oldOut = System.out;
    PrintStream oldErr = System.err;
    System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
    System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
    try {
      return Main.run(args);
    } finally {
      System.setOut(oldOut);
      System.setErr(oldErr);
    }
  }

  @Test
  void malformedRates_areRefusedInOneLineNamingTheFlag_andHelpDocumentsTheDefaults() {
    for (String flag : List.of("--rate-limit-instance", "--rate-limit-token")) {
      for (String bad : List.of("fast", "200", "-5/s", "200/s,burst=0", "5/d", "1e9/s")) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        assertEquals(2, run(out, err, "serve", flag, bad, "--socket", dir.resolve("s.sock").toString()), flag + " " + bad);
        String e = err.toString(StandardCharsets.UTF_8).lines().filter(l -> !l.startsWith("INFO: Instrumented"))
            .reduce("", (a, b) -> a + b + "\n").strip();
        assertEquals(1, e.lines().count(), "one line: " + e);
        assertTrue(e.startsWith("tether serve: " + flag + ": ") && e.contains("'" + bad + "'") && e.contains("200/s"), e);
        assertFalse(e.contains("Exception"), e);
      }
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    assertEquals(0, run(out, new ByteArrayOutputStream(), "serve", "--help"));
    String help = out.toString(StandardCharsets.UTF_8).replaceAll("\\s+", " ");
    assertTrue(help.contains("--rate-limit-instance=RATE") && help.contains("Default: 200/s,burst=400"), help);
    assertTrue(help.contains("--rate-limit-token=RATE") && help.contains("Default: 100/s,burst=200"), help);
  }

  @Test
  void aFloodAgainstARealServe_is429RateLimitedWithRetryAfter_andARetryingClientDeliversEverything() throws Exception {
    Path socket = dir.resolve("t.sock");
    HostAddress.Unix address = new HostAddress.Unix(socket);
    try (ChildJvm serve = ChildJvm.start(dir, "serve", Map.of(), "serve", "--socket", socket.toString(), "--instance", "vm1",
        "--workspaces", dir.resolve("ws").toString(), "--rate-limit-instance", "5/s,burst=5", "--rate-limit-token", "0");
        HttpTetherClient impatient = HttpTetherClient.builder(address).rateLimitRetries(0, Duration.ZERO).build();
        HttpTetherClient patient = HttpTetherClient.builder(address).build()) {
      serve.awaitStderr("listening on", 60_000);
      assertTrue(serve.stderrText().contains("ingress rate per instance 5/s (burst 5), per token off"), serve.stderrText());
      List<CompletableFuture<SendReceipt>> flood = new ArrayList<>();
      for (int i = 0; i < 30; i++) {
        flood.add(impatient.send("vm1", Frames.hostUserMessage("s", "flood " + i, List.of())));
      }
      int accepted = 0;
      int limited = 0;
      for (CompletableFuture<SendReceipt> f : flood) {
        try {
          f.get(30, TimeUnit.SECONDS);
          accepted++;
        } catch (ExecutionException e) {
          RateLimitedException r = assertInstanceOf(RateLimitedException.class, e.getCause());
          assertTrue(r.getMessage().contains("429 RATE_LIMITED"), r.getMessage());
          assertTrue(r.retryAfter().toSeconds() >= 1, "Retry-After in whole seconds: " + r.retryAfter());
          limited++;
        }
      }
      assertTrue(accepted >= 5 && limited >= 5, accepted + " accepted, " + limited + " limited");
      List<CompletableFuture<SendReceipt>> patiently = new ArrayList<>();
      for (int i = 0; i < 8; i++) {
        patiently.add(patient.send("vm1", Frames.hostUserMessage("s", "patient " + i, List.of())));
      }
      for (CompletableFuture<SendReceipt> f : patiently) {
        f.get(60, TimeUnit.SECONDS);
      }
    }
  }
}
