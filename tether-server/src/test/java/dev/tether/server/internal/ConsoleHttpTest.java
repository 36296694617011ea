package dev.tether.server.internal;

import dev.tether.server.testing.RawSocket;
import dev.tether.server.testing.RawHttp;
import dev.tether.client.HostAddress;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tether.images.FrameValidator;
import dev.tether.store.MemoryTetherStore;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The console listener over real HTTP on 127.0.0.1: the token guards the API and nothing else,
 * security headers on every answer, only the page's own files are served.
 */
class ConsoleHttpTest {
  @TempDir Path dir;
  private Daemon server;
  private String token;
  private HostAddress.Tcp console;
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(30)).build();

  @BeforeEach
  void start() throws Exception {
    token = BearerAuth.newToken();
    server = Daemon.start(new HostAddress.Unix(dir.resolve("t.sock")), MemoryTetherStore.create(), FrameValidator.standard(),
        null, 16, Daemon.defaultIngressBytes(), InstanceRegistry.open(dir.resolve("ws"), null, false),
        new Daemon.Console(new HostAddress.Tcp("127.0.0.1", 0), token));
    server.registry().put("default", null);
    console = server.consoleAddress().orElseThrow();
  }

  @AfterEach
  void stop() {
    server.close();
  }

  private HttpResponse<String> get(String path, String... headers) throws Exception {
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + console.port() + path))
        .timeout(Duration.ofSeconds(60));
    if (headers.length > 0) {
      b.headers(headers);
    }
    return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
  }

  private static String code(HttpResponse<String> r) throws Exception {
    return Json.MAPPER.readTree(r.body()).path("error").path("code").asText();
  }

  @Test
  void consoleToken_reachesNoTokenRoute_andBadEncodingsAre400() throws Exception {
    HttpResponse<String> mint = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + console.port() + "/v1/tokens"))
        .header("Authorization", "Bearer " + token).POST(HttpRequest.BodyPublishers.ofString("{\"instance\":\"default\"}")).build(),
        HttpResponse.BodyHandlers.ofString());
    assertEquals(403, mint.statusCode(), mint.body());
    assertEquals("PERMISSION_DENIED", code(mint));
    assertEquals(403, get("/v1/tokens", "Authorization", "Bearer " + token).statusCode());
    for (String target : java.util.List.of("/v1/instances/default/tether/poll?channel=%C0%AE%C0%AE", "/v1/instances/%C0%AE%C0%AE",
        "/%C0%AE%C0%AE", "/v1/%zz")) {
      RawSocket.Response r = RawSocket.exchange(console, "GET " + target + " HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " + token
          + "\r\nConnection: close\r\n\r\n");
      assertEquals(400, r.status(), target + ": " + r.body());
      assertEquals("application/json", r.contentType(), target);
    }
  }

  @Test
  void newToken_is32RandomBytes_urlSafeBase64() {
    assertTrue(token.matches("[A-Za-z0-9_-]{43}"), token);
    assertNotEquals(token, BearerAuth.newToken());
  }

  @Test
  void api_withoutToken_is401Unauthorized() throws Exception {
    HttpResponse<String> r = get("/v1/instances");
    assertEquals(401, r.statusCode());
    assertEquals("UNAUTHORIZED", code(r));
    assertEquals("no-store", r.headers().firstValue("Cache-Control").orElse(""));
    assertFalse(r.body().contains("default"), r.body());
  }

  @Test
  void api_withWrongToken_is401_evenWhenOnlyTheLastCharacterDiffers() throws Exception {
    String wrong = token.substring(0, token.length() - 1) + (token.endsWith("A") ? "B" : "A");
    assertEquals(401, get("/v1/instances", "Authorization", "Bearer " + wrong).statusCode());
    assertEquals(401, get("/v1/instances", "Authorization", "Basic " + token).statusCode());
    assertEquals(401, get("/v1/instances/default/tether/poll", "Authorization", "Bearer " + token.toUpperCase(Locale.ROOT)).statusCode());
  }

  @Test
  void api_tokenInCookieOrQuery_isNotAccepted() throws Exception {
    assertEquals(401, get("/v1/instances", "Cookie", "token=" + token).statusCode());
    assertEquals(401, get("/v1/instances?token=" + token).statusCode());
  }

  @Test
  void api_withToken_answersLikeTheMainListener() throws Exception {
    HttpResponse<String> r = get("/v1/instances", "Authorization", "Bearer " + token);
    assertEquals(200, r.statusCode(), r.body());
    assertEquals("default", Json.MAPPER.readTree(r.body()).get(0).path("id").asText());
    assertEquals("no-store", r.headers().firstValue("Cache-Control").orElse(""));
    assertEquals(ConsoleRoutes.CONTENT_SECURITY_POLICY, r.headers().firstValue("Content-Security-Policy").orElse(""));
    HttpResponse<String> missing = get("/v1/instances/nope", "Authorization", "Bearer " + token);
    assertEquals(404, missing.statusCode());
    assertEquals("INSTANCE_NOT_FOUND", code(missing));
  }

  @Test
  void api_deleteAndPut_areRefusedOnTheConsole() throws Exception {
    HttpRequest delete = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + console.port() + "/v1/instances/default"))
        .header("Authorization", "Bearer " + token).DELETE().build();
    HttpResponse<String> r = http.send(delete, HttpResponse.BodyHandlers.ofString());
    assertEquals(405, r.statusCode());
    assertEquals("METHOD_NOT_ALLOWED", code(r));
    assertTrue(server.registry().find("default").isPresent(), "the instance is still there");
  }

  @Test
  void page_isServedWithoutToken_withStrictCspAndNosniff() throws Exception {
    HttpResponse<String> r = get("/");
    assertEquals(200, r.statusCode());
    assertTrue(r.headers().firstValue("Content-Type").orElse("").startsWith("text/html"));
    assertEquals(ConsoleRoutes.CONTENT_SECURITY_POLICY, r.headers().firstValue("Content-Security-Policy").orElse(""));
    assertTrue(ConsoleRoutes.CONTENT_SECURITY_POLICY.contains("default-src 'none'"));
    assertTrue(ConsoleRoutes.CONTENT_SECURITY_POLICY.contains("script-src 'self';"));
    assertEquals("nosniff", r.headers().firstValue("X-Content-Type-Options").orElse(""));
    assertEquals("no-referrer", r.headers().firstValue("Referrer-Policy").orElse(""));
    assertTrue(r.body().contains("<script type=\"module\" src=\"console.js\"></script>"), r.body());
    assertFalse(r.body().matches("(?s).*<script>.*"), "no inline script");
    assertFalse(r.body().contains("style="), "no inline style");
    HttpResponse<String> js = get("/console.js");
    assertEquals(200, js.statusCode());
    assertTrue(js.headers().firstValue("Content-Type").orElse("").startsWith("text/javascript"));
    assertFalse(js.body().contains("innerHTML"), "frames are inserted as text");
    assertEquals(200, get("/console.css").statusCode());
  }

  @Test
  void staticFiles_traversalAndOtherResources_areRefused() throws Exception {
    for (String path : new String[] {"/../console/index.html", "/%2e%2e/%2e%2e/pom.xml", "/console/index.html",
        "/dev/tether/cli/Daemon.class", "/..%2fversion.properties", "/console.js%00", "/version.properties",
        "/index.html/", "//etc/passwd", "/%2Fetc%2Fpasswd"}) {
      RawSocket.Response r = RawSocket.exchange(console,
          "GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");
      assertTrue(r.status() == 400 || r.status() == 404, path + " -> " + r.status() + " " + r.body());
      assertTrue(r.contentType().startsWith("application/json"), path + " -> " + r.contentType());
      assertFalse(r.body().contains("<html") || r.body().contains("import ") || r.body().contains("version="), path + " -> " + r.body());
    }
  }

  @Test
  void mainListener_servesNoPage() throws Exception {
    try (RawHttp main = new RawHttp(server.boundAddress())) {
      RawHttp.Reply page = main.get("/");
      assertEquals(404, page.status());
      assertFalse(page.body().contains("<html"));
    }
  }
}
