package dev.tether.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.tether.server.testing.Fixtures;
import dev.tether.whatsapp.testing.FakeGraph;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * WhatsApp lazy media end to end with real processes: {@code tether serve --with-agent}, {@code
 * tether whatsapp} receiving signed webhook deliveries and talking to the Graph API stand-in
 * ({@link FakeGraph}), and {@code tether mcp} driven by the MCP SDK's client: media are placeholders
 * with no resolve and no download, one {@code fetch_media} is one download of the same bytes with an
 * expired URL resolved again, 429s on sends lose no answer (and show on {@code --metrics}), and a
 * restarted bridge keeps its refs.
 */
class WhatsAppLazyMediaE2eTest {
  private static final long START_MS = 60_000;
  private static final String CUSTOMER = "4915187654321";
  private static final String APP_SECRET = "e2e-lazy-app-secret-0123456789";
  private static final Duration WAIT = Duration.ofSeconds(60);

  @TempDir Path dir;

  @Test
  void media_arePlaceholders_oneFetchOneDownload_expiredUrlReResolved_429LosesNothing_refsSurviveARestart() throws Exception {
    Path socket = dir.resolve("tether.sock");
    Path state = dir.resolve("wa-state");
    byte[] photo = Base64.getDecoder().decode(Fixtures.jpeg(320, 200).data());
    int port;
    try (ServerSocket free = new ServerSocket(0)) {
      port = free.getLocalPort();
    }
    try (FakeGraph graph = new FakeGraph();
        ChildJvm serve = ChildJvm.start(dir, "serve", Map.of(), "serve", "--socket", socket.toString(), "--with-agent")) {
      serve.awaitStderr("ready on", START_MS);
      ChildJvm bridge = startBridge(graph, socket, state, port, "whatsapp-1");
      try (McpSdkChild mcp = McpSdkChild.start(dir, "--host", "unix:" + socket)) {
        for (int i = 1; i <= 2; i++) {
          graph.addMedia("m-e2e-" + i, "image/jpeg", photo);
          graph.expireFirstUrl("m-e2e-" + i);
          assertEquals(200, post(port, FakeGraph.delivery(CUSTOMER, "wamid.photo" + i,
              FakeGraph.media("image", "m-e2e-" + i, "image/jpeg", "holiday " + i)).toString()));
        }
        List<String> refs = McpMedia.awaitRefs(mcp, "wa_", 2, WAIT);
        assertEquals(List.of(), graph.resolves(), "no media URL is resolved before a fetch");
        assertEquals(List.of(), graph.downloads(), "nothing was downloaded");

        CallToolResult fetched = mcp.call("fetch_media", Map.of("mediaRef", refs.get(0)));
        assertFalse(fetched.isError(), fetched.toString() + "\n" + bridge.stderrText());
        assertEquals("image/jpeg", McpSdkChild.imageType(fetched));
        assertArrayEquals(photo, McpSdkChild.image(fetched), "byte-identical to the photo");
        assertEquals(1, graph.downloads().size(), "one fetch, one download");
        assertEquals(2, graph.resolves().size(), "the expired URL was resolved again");

        // Two 429s on sends: both answers still arrive, each once.
        graph.rateLimitSends(2);
        post(port, FakeGraph.delivery(CUSTOMER, "wamid.ping1", FakeGraph.text("ping one")).toString());
        post(port, FakeGraph.delivery(CUSTOMER, "wamid.ping2", FakeGraph.text("ping two")).toString());
        graph.awaitSent(m -> m.path("text").path("body").asText().contains("You said: ping one"), WAIT);
        graph.awaitSent(m -> m.path("text").path("body").asText().contains("You said: ping two"), WAIT);
        assertEquals(2, graph.throttledSends(), "both 429s were seen and retried");
        assertEquals(1, graph.sent().stream().filter(m -> m.path("text").path("body").asText().contains("You said: ping one")).count());
        int metrics = Integer.parseInt(bridge.awaitStderr("metrics: http://127\\.0\\.0\\.1:(\\d+)/metrics", START_MS).group(1));
        Scrape scrape = Scrape.of(metrics);
        assertEquals(4, scrape.require("tether_whatsapp_updates_total", Map.of()), scrape.text());
        assertEquals(4, scrape.require("tether_whatsapp_forwarded_total", Map.of()));
        assertEquals(2, scrape.require("tether_whatsapp_ratelimited_total", Map.of()));

        // A restarted bridge on the same state dir still serves the refs it announced.
        assertEquals(143, bridge.terminate(), bridge.stderrText());
        bridge = startBridge(graph, socket, state, port, "whatsapp-2");
        CallToolResult again = mcp.call("fetch_media", Map.of("mediaRef", refs.get(1)));
        assertFalse(again.isError(), again.toString() + "\n" + bridge.stderrText());
        assertArrayEquals(photo, McpSdkChild.image(again));
        assertEquals(2, graph.downloads().size());
        assertFalse(bridge.stderrText().contains(FakeGraph.TOKEN), "the access token is never logged");
      } finally {
        bridge.close();
      }
    }
  }

  private ChildJvm startBridge(FakeGraph graph, Path socket, Path state, int port, String name) throws Exception {
    ChildJvm bridge = ChildJvm.start(dir, name, Map.of(), "whatsapp",
        "--access-token-file", secret("access", FakeGraph.TOKEN).toString(),
        "--app-secret-file", secret("app-secret", APP_SECRET).toString(),
        "--verify-token-file", secret("verify", "e2e-verify-token").toString(),
        "--phone-number-id", FakeGraph.PHONE_NUMBER_ID, "--graph-url", graph.graphUrl().toString(),
        "--listen", "127.0.0.1:" + port, "--host", "unix:" + socket, "--allowed-numbers", CUSTOMER,
        "--state-dir", state.toString(), "--metrics", "127.0.0.1:0");
    bridge.awaitStderr("tether whatsapp: media lazy", START_MS);
    return bridge;
  }

  private static int post(int port, String json) throws Exception {
    byte[] body = json.getBytes(StandardCharsets.UTF_8);
    Mac mac = Mac.getInstance("HmacSHA256");
    mac.init(new SecretKeySpec(APP_SECRET.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
    HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/whatsapp/webhook"))
        .header("X-Hub-Signature-256", "sha256=" + HexFormat.of().formatHex(mac.doFinal(body)))
        .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build();
    return HttpClient.newHttpClient().send(request, HttpResponse.BodyHandlers.discarding()).statusCode();
  }

  private Path secret(String name, String value) throws Exception {
    Path file = dir.resolve(name);
    Files.writeString(file, value + "\n");
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
    return file;
  }
}
