package dev.tether.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tether.client.HostAddress;
import dev.tether.server.testing.Fixtures;
import dev.tether.server.testing.RawHttp;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 25, as an operator sees it: a real {@code tether serve --metrics} process, a scripted
 * workload over its socket (sends, polls, a refused frame, evictions, a woken long-poll, a stalled
 * stream), then one scrape of {@code /metrics} where every meter has the value the workload implies.
 */
class ServeMetricsTest {
  @TempDir Path dir;

  private static final Map<String, String> DEFAULT = Map.of("instance", "default", "store", "memory");

  @Test
  void scrapeAfterAWorkload_findsEachMeterWithItsValue() throws Exception {
    Path sock = dir.resolve("t.sock");
    try (ChildJvm serve = ChildJvm.start(dir, "serve", Map.of(), "serve", "--socket", sock.toString(),
            "--metrics", "127.0.0.1:0", "--ring-max-frames", "3", "--workspaces", dir.resolve("ws").toString());
        RawHttp http = new RawHttp(new HostAddress.Unix(sock))) {
      int port = Integer.parseInt(serve.awaitStderr("metrics: http://127\\.0\\.0\\.1:(\\d+)/metrics", 60_000).group(1));
      serve.awaitStderr("listening on", 60_000);

      for (int i = 0; i < 5; i++) {
        assertEquals(202, http.post("/v1/instances/default/tether", Fixtures.wire(Fixtures.userMessage("s", "n" + i))).status());
      }
      RawHttp.Reply refused = http.post("/v1/instances/default/tether", "{\"v\":1,\"type\":".getBytes(StandardCharsets.UTF_8));
      assertEquals(400, refused.status());
      JsonNode page = http.get("/v1/instances/default/tether/poll?after_seq=0").json();
      assertTrue(page.path("gap").asBoolean(), "5 frames in a ring of 3: " + page);

      // A long-poll that an append wakes.
      CompletableFuture<RawHttp.Reply> woken = CompletableFuture.supplyAsync(() -> {
        try {
          return http.get("/v1/instances/default/tether/poll?session_id=w&after_seq=5&wait_ms=30000");
        } catch (Exception e) {
          throw new IllegalStateException(e);
        }
      });
      awaitValue(port, "tether_waits_active", Map.of(), 1.0);
      assertEquals(202, http.post("/v1/instances/default/tether", Fixtures.wire(Fixtures.userMessage("w", "wake"))).status());
      assertEquals(1, woken.get(60, TimeUnit.SECONDS).json().get("frames").size());

      // A stream whose reader never reads.
      try (SocketChannel stalled = SocketChannel.open(StandardProtocolFamily.UNIX)) {
        stalled.connect(UnixDomainSocketAddress.of(sock));
        stalled.write(ByteBuffer.wrap("GET /v1/instances/default/tether/stream HTTP/1.1\r\nHost: x\r\n\r\n"
            .getBytes(StandardCharsets.US_ASCII)));
        awaitValue(port, "tether_streams_active", Map.of(), 1.0);
        awaitValue(port, "tether_wake_latency_seconds_count", DEFAULT, 1.0);

        Scrape s = Scrape.of(port);
        assertEquals(6.0, s.require("tether_frames_appended_total", with(DEFAULT, "type", "user.message")));
        double frameBytes = Fixtures.userMessage("s", "n0").payload().size();
        assertEquals(5 * frameBytes + Fixtures.userMessage("w", "wake").payload().size(),
            s.require("tether_frames_appended_bytes_total", with(DEFAULT, "type", "user.message")));
        assertEquals(0.0, s.require("tether_frames_appended_total", with(DEFAULT, "type", "assistant.done")));
        assertEquals(3.0, s.require("tether_frames_evicted_total", DEFAULT), "6 frames through a ring of 3");
        assertEquals(3 * frameBytes, s.require("tether_frames_evicted_bytes_total", DEFAULT));
        assertEquals(1.0, s.require("tether_gaps_served_total", DEFAULT));
        assertEquals(1.0, s.require("tether_frames_refused_total", Map.of("instance", "default", "code", "MALFORMED_FRAME")));
        assertEquals(6.0, s.require("tether_http_requests_seconds_count",
            Map.of("route", "/v1/instances/{id}/tether", "method", "POST", "status", "202")));
        assertEquals(1.0, s.require("tether_http_requests_seconds_count",
            Map.of("route", "/v1/instances/{id}/tether", "method", "POST", "status", "400")));
        assertEquals(2.0, s.require("tether_http_requests_seconds_count",
            Map.of("route", "/v1/instances/{id}/tether/poll", "method", "GET", "status", "200")));
        assertEquals(2.0, s.require("tether_http_requests_seconds_bucket",
            Map.of("route", "/v1/instances/{id}/tether/poll", "status", "200", "le", "30.0")), "both polls took under 30 s");
        assertEquals(0.0, s.require("tether_waits_active", Map.of()));
        assertEquals(1.0, s.require("tether_streams_active", Map.of()));
        assertTrue(s.require("tether_ingress_bytes_max", Map.of()) > 0);
        assertTrue(s.require("tether_egress_bytes_max", Map.of()) > 0);
        assertEquals(0.0, s.require("tether_ingress_bytes_used", Map.of()), "no body is being read now");
        assertTrue(s.require("jvm_memory_used_bytes", Map.of("area", "heap", "id", "G1 Eden Space")) >= 0, "JVM meters too");
        assertTrue(s.text().lines().noneMatch(l -> l.contains("instance=\"w\"") || l.contains("/v1/instances/default")),
            "no raw path or session becomes a label");
      }
    }
  }

  @Test
  void metricsListener_refusesNonLoopbackWithoutTheFlag_andServesReadyAndHealth() throws Exception {
    Path sock = dir.resolve("u.sock");
    try (ChildJvm refused = ChildJvm.start(dir, "refused", Map.of(), "serve", "--socket", sock.toString(),
        "--metrics", "0.0.0.0:0", "--workspaces", dir.resolve("ws").toString())) {
      assertTrue(refused.awaitStderr("non-loopback", 60_000).find());
    }
    try (ChildJvm serve = ChildJvm.start(dir, "serve2", Map.of(), "serve", "--socket", sock.toString(),
        "--metrics", "127.0.0.1:0", "--workspaces", dir.resolve("ws").toString(), "--log-format", "json")) {
      int port = Integer.parseInt(serve.awaitStderr("metrics: http://127\\.0\\.0\\.1:(\\d+)/metrics", 60_000).group(1));
      serve.awaitStderr("listening on", 60_000);
      // --log-format json: every stderr line is one JSON object.
      com.fasterxml.jackson.databind.ObjectMapper json = new com.fasterxml.jackson.databind.ObjectMapper();
      java.util.List<String> lines = serve.stderrText().lines().toList();
      assertTrue(lines.size() >= 3, lines.toString());
      for (String line : lines) {
        JsonNode o = json.readTree(line);
        assertEquals("tether.serve", o.get("logger").asText(), line);
        assertEquals("INFO", o.get("level").asText(), line);
        assertTrue(o.get("ts").asText().endsWith("Z"), line);
      }
      assertTrue(lines.stream().anyMatch(l -> l.contains("\"msg\":\"tether serve: listening on unix:")), lines.toString());
      assertEquals(200, Ops.get(port, "/ready").statusCode());
      assertEquals("ready\n", Ops.get(port, "/ready").body());
      assertEquals(200, Ops.get(port, "/health").statusCode());
      assertEquals(404, Ops.get(port, "/v1/instances").statusCode(), "the API is not on this listener");
    }
  }

  private static Map<String, String> with(Map<String, String> base, String key, String value) {
    java.util.HashMap<String, String> m = new java.util.HashMap<>(base);
    m.put(key, value);
    return m;
  }

  /** Scrapes until the sample has {@code want} (the listener is told after a response completes); 60 s at most. */
  static void awaitValue(int port, String name, Map<String, String> labels, double want) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    Scrape s = Scrape.of(port);
    while (s.value(name, labels).orElse(-1) != want) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError(name + labels + " never became " + want + ":\n" + s.text());
      }
      Thread.sleep(20);
      s = Scrape.of(port);
    }
  }
}
