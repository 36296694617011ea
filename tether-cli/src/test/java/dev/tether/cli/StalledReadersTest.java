package dev.tether.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tether.api.Frames;
import dev.tether.api.SessionKey;
import dev.tether.client.HostAddress;
import dev.tether.server.testing.Fixtures;
import dev.tether.server.testing.RawHttp;
import dev.tether.server.testing.RawSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 23's first probe against a real {@code serve -Xmx256m}: 20 frames of 1.5 MB text, then 50
 * readers that ask for all of them (streams from seq 0 and polls of 200) on connections with a
 * 4 KiB receive buffer and never read. Before the egress budget each held its whole answer in the
 * heap and the daemon died of OutOfMemoryError by the 7th; now it keeps serving other clients.
 */
class StalledReadersTest {
  private static final int FRAMES = 20;
  private static final int STALLED = 50;

  @TempDir Path dir;

  @Test
  void fiftyStalledReaders_daemonKeepsServingWithinItsHeap() throws Exception {
    Path socket = dir.resolve("t.sock");
    HostAddress.Unix address = new HostAddress.Unix(socket);
    try (ChildJvm serve = ChildJvm.startWith(dir, "serve", Map.of(), List.of("-Xmx256m"),
        "serve", "--auto-create", "--socket", socket.toString());
        RawHttp http = new RawHttp(address)) {
      serve.awaitStderr("listening on", 60_000);
      assertTrue(serve.stderrText().contains("answers written at once"), "the egress limit is printed at start");
      for (int i = 0; i < FRAMES; i++) {
        byte[] frame = Fixtures.wire(Frames.assistantDone(SessionKey.host("s"), "m" + i, "x".repeat(1_500_000), List.of()));
        assertEquals(202, http.post("/v1/instances/big/tether", frame).status());
      }
      List<RawSocket> stalled = new ArrayList<>();
      try {
        for (int i = 0; i < STALLED; i++) {
          RawSocket reader = RawSocket.connect(address, 4096);
          String path = i % 2 == 0 ? "/v1/instances/big/tether/stream?after_seq=0" : "/v1/instances/big/tether/poll?after_seq=0&limit=200";
          reader.send(("GET " + path + " HTTP/1.1\r\nHost: x\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
          stalled.add(reader);
          Thread.sleep(100);
        }
        Thread.sleep(2000); // let every stalled answer be built and queued as far as it goes
        // Other clients are served while the 50 readers hold their connections.
        for (int i = 0; i < 5; i++) {
          RawHttp.Reply sent = http.post("/v1/instances/other/tether", Fixtures.wire(Fixtures.userMessage("s", "still there? " + i)));
          assertEquals(202, sent.status(), sent.body());
          RawHttp.Reply page = http.get("/v1/instances/other/tether/poll?after_seq=" + i);
          assertEquals(200, page.status(), page.body());
          assertEquals(1, page.json().get("frames").size());
        }
        assertEquals(200, http.get("/v1/health").status());
      } finally {
        for (RawSocket reader : stalled) {
          reader.close();
        }
      }
      String log = serve.stderrText();
      assertFalse(log.contains("OutOfMemoryError") || log.contains("out of memory"), log);
      assertEquals(200, http.get("/v1/health").status(), "alive after the readers left");
    }
  }
}
