package dev.tether.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tether.client.HostAddress;
import dev.tether.server.testing.RawSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 31's least-privilege findings against a real {@code serve --listen --console}: the console
 * token (documented as reads and sends only) minted instance tokens; an instance token saw the
 * host's absolute workspace path; {@code TRACE /v1/health} answered 200; {@code %C0%AE%C0%AE} in
 * a query answered 500 with an ERROR line. Now: 403, no path, 405 with {@code Allow}, and 400
 * INVALID_ARGUMENT without a log line for every malformed encoding.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class LeastPrivilegeServeTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir static Path dir;
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

  private ChildJvm serve;
  private String bound;
  private String base;
  private String host;
  private String consoleBase;
  private String consoleToken;

  @BeforeAll
  void start() throws Exception {
    Path tokenFile = dir.resolve("host-token");
    serve = ChildJvm.start(dir, "serve", Map.of(), "serve", "--listen", "127.0.0.1:0", "--token-file",
        tokenFile.toString(), "--instance", "vm1", "--data-dir", dir.resolve("data").toString(), "--console", "127.0.0.1:0");
    bound = serve.awaitStderr("listening on http://(127\\.0\\.0\\.1:\\d+)", 60_000).group(1);
    Matcher console = serve.awaitStderr("tether serve: console: (http://127\\.0\\.0\\.1:\\d+)/#token=([A-Za-z0-9_-]{43})$", 60_000);
    base = "http://" + bound;
    host = Files.readString(tokenFile).trim();
    consoleBase = console.group(1);
    consoleToken = console.group(2);
  }

  @AfterAll
  void stop() {
    serve.close();
  }

  @Test
  void consoleToken_reachesNoTokenRoute() throws Exception {
    HttpResponse<String> mint = send("POST", consoleBase + "/v1/tokens", "{\"instance\":\"vm1\"}", consoleToken);
    assertEquals(403, mint.statusCode(), mint.body());
    assertEquals("PERMISSION_DENIED", code(mint));
    assertEquals(403, send("GET", consoleBase + "/v1/tokens", null, consoleToken).statusCode());
    assertEquals(200, send("GET", consoleBase + "/v1/instances/vm1/tether/poll", null, consoleToken).statusCode(),
        "the console still reads");
  }

  @Test
  void instanceToken_seesNoHostPath() throws Exception {
    HttpResponse<String> minted = send("POST", base + "/v1/tokens", "{\"instance\":\"vm1\"}", host);
    assertEquals(201, minted.statusCode(), minted.body());
    String vmToken = JSON.readTree(minted.body()).get("token").asText();
    HttpResponse<String> asGuest = send("GET", base + "/v1/instances/vm1", null, vmToken);
    assertEquals(200, asGuest.statusCode(), asGuest.body());
    JsonNode guestView = JSON.readTree(asGuest.body());
    assertTrue(guestView.path("workspace").asText("").isEmpty(), "no host path for an instance token: " + guestView);
    assertFalse(asGuest.body().contains(dir.toString()), asGuest.body());
    assertTrue(JSON.readTree(send("GET", base + "/v1/instances/vm1", null, host).body()).get("workspace").asText()
        .startsWith("/"), "the host token still sees it");
  }

  @Test
  void traceAndUnknownMethods_are405WithAllow() throws Exception {
    HostAddress address = HostAddress.parse(bound);
    for (String path : List.of("/v1/health", "/v1/ready", "/v1/instances/vm1", "/v1/instances/vm1/tether/poll")) {
      for (String method : List.of("TRACE", "OPTIONS", "BREW")) {
        RawSocket.Response r = RawSocket.exchange(address, method + " " + path + " HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer "
            + host + "\r\nConnection: close\r\n\r\n");
        assertEquals(405, r.status(), method + " " + path + ": " + r.headers() + "\n" + r.body());
        assertTrue(r.headers().toLowerCase(java.util.Locale.ROOT).contains("\nallow: "), r.headers());
        assertEquals("application/json", r.contentType(), r.headers());
        assertEquals("METHOD_NOT_ALLOWED", JSON.readTree(r.body()).path("error").path("code").asText(), r.body());
      }
    }
  }

  @Test
  void malformedEncodings_are400_withoutAnErrorLine() throws Exception {
    HostAddress address = HostAddress.parse(bound);
    long logBefore = serve.stderrText().length();
    for (String target : List.of("/v1/instances/vm1/tether/poll?channel=%C0%AE%C0%AE", "/v1/instances/vm1/tether/poll?channel=%zz",
        "/v1/instances/vm1/tether/poll?channel=%", "/v1/instances/vm1/tether/poll?session_id=%ff%fe",
        "/v1/instances/%C0%AE%C0%AE/tether/poll", "/v1/instances/vm1%zz", "/v1/instances/vm1%", "/v1/instances/%ff",
        "/v1/instances/vm1/tether/watermark?channel=%C0%AE")) {
      RawSocket.Response r = RawSocket.exchange(address, "GET " + target + " HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " + host
          + "\r\nConnection: close\r\n\r\n");
      assertEquals(400, r.status(), target + ": " + r.body());
      assertEquals("application/json", r.contentType(), target + ": " + r.headers());
      String errorCode = JSON.readTree(r.body()).path("error").path("code").asText();
      assertTrue(errorCode.equals("INVALID_ARGUMENT") || errorCode.equals("BAD_REQUEST"), target + ": " + r.body());
    }
    Thread.sleep(300);
    String log = serve.stderrText().substring((int) logBefore);
    assertFalse(log.contains("ERROR") || log.contains("SEVERE") || log.contains("Exception"), log);
    assertEquals(200, send("GET", base + "/v1/health", null, host).statusCode());
  }

  private HttpResponse<String> send(String method, String url, String body, String token) throws Exception {
    return http.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(30))
        .header("Authorization", "Bearer " + token).header("Content-Type", "application/json")
        .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body)).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private static String code(HttpResponse<String> r) throws Exception {
    return JSON.readTree(r.body()).path("error").path("code").asText();
  }
}
