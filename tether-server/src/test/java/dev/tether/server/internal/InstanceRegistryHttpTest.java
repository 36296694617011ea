package dev.tether.server.internal;

import dev.tether.server.testing.RawHttp;
import dev.tether.server.testing.Fixtures;
import dev.tether.client.HostAddress;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tether.images.FrameValidator;
import dev.tether.store.MemoryTetherStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The instance registry over HTTP: PUT/GET/DELETE, 404 INSTANCE_NOT_FOUND everywhere, watermarks. */
class InstanceRegistryHttpTest {
  private static final String TEXT = "{\"v\":1,\"type\":\"user.message\",\"session\":{\"channel\":\"host\",\"id\":\"s\"},\"payload\":{\"text\":\"hi\"}}";

  @TempDir Path dir;
  private Daemon server;
  private RawHttp http;
  private InstanceRegistry registry;

  @BeforeEach
  void start() throws Exception {
    registry = InstanceRegistry.open(dir.resolve("workspaces"), dir.resolve("instances.json"), false);
    registry.put("default", null);
    HostAddress.Unix address = new HostAddress.Unix(dir.resolve("run/tether.sock"));
    server = Daemon.start(address, MemoryTetherStore.create(), FrameValidator.standard(), null, 16,
        Daemon.defaultIngressBytes(), registry);
    http = new RawHttp(address);
  }

  @AfterEach
  void stop() throws Exception {
    http.close();
    server.close();
  }

  @Test
  void everyRouteOnAnUnknownInstance_404InstanceNotFound_andCreatesNothing() throws Exception {
    List<RawHttp.Reply> replies = List.of(
        http.get("/v1/instances/ghost"),
        http.post("/v1/instances/ghost/tether", Fixtures.utf8(TEXT)),
        http.get("/v1/instances/ghost/tether/poll"),
        http.get("/v1/instances/ghost/tether/poll?wait_ms=100"),
        http.get("/v1/instances/ghost/tether/stream"),
        http.get("/v1/instances/ghost/tether/watermark?channel=ui"),
        http.post("/v1/instances/ghost/tether/watermark?channel=ui", Fixtures.utf8("{\"seq\":3}")),
        http.send("POST", "/v1/instances/ghost/blob", "image/png", Fixtures.picture("png", 2, 2)),
        http.get("/v1/instances/ghost/blob/" + "a".repeat(64) + ".png"),
        http.method("DELETE", "/v1/instances/ghost"));
    for (RawHttp.Reply r : replies) {
      assertEquals(404, r.status(), r.body());
      assertEquals("INSTANCE_NOT_FOUND", r.errorCode(), r.body());
      assertTrue(r.json().path("error").path("message").asText().contains("PUT /v1/instances/ghost"), r.body());
    }
    assertEquals(0, server.store().lastSeq("ghost"));
    assertTrue(registry.find("ghost").isEmpty());
    assertFalse(Files.exists(dir.resolve("workspaces/ghost")));
  }

  @Test
  void put_createsWithDefaultWorkspace_thenGetAndListDescribeIt() throws Exception {
    RawHttp.Reply created = http.send("PUT", "/v1/instances/vm-2", null, new byte[0]);
    assertEquals(201, created.status(), created.body());
    assertEquals(dir.resolve("workspaces/vm-2").toString(), created.json().get("workspace").asText());
    assertTrue(Files.isDirectory(dir.resolve("workspaces/vm-2")));
    assertEquals(200, http.send("PUT", "/v1/instances/vm-2", null, new byte[0]).status(), "PUT again is idempotent");
    assertEquals(202, http.post("/v1/instances/vm-2/tether", Fixtures.utf8(TEXT)).status());

    JsonNode one = http.get("/v1/instances/vm-2").json();
    assertEquals("vm-2", one.get("id").asText());
    assertEquals("running", one.get("state").asText());
    assertTrue(one.get("enabled").asBoolean());
    assertTrue(one.get("created_at").isTextual());
    assertEquals(2, one.get("next_seq").asLong());
    assertEquals(1, one.get("oldest_seq").asLong());
    assertEquals(1, one.get("frames").asInt());
    assertTrue(one.get("bytes").asLong() > 0);
    assertEquals(0, one.get("waiters").asInt());

    JsonNode list = http.get("/v1/instances").json();
    assertTrue(list.isArray(), "the reference client decodes a bare array");
    assertEquals(List.of("default", "vm-2"), List.of(list.get(0).get("id").asText(), list.get(1).get("id").asText()));
  }

  @Test
  void put_withWorkspace_usesIt_andAnotherWorkspaceLater_409() throws Exception {
    Path ws = dir.resolve("workspaces").resolve("my ws");
    RawHttp.Reply r = http.send("PUT", "/v1/instances/w1", "application/json",
        Fixtures.utf8("{\"workspace\":" + Json.MAPPER.writeValueAsString(ws.toString()) + "}"));
    assertEquals(201, r.status(), r.body());
    assertEquals(ws.toString(), r.json().get("workspace").asText());
    RawHttp.Reply conflict = http.send("PUT", "/v1/instances/w1", "application/json",
        Fixtures.utf8("{\"workspace\":" + Json.MAPPER.writeValueAsString(dir.resolve("workspaces").resolve("else").toString()) + "}"));
    assertEquals(409, conflict.status(), conflict.body());
    assertEquals("CONFLICT", conflict.errorCode());
  }

  @Test
  void put_badIdsAndBodies_400() throws Exception {
    for (String id : List.of("..", ".hidden", "a%2Fb", "x".repeat(129))) {
      RawHttp.Reply r = http.send("PUT", "/v1/instances/" + id, null, new byte[0]);
      assertTrue(r.status() == 400 || r.status() == 404, id + " -> " + r.body());
    }
    assertEquals(400, http.send("PUT", "/v1/instances/ok", "application/json", Fixtures.utf8("[1]")).status());
    assertEquals(400, http.send("PUT", "/v1/instances/ok", "application/json", Fixtures.utf8("{\"workspace\":\"relative/dir\"}")).status());
    assertTrue(registry.find("ok").isEmpty());
  }

  @Test
  void delete_endsAWaitingPollWithInstanceNotFound_andForgetsFrames() throws Exception {
    assertEquals(202, http.post("/v1/instances/default/tether", Fixtures.utf8(TEXT)).status());
    CompletableFuture<RawHttp.Reply> waiting = CompletableFuture.supplyAsync(() -> {
      try {
        return http.get("/v1/instances/default/tether/poll?after_seq=1&wait_ms=20000");
      } catch (Exception e) {
        throw new IllegalStateException(e);
      }
    });
    long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
    while (server.handler().waitsInProgress() == 0 && System.nanoTime() < until) {
      Thread.sleep(10);
    }
    RawHttp.Reply deleted = http.method("DELETE", "/v1/instances/default");
    assertEquals(200, deleted.status(), deleted.body());
    RawHttp.Reply poll = waiting.get(20, TimeUnit.SECONDS);
    assertEquals(404, poll.status(), poll.body());
    assertEquals("INSTANCE_NOT_FOUND", poll.errorCode());
    assertEquals(404, http.get("/v1/instances/default").status());
    assertEquals(201, http.send("PUT", "/v1/instances/default", null, new byte[0]).status());
    assertEquals(0, http.get("/v1/instances/default/tether/poll").json().get("frames").size(), "the old frames are gone");
    assertEquals(2, http.post("/v1/instances/default/tether", Fixtures.utf8(TEXT)).json().get("ingress_seq").asLong(),
        "seqs are never reused after a delete");
  }

  @Test
  void watermark_getDefaultsToZero_postStores_persistsAcrossReopen() throws Exception {
    assertEquals(0, http.get("/v1/instances/default/tether/watermark?channel=ui").json().get("seq").asLong());
    RawHttp.Reply set = http.post("/v1/instances/default/tether/watermark?channel=ui", Fixtures.utf8("{\"seq\":42}"));
    assertEquals(200, set.status(), set.body());
    assertEquals(42, set.json().get("seq").asLong());
    assertEquals(42, http.get("/v1/instances/default/tether/watermark?channel=ui").json().get("seq").asLong());
    assertEquals(0, http.get("/v1/instances/default/tether/watermark?channel=telegram").json().get("seq").asLong());
    InstanceRegistry reopened = InstanceRegistry.open(dir.resolve("workspaces"), dir.resolve("instances.json"), false);
    assertEquals(42, reopened.watermark("default", "ui"));
  }

  @Test
  void watermark_withoutChannelOrWithBadBody_400() throws Exception {
    assertEquals(400, http.get("/v1/instances/default/tether/watermark").status());
    assertEquals(400, http.post("/v1/instances/default/tether/watermark?channel=ui", Fixtures.utf8("{\"seq\":\"x\"}")).status());
    assertEquals(400, http.post("/v1/instances/default/tether/watermark?channel=ui", Fixtures.utf8("{\"seq\":-1}")).status());
    assertEquals(400, http.post("/v1/instances/default/tether/watermark?channel=ui", Fixtures.utf8("nope")).status());
  }

  @Test
  void autoCreate_registersAnUnknownInstanceOnUse() throws Exception {
    http.close();
    server.close();
    registry = InstanceRegistry.open(dir.resolve("workspaces2"), null, true);
    HostAddress.Unix address = new HostAddress.Unix(dir.resolve("run/tether2.sock"));
    server = Daemon.start(address, MemoryTetherStore.create(), FrameValidator.standard(), null, 16,
        Daemon.defaultIngressBytes(), registry);
    http = new RawHttp(address);
    assertEquals(202, http.post("/v1/instances/fresh/tether", Fixtures.utf8(TEXT)).status());
    assertEquals(dir.resolve("workspaces2/fresh").toString(), http.get("/v1/instances/fresh").json().get("workspace").asText());
  }

  private RawHttp.Reply putWorkspace(String id, String workspace) throws Exception {
    return http.send("PUT", "/v1/instances/" + id, "application/json",
        Fixtures.utf8("{\"workspace\":" + Json.MAPPER.writeValueAsString(workspace) + "}"));
  }

  @Test
  void workspaceOutsideTheRoots_throughDotDot_throughALink_orAFile_is400NamingTheRule_andCreatesNothing() throws Exception {
    Path root = dir.resolve("workspaces");
    Path outside = Files.createDirectories(dir.resolve("outside"));
    Files.createSymbolicLink(root.resolve("link"), outside);
    Files.writeString(root.resolve("afile"), "x");
    record Case(String workspace, String rule) {}
    List<Case> cases = List.of(
        new Case("/etc", "inside a workspace root"),
        new Case(root + "/x/../../", "'..'"),
        new Case(root.toString(), "inside a workspace root"),
        new Case(root.resolve("link").toString(), "symbolic link"),
        new Case(root.resolve("link").resolve("deeper").toString(), "symbolic link"),
        new Case(root.resolve("afile").toString(), "is a file"),
        new Case(root.resolve("afile").resolve("below").toString(), "is a file"),
        new Case(outside.resolve("new").toString(), "inside a workspace root"));
    for (Case c : cases) {
      RawHttp.Reply r = putWorkspace("w", c.workspace());
      assertEquals(400, r.status(), c + " -> " + r.body());
      assertEquals("INVALID_ARGUMENT", r.errorCode(), r.body());
      assertTrue(r.body().contains(c.rule()), c + " -> " + r.body());
      assertFalse(r.body().contains("Exception"), r.body());
    }
    assertTrue(registry.find("w").isEmpty());
    assertFalse(Files.exists(outside.resolve("new")), "nothing was created outside the roots");
    assertFalse(Files.exists(outside.resolve("deeper")));
  }

  @Test
  void twoInstances_neverShareAWorkspace_norNestOne() throws Exception {
    Path root = dir.resolve("workspaces");
    assertEquals(201, putWorkspace("a", root.resolve("shared").toString()).status());
    for (Path clash : List.of(root.resolve("shared"), root.resolve("shared").resolve("inner"), root.resolve("default"))) {
      RawHttp.Reply r = putWorkspace("b", clash.toString());
      assertEquals(409, r.status(), clash + " -> " + r.body());
      assertTrue(r.body().contains("two instances never share one"), r.body());
    }
    assertEquals(201, putWorkspace("b", root.resolve("own").toString()).status());
  }

  @Test
  void registry_isBoundedByMaxInstances() throws Exception {
    http.close();
    server.close();
    registry = InstanceRegistry.open(List.of(dir.resolve("ws3")), null, false, 3);
    HostAddress.Unix address = new HostAddress.Unix(dir.resolve("run/tether3.sock"));
    server = Daemon.start(address, MemoryTetherStore.create(), FrameValidator.standard(), null, 16, Daemon.defaultIngressBytes(), registry);
    http = new RawHttp(address);
    for (int i = 0; i < 3; i++) {
      assertEquals(201, http.send("PUT", "/v1/instances/i" + i, null, new byte[0]).status());
    }
    RawHttp.Reply full = http.send("PUT", "/v1/instances/i3", null, new byte[0]);
    assertEquals(503, full.status(), full.body());
    assertEquals("TOO_MANY_INSTANCES", full.errorCode());
    assertFalse(Files.exists(dir.resolve("ws3/i3")), "no directory for a refused instance");
    assertEquals(200, http.method("DELETE", "/v1/instances/i0").status());
    assertEquals(201, http.send("PUT", "/v1/instances/i3", null, new byte[0]).status());
  }

  @Test
  void watermarks_areBoundedPerInstance_namedLikeChannels_andWrittenWithoutTheRegistryFile() throws Exception {
    byte[] registryBefore = Files.readAllBytes(dir.resolve("instances.json"));
    for (int i = 0; i < InstanceRegistry.MAX_WATERMARKS; i++) {
      assertEquals(200, http.post("/v1/instances/default/tether/watermark?channel=c" + i, Fixtures.utf8("{\"seq\":" + i + "}")).status());
    }
    RawHttp.Reply over = http.post("/v1/instances/default/tether/watermark?channel=one-more", Fixtures.utf8("{\"seq\":1}"));
    assertEquals(400, over.status(), over.body());
    assertTrue(over.body().contains("the limit"), over.body());
    assertEquals(200, http.post("/v1/instances/default/tether/watermark?channel=c0", Fixtures.utf8("{\"seq\":99}")).status(),
        "a known channel can still move");
    for (String bad : List.of("a%00b", "a%0Ab", "x".repeat(65), "-lead", "sp%20ace")) {
      RawHttp.Reply r = http.post("/v1/instances/default/tether/watermark?channel=" + bad, Fixtures.utf8("{\"seq\":1}"));
      assertEquals(400, r.status(), bad + " -> " + r.body());
    }
    org.junit.jupiter.api.Assertions.assertArrayEquals(registryBefore, Files.readAllBytes(dir.resolve("instances.json")),
        "moving a watermark does not rewrite the registry");
    InstanceRegistry reopened = InstanceRegistry.open(dir.resolve("workspaces"), dir.resolve("instances.json"), false);
    assertEquals(99, reopened.watermark("default", "c0"));
  }

  @Test
  void bodiesWithTrailingData_andPathParameters_are400() throws Exception {
    RawHttp.Reply trailing = http.post("/v1/instances/default/tether/watermark?channel=ui", Fixtures.utf8("{\"seq\":1} garbage"));
    assertEquals(400, trailing.status(), trailing.body());
    RawHttp.Reply twoValues = http.send("PUT", "/v1/instances/t", "application/json", Fixtures.utf8("{} {}"));
    assertEquals(400, twoValues.status(), twoValues.body());
    RawHttp.Reply param = http.get("/v1/instances/x;y");
    assertEquals(400, param.status(), param.body());
    assertTrue(param.body().contains("path parameters"), param.body());
    assertEquals(400, http.get("/v1/instances/default;v=1/tether/poll").status());
  }
}
