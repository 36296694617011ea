package dev.tether.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tether.client.HostAddress;
import dev.tether.server.testing.RawSocket;
import dev.tether.store.Readiness;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 31, the side listener: a client that sends half a request head and stops, or trickles one
 * byte at a time, must not keep {@code /health}, {@code /ready} and {@code /metrics} from
 * answering others, and is cut by a total head deadline; off loopback the token is checked before
 * the method or the path.
 */
class MetricsListenerRobustnessTest {
  @TempDir Path dir;

  @Test
  void stuckClientsHalfAHead_doesNotStopASecondClientsProbes_andIsCutByTheHeadDeadline() throws Exception {
    try (ChildJvm serve = ChildJvm.start(dir, "serve", Map.of(), "serve", "--socket", dir.resolve("t.sock").toString(),
        "--metrics", "127.0.0.1:0", "--workspaces", dir.resolve("ws").toString())) {
      int port = Integer.parseInt(serve.awaitStderr("metrics: http://127\\.0\\.0\\.1:(\\d+)/metrics", 60_000).group(1));
      serve.awaitStderr("listening on", 60_000);
      HostAddress.Tcp address = new HostAddress.Tcp("127.0.0.1", port);
      assertEquals(200, probe(port, "/health").statusCode(), "warm-up");

      List<RawSocket> stuck = new ArrayList<>();
      try {
        for (int i = 0; i < 4; i++) {
          RawSocket s = RawSocket.connect(address);
          s.send("GET /health HTTP/1.1\r\nHost: x\r\n".getBytes(StandardCharsets.US_ASCII)); // and never the blank line
          stuck.add(s);
        }
        for (int round = 0; round < 3; round++) {
          assertEquals(200, probe(port, "/health").statusCode());
          assertEquals(200, probe(port, "/ready").statusCode());
          HttpResponse<String> scrape = probe(port, "/metrics");
          assertEquals(200, scrape.statusCode());
          assertTrue(scrape.body().contains("jvm_memory_used_bytes"), scrape.body());
        }
        long start = System.nanoTime();
        assertTrue(stuck.get(0).awaitClosed(MetricsEndpoint.HEAD_DEADLINE.toMillis() + 5_000),
            "the half head is cut by the head deadline");
        assertTrue(Duration.ofNanos(System.nanoTime() - start).compareTo(MetricsEndpoint.HEAD_DEADLINE.plusSeconds(5)) < 0);
      } finally {
        for (RawSocket s : stuck) {
          s.close();
        }
      }
    }
  }

  @Test
  void trickledHead_isCutByTheTotalDeadline_notKeptAliveByEachByte() throws Exception {
    Duration deadline = Duration.ofMillis(1_500);
    PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    try (MetricsEndpoint endpoint = MetricsEndpoint.start(new HostAddress.Tcp("127.0.0.1", 0),
            new MetricsEndpoint.Routes(registry, Readiness::yes), null, deadline);
        RawSocket trickle = RawSocket.connect(new HostAddress.Tcp("127.0.0.1", endpoint.port()))) {
      byte[] head = "GET /health HTTP/1.1\r\nHost: x\r\nX-Slow: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\r\n\r\n"
          .getBytes(StandardCharsets.US_ASCII);
      long start = System.nanoTime();
      boolean cut = false;
      for (int i = 0; i < head.length - 2 && !cut; i++) {
        try {
          trickle.send(new byte[] {head[i]});
        } catch (java.io.IOException e) {
          cut = true;
        }
        Thread.sleep(100); // well under the idle timeout: each byte alone would keep it alive
      }
      assertTrue(cut || trickle.awaitClosed(2_000), "a trickled head is closed");
      long tookMs = Duration.ofNanos(System.nanoTime() - start).toMillis();
      assertTrue(tookMs < deadline.toMillis() + 2_000 + 200, "closed after " + tookMs + " ms, the deadline is " + deadline);
      assertEquals(200, RawSocket.exchange(new HostAddress.Tcp("127.0.0.1", endpoint.port()),
          "GET /health HTTP/1.1\r\nHost: x\r\n\r\n").status(), "others are still answered");
    }
  }

  @Test
  void withAToken_everyRequestWithoutIt_is401BeforeMethodOrPath() throws Exception {
    PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    try (MetricsEndpoint endpoint = MetricsEndpoint.start(new HostAddress.Tcp("127.0.0.1", 0),
            new MetricsEndpoint.Routes(registry, Readiness::yes), "s3cret-token", MetricsEndpoint.HEAD_DEADLINE)) {
      HostAddress.Tcp at = new HostAddress.Tcp("127.0.0.1", endpoint.port());
      for (String path : List.of("/health", "/ready", "/metrics", "/nowhere")) {
        RawSocket.Response none = RawSocket.exchange(at, "GET " + path + " HTTP/1.1\r\nHost: x\r\n\r\n");
        assertEquals(401, none.status(), path);
        assertTrue(none.headers().contains("WWW-Authenticate: Bearer"), none.headers());
        assertEquals(401, RawSocket.exchange(at, "GET " + path + " HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer s3cret-tokeN\r\n\r\n").status());
        assertEquals(401, RawSocket.exchange(at, "GET " + path + " HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer s3cret-token2\r\n\r\n").status());
      }
      assertEquals(401, RawSocket.exchange(at, "TRACE /health HTTP/1.1\r\nHost: x\r\n\r\n").status(), "the token before the method");
      assertEquals(401, RawSocket.exchange(at, "POST /health HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n").status());
      String auth = "Authorization: Bearer s3cret-token\r\n";
      RawSocket.Response ok = RawSocket.exchange(at, "GET /health HTTP/1.1\r\nHost: x\r\n" + auth + "\r\n");
      assertEquals(200, ok.status());
      assertEquals("ok\n", ok.body());
      assertEquals(405, RawSocket.exchange(at, "TRACE /health HTTP/1.1\r\nHost: x\r\n" + auth + "\r\n").status());
      assertEquals(200, RawSocket.exchange(at, "GET /ready HTTP/1.1\r\nHost: x\r\n" + auth + "\r\n").status());
      assertEquals(404, RawSocket.exchange(at, "GET /v1/instances HTTP/1.1\r\nHost: x\r\n" + auth + "\r\n").status());
    }
  }

  @Test
  void nonLoopbackWithoutAToken_isRefusedAtStart() {
    PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
        () -> MetricsEndpoint.start(new HostAddress.Tcp("0.0.0.0", 0), registry, Readiness::yes, null));
    assertTrue(e.getMessage().contains("bearer token"), e.getMessage());
  }

  /** One GET that must be answered within a second. */
  private static HttpResponse<String> probe(int port, String path) throws Exception {
    HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();
    return client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).timeout(Duration.ofSeconds(1)).build(),
        HttpResponse.BodyHandlers.ofString());
  }
}
