package dev.tether.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tether.client.HostAddress;
import dev.tether.server.testing.RawSocket;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 31: the header timeout was an idle timeout, so one header line every 5 s kept a connection
 * 78 s, and with {@code --max-connections 20} twenty such sockets shut out every client for 40 s.
 * Against a real {@code serve --listen}: a head trickled one line a second is cut at the header
 * timeout, and twenty trickling sockets leave room for a whole request (they hold at most
 * {@code --max-head-connections}, by default half of the connections).
 */
class SlowHeadServeTest {
  @TempDir Path dir;

  @Test
  void aHeadTrickledOneLineASecond_isCutAtTheHeaderTimeout() throws Exception {
    try (ChildJvm serve = start("--header-timeout", "3")) {
      HostAddress address = HostAddress.parse(serve.awaitStderr("listening on http://(127\\.0\\.0\\.1:\\d+)", 60_000).group(1));
      assertTrue(serve.stderrText().contains("header timeout 3 s"), "the limit is printed at start");
      try (RawSocket c = RawSocket.connect(address)) {
        long start = System.nanoTime();
        c.send("GET /v1/health HTTP/1.1\r\n".getBytes(StandardCharsets.US_ASCII));
        ScheduledExecutorService lines = trickle(List.of(c));
        try {
          assertTrue(c.awaitClosed(20_000), "still open 20 s into a 3 s header timeout");
        } finally {
          lines.shutdownNow();
        }
        long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        assertTrue(ms >= 2_500 && ms < 5_500, "cut at the 3 s deadline, not later: " + ms + " ms");
      }
    }
  }

  @Test
  void twentyTricklingSockets_withMaxConnections20_doNotShutOutAClient() throws Exception {
    try (ChildJvm serve = start("--max-connections", "20")) {
      HostAddress address = HostAddress.parse(serve.awaitStderr("listening on http://(127\\.0\\.0\\.1:\\d+)", 60_000).group(1));
      assertTrue(serve.stderrText().contains("connections 20 (10 in their head)"), serve.stderrText());
      String token = Files.readString(dir.resolve("token")).trim();
      List<RawSocket> tricklers = new ArrayList<>();
      ScheduledExecutorService lines = null;
      try {
        for (int i = 0; i < 20; i++) {
          RawSocket t = RawSocket.connect(address);
          t.send("GET /v1/health HTTP/1.1\r\n".getBytes(StandardCharsets.US_ASCII));
          tricklers.add(t);
        }
        lines = trickle(tricklers);
        Thread.sleep(1_500);
        for (int i = 0; i < 5; i++) {
          long start = System.nanoTime();
          CompletableFuture<RawSocket.Response> r = CompletableFuture.supplyAsync(() -> {
            try {
              return RawSocket.exchange(address, "GET /v1/health HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " + token
                  + "\r\nConnection: close\r\n\r\n");
            } catch (Exception e) {
              throw new IllegalStateException(e);
            }
          });
          assertEquals(200, r.get(10, TimeUnit.SECONDS).status());
          long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
          assertTrue(ms < 2_000, "a whole request got in at once, not after the tricklers: " + ms + " ms");
          Thread.sleep(500);
        }
      } finally {
        if (lines != null) {
          lines.shutdownNow();
        }
        for (RawSocket t : tricklers) {
          t.close();
        }
      }
    }
  }

  private ChildJvm start(String... flags) throws IOException {
    List<String> args = new ArrayList<>(List.of("serve", "--listen", "127.0.0.1:0", "--token-file", dir.resolve("token").toString()));
    args.addAll(List.of(flags));
    return ChildJvm.start(dir, "serve", Map.of(), args.toArray(String[]::new));
  }

  /** Sends each socket one more header line every second, until shut down or the socket is closed. */
  private static ScheduledExecutorService trickle(List<RawSocket> sockets) {
    ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();
    int[] n = {0};
    timer.scheduleAtFixedRate(() -> {
      n[0]++;
      for (RawSocket s : sockets) {
        try {
          s.send(("X-Line-" + n[0] + ": a\r\n").getBytes(StandardCharsets.US_ASCII));
        } catch (IOException | RuntimeException e) {
          // closed by the server: nothing more to send there
        }
      }
    }, 1, 1, TimeUnit.SECONDS);
    return timer;
  }
}
