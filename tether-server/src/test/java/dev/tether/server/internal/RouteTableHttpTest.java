package dev.tether.server.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tether.client.HostAddress;
import dev.tether.server.ServerListener;
import dev.tether.server.TetherServer;
import dev.tether.server.internal.RouteTable.Caller;
import dev.tether.server.internal.RouteTable.Route;
import dev.tether.server.testing.Fixtures;
import dev.tether.store.MemoryTetherStore;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Walks the route table ({@link ApiRoutes#TABLE}) over real HTTP: for every row, the host's request
 * reaches the row's handler (neither 404 "no such endpoint" nor 405), the row's callers are let in
 * and everyone else is refused (an instance token of its own instance, one of another instance,
 * the console), and the listener hears the row's metric name. A route added to the table is
 * checked here without a line more.
 */
class RouteTableHttpTest {
  private static final String HOST_TOKEN = "h".repeat(40);
  private static final String CONSOLE_TOKEN = "c".repeat(40);

  @TempDir Path dir;

  /** Records the route name of each request on the main listener. */
  static final class RecordingRoutes implements ServerListener {
    final List<String> routes = new CopyOnWriteArrayList<>();

    @Override
    public void requested(String route, String method, int status, long nanos) {
      routes.add(method + " " + route);
    }

    @Override
    public void frameRefused(String instance, dev.tether.api.ErrorCode code) {}
  }

  private record Answer(int status, String body) {
    String code() {
      try {
        JsonNode n = Json.MAPPER.readTree(body);
        return n.path("error").path("code").asText();
      } catch (Exception e) {
        return "";
      }
    }
  }

  @Test
  void everyRow_isDispatched_authorizedAsItsCallersSay_andMeteredByItsTemplate() throws Exception {
    RecordingRoutes heard = new RecordingRoutes();
    HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(30)).build();
    try (TetherServer server = TetherServer.builder().listen(new HostAddress.Tcp("127.0.0.1", 0)).token(HOST_TOKEN)
        .store(MemoryTetherStore.create()).workspaces(dir.resolve("ws")).registryFile(dir.resolve("data/instances.json"))
        .instance("vm1").instance("vm2").console(new HostAddress.Tcp("127.0.0.1", 0)).consoleToken(CONSOLE_TOKEN)
        .listener(heard).start()) {
      String api = "http://127.0.0.1:" + ((HostAddress.Tcp) server.boundAddress()).port();
      String console = "http://127.0.0.1:" + server.consoleAddress().orElseThrow().port();
      String own = mint(http, api, "vm1");
      String other = mint(http, api, "vm2");
      // Deleting vm1 ends its tokens: the rows that delete go last.
      List<Route> rows = new ArrayList<>(ApiRoutes.TABLE.routes());
      rows.sort(Comparator.comparing((Route r) -> "DELETE".equals(r.method()) && r.template().equals("/v1/instances/{id}")));
      List<String> wrong = new ArrayList<>();
      for (Route row : rows) {
        String path = concrete(row);
        check(wrong, row, Caller.INSTANCE, "own instance token", send(http, api, row, path, own), true);
        check(wrong, row, Caller.INSTANCE, "other instance token", send(http, api, row, path, other),
            !row.template().startsWith("/v1/instances/{id}"));
        check(wrong, row, Caller.CONSOLE, "console token", send(http, console, row, path, CONSOLE_TOKEN), true);
        int before = heard.routes.size();
        Answer host = send(http, api, row, path, HOST_TOKEN);
        if (host.status() == 405 || (host.status() == 404 && host.body().contains("no such endpoint"))
            || host.status() == 403 || host.status() == 401) {
          wrong.add(row.method() + " " + row.template() + " with the host token did not reach its handler: " + host);
        }
        while (heard.routes.size() == before) {
          Thread.onSpinWait(); // the listener is told after the response is sent
        }
        String metric = RouteNames.method(row.method()) + " " + row.metric();
        if (!heard.routes.contains(metric)) {
          wrong.add(row.method() + " " + row.template() + " was not metered as " + metric + ": " + heard.routes);
        }
      }
      assertEquals(List.of(), wrong);
    }
  }

  @Test
  void attachmentRoutes_areMeteredByTheirTemplates_notOther() {
    assertEquals("/v1/instances/{id}/attachments", RouteNames.of("/v1/instances/vm1/attachments"));
    assertEquals("/v1/instances/{id}/attachments/{name}", RouteNames.of("/v1/instances/vm1/attachments/a.txt"));
    assertEquals(RouteNames.OTHER, RouteNames.of("/v1/instances/vm1/attachments/"));
    assertEquals(RouteNames.OTHER, RouteNames.of("/v1/instances/vm1/attachments/a/b"));
    assertEquals(RouteNames.OTHER, RouteNames.of("/v1/tokens/"));
    assertEquals(RouteNames.OTHER, RouteNames.of(null));
  }

  /** {@code caller} is let in when the row lists it (and {@code inScope}), else refused; the host is checked apart. */
  private static void check(List<String> wrong, Route row, Caller caller, String who, Answer a, boolean inScope) {
    boolean expected = row.callers().contains(caller) && inScope;
    // Refused: 403 PERMISSION_DENIED, or for the console a method its listener does not pass (405 there).
    boolean refused = (a.status() == 403 && "PERMISSION_DENIED".equals(a.code()))
        || (caller == Caller.CONSOLE && a.status() == 405 && !"GET".equals(row.method()) && !"POST".equals(row.method()));
    if (expected == refused || a.status() == 401) {
      wrong.add(row.method() + " " + row.template() + " with the " + who + ": " + a + " (expected "
          + (expected ? "to be let in" : "a refusal") + ")");
    }
  }

  /** The row's template with vm1, and a query and body its handler accepts or refuses with a 4xx of its own. */
  private static String concrete(Route row) {
    String path = row.template().replace("{id}", "vm1").replace("{key}", "0".repeat(64)).replace("{name}", "a.txt");
    if (path.startsWith("/v1/tokens/")) {
      path = "/v1/tokens/no-such-token";
    }
    if (path.contains("/attachments")) {
      return path + "?session_id=s&name=a.txt";
    }
    if (path.endsWith("/watermark")) {
      return path + "?channel=agent";
    }
    return path;
  }

  private static Answer send(HttpClient http, String base, Route row, String path, String token) throws Exception {
    byte[] body = switch (row.template()) {
      case "/v1/instances/{id}/tether" -> Fixtures.wire(Fixtures.userMessage("s", "hi"));
      case "/v1/instances/{id}/tether/watermark" -> "{\"seq\":1}".getBytes(StandardCharsets.UTF_8);
      case "/v1/tokens" -> "{\"instance\":\"vm1\"}".getBytes(StandardCharsets.UTF_8);
      case "/v1/instances/{id}/blob" -> Fixtures.picture("png", 3, 3);
      default -> new byte[0];
    };
    String type = row.template().endsWith("/blob") ? "image/png" : "application/json";
    HttpRequest request = HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(60))
        .header("Authorization", "Bearer " + token).header("Content-Type", type)
        .method(row.method(), "GET".equals(row.method()) || "HEAD".equals(row.method()) || "DELETE".equals(row.method())
            ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofByteArray(body))
        .build();
    HttpResponse<InputStream> r = http.send(request, HttpResponse.BodyHandlers.ofInputStream());
    try (InputStream in = r.body()) {
      // A stream that was let in stays open: its status is the answer.
      boolean openStream = r.statusCode() == 200 && row.template().endsWith("/stream");
      return new Answer(r.statusCode(), openStream ? "" : new String(in.readAllBytes(), StandardCharsets.UTF_8));
    }
  }

  private static String mint(HttpClient http, String base, String instance) throws Exception {
    HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(base + "/v1/tokens"))
        .header("Authorization", "Bearer " + HOST_TOKEN).header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString("{\"instance\":\"" + instance + "\"}")).build(), HttpResponse.BodyHandlers.ofString());
    assertEquals(201, r.statusCode(), r.body());
    return Json.MAPPER.readTree(r.body()).get("token").asText();
  }
}
