package dev.tether.server.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tether.client.HostAddress;
import dev.tether.server.TetherServer;
import dev.tether.server.testing.Fixtures;
import dev.tether.server.testing.RawHttp;
import dev.tether.store.MemoryTetherStore;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Tokens scoped to an instance, as a table: every route against the host token, a token of its
 * own instance, a token of another instance, a revoked token and none. A scoped token reaches its
 * instance's tether, blob and watermark routes (and its info), nothing else: 403
 * PERMISSION_DENIED; a revoked token or none is 401.
 */
class ScopedTokensHttpTest {
  private static final String HOST_TOKEN = "h".repeat(40);

  @TempDir Path dir;
  private TetherServer server;
  private RawHttp http;

  /** One route: how to call it, what the host token gets, and whether a token of vm1 may take it. */
  private record Route(String method, String path, String contentType, byte[] body, int hostStatus, boolean vm1Route) {
    @Override
    public String toString() {
      return method + " " + path;
    }
  }

  @BeforeEach
  void start() throws Exception {
    server = TetherServer.builder().listen(new HostAddress.Tcp("127.0.0.1", 0)).token(HOST_TOKEN)
        .store(MemoryTetherStore.create()).workspaces(dir.resolve("ws")).registryFile(dir.resolve("data/instances.json"))
        .instance("vm1").instance("vm2").instance("doomed").start();
    http = new RawHttp(server.boundAddress());
  }

  @AfterEach
  void stop() {
    http.close();
    server.close();
  }

  private RawHttp.Reply call(Route r, String token) throws Exception {
    return token == null ? http.send(r.method(), r.path(), r.contentType(), r.body())
        : http.send(r.method(), r.path(), r.contentType(), r.body(), "Bearer " + token);
  }

  private String mint(String instance) throws Exception {
    RawHttp.Reply r = http.send("POST", "/v1/tokens", "application/json",
        ("{\"instance\":\"" + instance + "\"}").getBytes(StandardCharsets.UTF_8), "Bearer " + HOST_TOKEN);
    assertEquals(201, r.status(), r.body());
    return r.json().get("token").asText();
  }

  @Test
  void everyRoute_againstEveryKindOfToken() throws Exception {
    String own = mint("vm1");
    String other = mint("vm2");
    String revokedToken = mint("vm1");
    String revokedId = null;
    for (var n : http.get("/v1/tokens", "Bearer " + HOST_TOKEN).json()) {
      revokedId = n.get("id").asText(); // the newest is last
    }
    assertEquals(200, http.send("DELETE", "/v1/tokens/" + revokedId, null, null, "Bearer " + HOST_TOKEN).status());

    byte[] frame = Fixtures.wire(Fixtures.userMessage("s", "hi"));
    byte[] png = Fixtures.picture("png", 3, 3);
    byte[] seq = "{\"seq\":1}".getBytes(StandardCharsets.UTF_8);
    List<Route> routes = List.of(
        new Route("POST", "/v1/instances/vm1/tether", "application/json", frame, 202, true),
        new Route("GET", "/v1/instances/vm1/tether/poll", null, null, 200, true),
        new Route("POST", "/v1/instances/vm1/tether/watermark?channel=agent", "application/json", seq, 200, true),
        new Route("GET", "/v1/instances/vm1/tether/watermark?channel=agent", null, null, 200, true),
        new Route("POST", "/v1/instances/vm1/blob", "image/png", png, 200, true),
        new Route("GET", "/v1/instances/vm1", null, null, 200, true),
        new Route("POST", "/v1/instances/vm2/tether", "application/json", frame, 202, false),
        new Route("GET", "/v1/instances/vm2/tether/poll", null, null, 200, false),
        new Route("POST", "/v1/instances/vm2/blob", "image/png", png, 200, false),
        new Route("GET", "/v1/instances/vm2", null, null, 200, false),
        new Route("GET", "/v1/instances", null, null, 200, false),
        new Route("PUT", "/v1/instances/vm3", "application/json", new byte[0], 201, false),
        new Route("GET", "/v1/tokens", null, null, 200, false),
        new Route("POST", "/v1/tokens", "application/json", "{\"instance\":\"vm1\"}".getBytes(StandardCharsets.UTF_8), 201, false),
        new Route("DELETE", "/v1/instances/vm1", null, null, 200, false)); // last: it revokes vm1's tokens

    Map<String, String> tokens = new LinkedHashMap<>();
    tokens.put("own instance token", own);
    tokens.put("other instance token", other);
    tokens.put("revoked token", revokedToken);
    tokens.put("no token", null);
    List<String> wrong = new ArrayList<>();
    for (Route r : routes) {
      for (var t : tokens.entrySet()) {
        int expected = switch (t.getKey()) {
          case "own instance token" -> r.vm1Route() ? r.hostStatus() : 403;
          case "other instance token" -> 403; // every vm2 route of the table is a host route except vm2's own, below
          default -> 401;
        };
        if (t.getKey().equals("other instance token") && r.path().startsWith("/v1/instances/vm2")) {
          expected = r.hostStatus();
        }
        RawHttp.Reply reply = call(r, t.getValue());
        if (reply.status() != expected) {
          wrong.add(r + " with " + t.getKey() + ": " + reply.status() + " (expected " + expected + ") " + reply.body());
        } else if (expected == 403 && !"PERMISSION_DENIED".equals(reply.errorCode())) {
          wrong.add(r + " with " + t.getKey() + ": 403 without PERMISSION_DENIED: " + reply.body());
        }
      }
    }
    // The host token last: it may delete vm1, which revokes vm1's tokens.
    for (Route r : routes) {
      RawHttp.Reply reply = call(r, HOST_TOKEN);
      if (reply.status() != r.hostStatus()) {
        wrong.add(r + " with the host token: " + reply.status() + " (expected " + r.hostStatus() + ") " + reply.body());
      }
    }
    assertEquals(List.of(), wrong);
    assertEquals(401, http.get("/v1/instances/vm1/tether/poll", "Bearer " + own).status(), "deleting vm1 revoked its tokens");
  }

  @Test
  void onlyHashesAreStored_ownerOnly_andRevocationSurvivesARestart() throws Exception {
    String token = mint("vm1");
    Path file = dir.resolve("data/tokens.json");
    String stored = Files.readString(file);
    assertFalse(stored.contains(token), "the secret itself is never written");
    assertTrue(stored.contains("sha256"), stored);
    assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)));
    http.close();
    server.close();
    start();
    assertEquals(200, http.get("/v1/instances/vm1/tether/poll", "Bearer " + token).status(), "a token survives a restart");
    String id = http.get("/v1/tokens", "Bearer " + HOST_TOKEN).json().get(0).get("id").asText();
    assertEquals(200, http.send("DELETE", "/v1/tokens/" + id, null, null, "Bearer " + HOST_TOKEN).status());
    http.close();
    server.close();
    start();
    assertEquals(401, http.get("/v1/instances/vm1/tether/poll", "Bearer " + token).status(), "so does its revocation");
  }
}
