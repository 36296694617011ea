package dev.tether.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tether.whatsapp.testing.FakeGraph;
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
import java.util.HexFormat;
import java.util.Map;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * End to end with real processes: {@code tether serve --with-agent} and {@code tether whatsapp} as
 * child JVMs, signed webhook deliveries posted to the bridge, its answers sent to the Graph API
 * stand-in ({@link FakeGraph}).
 */
class WhatsAppE2eTest {
  private static final long START_MS = 60_000;
  private static final String CUSTOMER = "4915112345678";
  private static final String APP_SECRET = "e2e-app-secret-0123456789";

  @TempDir Path dir;

  @Test
  void signedDelivery_isAnsweredByTheDemoAgent_aBadSignatureIsRefusedAndLogged_andNoSecretIsLogged() throws Exception {
    Path socket = dir.resolve("tether.sock");
    int port;
    try (ServerSocket free = new ServerSocket(0)) {
      port = free.getLocalPort();
    }
    try (FakeGraph graph = new FakeGraph();
        ChildJvm serve = ChildJvm.start(dir, "serve", Map.of(), "serve", "--socket", socket.toString(), "--with-agent")) {
      serve.awaitStderr("ready on", START_MS);
      try (ChildJvm bridge = ChildJvm.start(dir, "whatsapp", Map.of(), "whatsapp",
          "--access-token-file", secret("access", FakeGraph.TOKEN).toString(),
          "--app-secret-file", secret("app-secret", APP_SECRET).toString(),
          "--verify-token-file", secret("verify", "e2e-verify-token").toString(),
          "--phone-number-id", FakeGraph.PHONE_NUMBER_ID, "--graph-url", graph.graphUrl().toString(),
          "--listen", "127.0.0.1:" + port, "--host", "unix:" + socket, "--allowed-numbers", CUSTOMER,
          "--state-dir", dir.resolve("wa-state").toString())) {
        bridge.awaitStderr("tether whatsapp: bridging", START_MS);
        byte[] body = FakeGraph.delivery(CUSTOMER, "wamid.e2e", FakeGraph.text("hello agent")).toString().getBytes(StandardCharsets.UTF_8);
        assertEquals(401, post(port, body, "sha256=" + "0".repeat(64)));
        bridge.awaitStderr("bad X-Hub-Signature-256", START_MS);
        assertEquals(200, post(port, body, "sha256=" + hmac(body)));
        var answer = graph.awaitSent(m -> CUSTOMER.equals(m.path("to").asText()), Duration.ofSeconds(60));
        assertFalse(answer.path("type").asText().isEmpty());

        assertEquals(143, bridge.terminate(), bridge.stderrText());
        assertTrue(bridge.stderrText().contains("tether whatsapp: stopped"), bridge.stderrText());
        assertFalse(bridge.stderrText().contains(FakeGraph.TOKEN), "the access token is never logged");
        assertFalse(bridge.stderrText().contains(APP_SECRET), "the app secret is never logged");
      }
    }
  }

  private static int post(int port, byte[] body, String signature) throws Exception {
    HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/whatsapp/webhook"))
        .header("X-Hub-Signature-256", signature).POST(HttpRequest.BodyPublishers.ofByteArray(body)).build();
    return HttpClient.newHttpClient().send(request, HttpResponse.BodyHandlers.discarding()).statusCode();
  }

  private static String hmac(byte[] body) throws Exception {
    Mac mac = Mac.getInstance("HmacSHA256");
    mac.init(new SecretKeySpec(APP_SECRET.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
    return HexFormat.of().formatHex(mac.doFinal(body));
  }

  private Path secret(String name, String value) throws Exception {
    Path file = dir.resolve(name);
    Files.writeString(file, value + "\n");
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
    return file;
  }
}
