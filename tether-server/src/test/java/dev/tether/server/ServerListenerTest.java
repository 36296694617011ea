package dev.tether.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tether.api.ErrorCode;
import dev.tether.client.HostAddress;
import dev.tether.client.TokenFile;
import dev.tether.server.testing.Fixtures;
import dev.tether.server.testing.RawHttp;
import dev.tether.store.MemoryTetherStore;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What a bound {@link ServerListener} hears from a real server on 127.0.0.1, and /v1/ready. */
class ServerListenerTest {
  private static final String TOKEN = "t".repeat(TokenFile.MIN_BYTES);
  private static final String AUTH = "Bearer " + TOKEN;

  @TempDir Path dir;

  /** Records each call as a line. */
  static final class RecordingServerListener implements ServerListener {
    final List<String> requests = new CopyOnWriteArrayList<>();
    final List<String> refused = new CopyOnWriteArrayList<>();

    @Override
    public void requested(String route, String method, int status, long nanos) {
      assertTrue(nanos >= 0);
      requests.add(method + " " + route + " " + status);
    }

    @Override
    public void frameRefused(String instance, ErrorCode code) {
      refused.add(instance + " " + code);
    }
  }

  private TetherServer start(ServerListener listener, MemoryTetherStore store) throws Exception {
    return TetherServer.builder().listen(new HostAddress.Tcp("127.0.0.1", 0)).token(TOKEN).store(store)
        .workspaces(dir.resolve("ws")).listener(listener).start();
  }

  /** Waits (without a clock) until the listener heard {@code n} requests: it is told after the response is sent. */
  private static void awaitRequests(RecordingServerListener l, int n) {
    while (l.requests.size() < n) {
      Thread.onSpinWait();
    }
  }

  @Test
  void requests_toldByRouteTemplateMethodAndStatus_neverTheRawPath() throws Exception {
    RecordingServerListener l = new RecordingServerListener();
    try (TetherServer server = start(l, MemoryTetherStore.create()); RawHttp http = new RawHttp(server.boundAddress())) {
      assertEquals(202, http.send("POST", "/v1/instances/default/tether", "application/json",
          Fixtures.wire(Fixtures.userMessage("default", "hi")), AUTH).status());
      assertEquals(200, http.get("/v1/instances/default/tether/poll?after_seq=0", AUTH).status());
      assertEquals(404, http.get("/v1/instances/no-such/blob/abc", AUTH).status());
      assertEquals(404, http.get("/v1/nothing-here/x/y/z", AUTH).status());
      assertEquals(401, http.get("/v1/health").status());
      awaitRequests(l, 5);
      assertEquals(List.of("POST /v1/instances/{id}/tether 202", "GET /v1/instances/{id}/tether/poll 200",
          "GET /v1/instances/{id}/blob/{key} 404", "GET other 404", "GET /v1/health 401"), l.requests);
    }
  }

  @Test
  void refusedFrames_toldWithTheirErrorCode() throws Exception {
    RecordingServerListener l = new RecordingServerListener();
    try (TetherServer server = start(l, MemoryTetherStore.create()); RawHttp http = new RawHttp(server.boundAddress())) {
      assertEquals(400, http.send("POST", "/v1/instances/default/tether", "application/json",
          "{\"v\":1,\"type\":".getBytes(StandardCharsets.UTF_8), AUTH).status());
      assertEquals(400, http.send("POST", "/v1/instances/default/tether", "application/json",
          "{\"v\":2,\"type\":\"user.message\",\"payload\":{}}".getBytes(StandardCharsets.UTF_8), AUTH).status());
      assertEquals(List.of("default MALFORMED_FRAME", "default UNSUPPORTED_VERSION"), l.refused);
    }
  }

  @Test
  void stats_countOpenStreamsApartFromWaits() throws Exception {
    RecordingServerListener l = new RecordingServerListener();
    try (TetherServer server = start(l, MemoryTetherStore.create())) {
      assertEquals(0, server.stats().streams());
      HostAddress.Tcp a = (HostAddress.Tcp) server.boundAddress();
      java.net.http.HttpClient client = java.net.http.HttpClient.newHttpClient();
      // The stream commits its headers at once: send returns with the body still open.
      java.net.http.HttpResponse<java.io.InputStream> open = client.send(java.net.http.HttpRequest.newBuilder(
              java.net.URI.create("http://127.0.0.1:" + a.port() + "/v1/instances/default/tether/stream"))
          .header("Authorization", AUTH).build(), java.net.http.HttpResponse.BodyHandlers.ofInputStream());
      assertEquals(200, open.statusCode());
      assertEquals(1, server.stats().streams());
      assertEquals(0, server.stats().waits());
      assertTrue(server.stats().ingressMaxBytes() > 0 && server.stats().egressMaxBytes() > 0);
      open.body().close();
    }
  }

  @Test
  void ready_is200WhileTheStoreIsOpen_503WithTheReasonOnceItIsNot_healthStays200() throws Exception {
    MemoryTetherStore store = MemoryTetherStore.create();
    try (TetherServer server = start(ServerListener.NONE, store); RawHttp http = new RawHttp(server.boundAddress())) {
      RawHttp.Reply ready = http.get("/v1/ready", AUTH);
      assertEquals(200, ready.status());
      assertEquals("{\"ready\":true}\n", ready.body());
      assertEquals(401, http.get("/v1/ready").status(), "the probe follows the API's token rules");
      store.close();
      RawHttp.Reply notReady = http.get("/v1/ready", AUTH);
      assertEquals(503, notReady.status());
      assertTrue(notReady.body().contains("\"code\":\"UNAVAILABLE\"") && notReady.body().contains("not ready: the store is closed"),
          notReady.body());
      assertEquals(200, http.get("/v1/health", AUTH).status());
      assertFalse(server.readiness().ready());
    }
  }
}
