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
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The exact JSON the reference system's Go clients (aegis-mcp, aegis-gateway, the client library
 * internal/client) send, and the shapes they decode, pinned here because CI cannot run them. The
 * request bodies are copied from what those clients build (field order included).
 */
class ReferenceClientsWireTest {
  @TempDir Path dir;
  private Daemon server;
  private RawHttp http;
  private Path workspace;

  @BeforeEach
  void start() throws Exception {
    InstanceRegistry registry = InstanceRegistry.open(dir.resolve("workspaces"), null, false);
    workspace = registry.put("agent1", null).entry().workspace();
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

  /** As the reference's blob.Put: {workspace}/.aegis/blobs, a temp file, then a rename. */
  private String putBlobLikeTheGoClients(byte[] bytes, String ext) throws Exception {
    Path blobs = Files.createDirectories(workspace.resolve(".aegis/blobs"));
    String key = BlobFiles.sha256Hex(bytes) + "." + ext;
    Path tmp = Files.createTempFile(blobs, ".tmp-", "");
    Files.write(tmp, bytes);
    Files.move(tmp, blobs.resolve(key), StandardCopyOption.ATOMIC_MOVE);
    return key;
  }

  @Test
  void mcpTetherSend_text_accepted202_withIngressSeq() throws Exception {
    String body = "{\"msg_id\":\"host-1700000000000000001\",\"payload\":{\"text\":\"hello\"},\"session\":{\"channel\":\"host\",\"id\":\"default\"},"
        + "\"ts\":\"2026-11-23T10:00:00.123456789Z\",\"type\":\"user.message\",\"v\":1}";
    RawHttp.Reply r = http.post("/v1/instances/agent1/tether", Fixtures.utf8(body));
    assertEquals(202, r.status(), r.body());
    JsonNode n = r.json();
    assertEquals("host-1700000000000000001", n.get("msg_id").asText());
    assertEquals("default", n.get("session_id").asText());
    assertTrue(n.get("ingress_seq").isIntegralNumber());
    assertEquals(1, n.get("ingress_seq").asLong());
  }

  @Test
  void mcpTetherSend_imageAsBlobRefWrittenIntoTheWorkspace_accepted_andReadBackAsRef() throws Exception {
    JsonNode info = http.get("/v1/instances/agent1").json();
    assertEquals(workspace.toString(), info.get("workspace").asText(), "the MCP server looks for the workspace here");
    byte[] png = Fixtures.picture("png", 8, 8);
    String key = putBlobLikeTheGoClients(png, "png");
    String body = "{\"msg_id\":\"host-2\",\"payload\":{\"images\":[{\"blob\":\"" + key + "\",\"media_type\":\"image/png\",\"size\":" + png.length
        + "}],\"text\":\"what is this?\"},\"session\":{\"channel\":\"host\",\"id\":\"default\"},\"ts\":\"2026-11-23T10:00:00Z\",\"type\":\"user.message\",\"v\":1}";
    assertEquals(202, http.post("/v1/instances/agent1/tether", Fixtures.utf8(body)).status());
    // tether_read's exact query
    JsonNode page = http.get("/v1/instances/agent1/tether/poll?channel=host&session_id=default&after_seq=0&limit=50&wait_ms=0").json();
    assertEquals(List.of("frames", "next_seq", "timed_out"), fieldNames(page));
    assertEquals(key, page.at("/frames/0/payload/images/0/blob").asText());
    assertEquals("image/png", page.at("/frames/0/payload/images/0/media_type").asText());
  }

  @Test
  void gatewayPhotoFrame_withTelegramSeqAndUser_accepted_seqAssignedByTheServer() throws Exception {
    byte[] jpg = Fixtures.picture("jpg", 8, 8);
    String key = putBlobLikeTheGoClients(jpg, "jpg");
    http.post("/v1/instances/agent1/tether", Fixtures.utf8("{\"v\":1,\"type\":\"user.message\",\"session\":{\"channel\":\"host\",\"id\":\"x\"},\"payload\":{\"text\":\"a\"}}"));
    String body = "{\"v\":1,\"type\":\"user.message\",\"ts\":\"2026-11-23T10:00:00Z\",\"session\":{\"channel\":\"telegram\",\"id\":\"4242\"},"
        + "\"msg_id\":\"tg-4242-7\",\"seq\":7,\"payload\":{\"images\":[{\"media_type\":\"image/jpeg\",\"blob\":\"" + key + "\",\"size\":" + jpg.length
        + "}],\"text\":\"caption\",\"user\":{\"id\":\"99\",\"name\":\"Tester\",\"username\":\"tester\"}}}";
    RawHttp.Reply r = http.post("/v1/instances/agent1/tether", Fixtures.utf8(body));
    assertTrue(r.status() < 300, "the gateway treats >= 300 as a failure: " + r.body());
    assertEquals(2, r.json().get("ingress_seq").asLong(), "the client's seq is ignored");
  }

  @Test
  void clientLibraryTetherSend_contentWithoutV_refused400_sayingWhatToSend() throws Exception {
    String body = "{\"content\":{\"text\":\"hi\"},\"msg_id\":\"msg-1\",\"session\":{\"id\":\"s1\"},\"type\":\"user.message\"}";
    RawHttp.Reply r = http.post("/v1/instances/agent1/tether", Fixtures.utf8(body));
    assertEquals(400, r.status(), r.body());
    assertEquals("MALFORMED_FRAME", r.errorCode());
    String message = r.json().at("/error/message").asText();
    assertTrue(message.contains("\"v\":1") && message.contains("payload") && message.contains("content"), message);
    assertEquals(0, server.store().lastSeq("agent1"), "never a user.message without its text");
  }

  @Test
  void clientLibraryTetherPoll_withoutParams_seesEveryChannel_andLimitDefaultsTo50() throws Exception {
    for (int i = 0; i < 60; i++) {
      String channel = i % 2 == 0 ? "telegram" : "host";
      http.post("/v1/instances/agent1/tether", Fixtures.utf8("{\"v\":1,\"type\":\"user.message\",\"session\":{\"channel\":\"" + channel
          + "\",\"id\":\"s" + (i % 3) + "\"},\"payload\":{\"text\":\"m" + i + "\"}}"));
    }
    JsonNode all = http.get("/v1/instances/agent1/tether/poll").json();
    assertEquals(50, all.get("frames").size());
    assertEquals(50, all.get("next_seq").asLong());
    assertFalse(all.get("timed_out").asBoolean());
    for (String limit : List.of("0", "-5")) {
      assertEquals(50, http.get("/v1/instances/agent1/tether/poll?limit=" + limit).json().get("frames").size(), limit);
    }
    assertEquals(60, http.get("/v1/instances/agent1/tether/poll?limit=500").json().get("frames").size());
    assertEquals(30, http.get("/v1/instances/agent1/tether/poll?channel=telegram&limit=200").json().get("frames").size());
    assertEquals(20, http.get("/v1/instances/agent1/tether/poll?session_id=s0&limit=200").json().get("frames").size());
    assertEquals(60, http.get("/v1/instances/agent1/tether/poll?channel=*&session_id=*&limit=200").json().get("frames").size());
  }

  @Test
  void poll_beforeSeq_pagesBackwardNewestFirstInAscendingOrder() throws Exception {
    for (int i = 0; i < 10; i++) {
      http.post("/v1/instances/agent1/tether", Fixtures.utf8("{\"v\":1,\"type\":\"user.message\",\"session\":{\"channel\":\"host\",\"id\":\"s\"},\"payload\":{\"text\":\"m\"}}"));
    }
    JsonNode page = http.get("/v1/instances/agent1/tether/poll?before_seq=8&limit=3").json();
    assertEquals(List.of(5L, 6L, 7L), seqs(page));
    assertEquals(5, page.get("next_seq").asLong());
    JsonNode older = http.get("/v1/instances/agent1/tether/poll?before_seq=5&limit=10").json();
    assertEquals(List.of(1L, 2L, 3L, 4L), seqs(older));
  }

  @Test
  void getInstance_fieldsHaveTheTypesTheGoClientDecodes() throws Exception {
    JsonNode n = http.get("/v1/instances/agent1").json();
    assertTrue(n.get("id").isTextual() && n.get("state").isTextual() && n.get("enabled").isBoolean()
        && n.get("created_at").isTextual() && n.get("workspace").isTextual(), n.toString());
    for (String goTyped : List.of("command", "expose_ports", "endpoints", "active_connections", "gateway_running", "lease_held")) {
      assertTrue(n.get(goTyped) == null, goTyped + " would have to match the Go type; we do not send it");
    }
    JsonNode list = http.get("/v1/instances").json();
    assertTrue(list.isArray());
    assertEquals("agent1", list.get(0).get("id").asText());
  }

  @Test
  void blobUpload_answersTheReferenceShape() throws Exception {
    byte[] png = Fixtures.picture("png", 3, 3);
    JsonNode n = http.send("POST", "/v1/instances/agent1/blob", "image/png", png).json();
    assertEquals(List.of("blob", "media_type", "size"), fieldNames(n));
  }

  private static List<String> fieldNames(JsonNode n) {
    List<String> names = new ArrayList<>();
    n.fieldNames().forEachRemaining(names::add);
    return names;
  }

  private static List<Long> seqs(JsonNode page) {
    List<Long> out = new ArrayList<>();
    page.get("frames").forEach(f -> out.add(f.get("seq").asLong()));
    return out;
  }
}
