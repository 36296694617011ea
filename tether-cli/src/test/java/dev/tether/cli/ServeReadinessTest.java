package dev.tether.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.tether.client.HostAddress;
import dev.tether.server.testing.Fixtures;
import dev.tether.server.testing.RawHttp;
import dev.tether.store.jetstream.testing.NatsServer;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code /v1/ready} (and {@code /ready} on the metrics listener) of a real {@code serve}: 503 with
 * the reason while the store cannot serve, 200 again once it can, while {@code /v1/health} stays
 * 200 throughout.
 */
class ServeReadinessTest {
  @TempDir Path dir;

  @Test
  void natsServerGoesAway_readyIs503_andBackTo200WhenItReturns() throws Exception {
    NatsServer.binary();
    Path sock = dir.resolve("n.sock");
    try (NatsServer nats = NatsServer.single(dir.resolve("nats"));
        ChildJvm serve = ChildJvm.start(dir, "serve-nats", Map.of(), "serve", "--socket", sock.toString(), "--nats", nats.url(),
            "--metrics", "127.0.0.1:0", "--workspaces", dir.resolve("ws").toString());
        RawHttp http = new RawHttp(new HostAddress.Unix(sock))) {
      int port = Integer.parseInt(serve.awaitStderr("metrics: http://127\\.0\\.0\\.1:(\\d+)/metrics", 60_000).group(1));
      serve.awaitStderr("listening on", 60_000);
      assertEquals(202, http.post("/v1/instances/default/tether", Fixtures.wire(Fixtures.userMessage("s", "before"))).status());
      assertEquals(200, http.get("/v1/ready").status());

      nats.kill();
      RawHttp.Reply down = awaitReady(http, 503);
      // Whichever the probe sees first: the client already knows the connection is down, or JetStream no longer answers.
      assertTrue(down.body().contains("UNAVAILABLE") && (down.body().contains("not ready: the NATS connection is")
          || down.body().contains("not ready: JetStream does not answer")), down.body());
      assertEquals(503, Ops.get(port, "/ready").statusCode(), "the metrics listener's probe agrees");
      assertEquals(200, http.get("/v1/health").status(), "liveness is not readiness");

      nats.start();
      awaitReady(http, 200);
      assertEquals(200, Ops.get(port, "/ready").statusCode());
      assertEquals(202, http.post("/v1/instances/default/tether", Fixtures.wire(Fixtures.userMessage("s", "after"))).status());
    }
  }

  @Test
  void journalDirectoryBecomesUnwritable_readyIs503_andBackTo200() throws Exception {
    Path data = dir.resolve("data");
    Path sock = dir.resolve("j.sock");
    try (ChildJvm serve = ChildJvm.start(dir, "serve-journal", Map.of(), "serve", "--socket", sock.toString(),
            "--data-dir", data.toString(), "--workspaces", dir.resolve("ws").toString());
        RawHttp http = new RawHttp(new HostAddress.Unix(sock))) {
      serve.awaitStderr("listening on", 60_000);
      assertEquals(200, http.get("/v1/ready").status());
      // chattr +i: no new file in the directory, even for root (file permissions would not stop root).
      assumeTrue(run("chattr", "+i", data.toString()) == 0, "chattr +i is not available on this file system");
      try {
        RawHttp.Reply down = awaitReady(http, 503);
        assertTrue(down.body().contains("not ready: the journal's directory") && down.body().contains("not writable"), down.body());
        assertEquals(200, http.get("/v1/health").status());
      } finally {
        run("chattr", "-i", data.toString());
      }
      awaitReady(http, 200);
    }
  }

  private static int run(String... cmd) throws Exception {
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    p.getInputStream().readAllBytes();
    return p.waitFor(30, TimeUnit.SECONDS) ? p.exitValue() : -1;
  }

  /** Polls /v1/ready until it answers {@code status}; 60 s at most. */
  private static RawHttp.Reply awaitReady(RawHttp http, int status) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    RawHttp.Reply r = http.get("/v1/ready");
    while (r.status() != status) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("/v1/ready never answered " + status + "; last: " + r.status() + " " + r.body());
      }
      Thread.sleep(50);
      r = http.get("/v1/ready");
    }
    return r;
  }
}
