package dev.tether.cli;

import dev.tether.server.testing.RawSocket;
import dev.tether.client.HostAddress;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Client faults never flood the daemon's log: 200 clients that stop mid-body, send bad chunks or
 * trickle and then vanish, against {@code tether serve} in its own JVM; its stderr stays a few
 * lines, with no stack trace, and the daemon still answers.
 */
class ClientFaultLogTest {
  private static final int CLIENTS = 200;
  private static final String HEAD = "POST /v1/instances/vm%d/tether HTTP/1.1\r\nHost: x\r\n";

  @TempDir Path dir;

  @Test
  void twoHundredAbortingAndSlowClients_logStaysSmallWithoutStackTraces() throws Exception {
    Path socket = dir.resolve("t.sock");
    HostAddress.Unix address = new HostAddress.Unix(socket);
    try (ChildJvm serve = ChildJvm.start(dir, "serve", Map.of(), "serve", "--auto-create", "--socket", socket.toString())) {
      serve.awaitStderr("listening on", 60_000);
      long logBefore = serve.stderrText().length();
      ExecutorService pool = Executors.newFixedThreadPool(16);
      List<Future<?>> all = new ArrayList<>();
      for (int i = 0; i < CLIENTS; i++) {
        int n = i;
        all.add(pool.submit(() -> {
          misbehave(address, n);
          return null;
        }));
      }
      for (Future<?> f : all) {
        f.get(120, TimeUnit.SECONDS);
      }
      pool.shutdown();
      Thread.sleep(500); // let the server notice the last closes
      String frame = "{\"v\":1,\"type\":\"user.message\",\"payload\":{\"text\":\"still here\"}}";
      RawSocket.Response ok = RawSocket.exchange(address,
          String.format(HEAD, 0) + "Content-Length: " + frame.length() + "\r\n\r\n" + frame);
      assertEquals(202, ok.status(), ok.body());
      String log = serve.stderrText().substring((int) logBefore);
      assertTrue(log.length() < 2_000, "the log grew by " + log.length() + " chars:\n" + log);
      assertFalse(log.contains("\tat ") || log.contains("Exception"), log);
    }
  }

  /** One of four faults: cut short, bad chunk, trickle then vanish, headers only then vanish. */
  private static void misbehave(HostAddress address, int n) throws Exception {
    try (RawSocket s = RawSocket.connect(address)) {
      String head = String.format(HEAD, n);
      switch (n % 4) {
        case 0 -> {
          s.send((head + "Content-Length: 100000\r\n\r\n{\"v\":1,\"type\":").getBytes(StandardCharsets.UTF_8));
          s.shutdownOutput();
          s.readResponse(30_000);
        }
        case 1 -> {
          s.send((head + "Transfer-Encoding: chunked\r\n\r\n5\r\n{\"v\":\r\nzz\r\n").getBytes(StandardCharsets.UTF_8));
          s.readResponse(30_000);
        }
        case 2 -> {
          s.send((head + "Content-Length: 100000\r\n\r\n").getBytes(StandardCharsets.UTF_8));
          for (int i = 0; i < 5; i++) {
            s.send(new byte[] {' '});
            Thread.sleep(20);
          }
        }
        default -> s.send((head + "Content-Length: 5000000\r\n\r\n").getBytes(StandardCharsets.UTF_8));
      }
    }
  }
}
