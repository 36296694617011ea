package dev.tether.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tether.client.HostAddress;
import dev.tether.client.TokenFile;
import dev.tether.server.testing.Fixtures;
import dev.tether.server.testing.RawHttp;
import dev.tether.store.MemoryTetherStore;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The audit log against a real server on 127.0.0.1: what {@link ServerListener#audited} hears and
 * what {@link AuditLogFile} writes for sends, polls, refusals and a wrong token.
 */
class AuditLogTest {
  private static final String TOKEN = "h".repeat(TokenFile.MIN_BYTES);
  private static final String HOST = "Bearer " + TOKEN;
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path dir;

  /** Records every audit event. */
  static final class RecordingAuditListener implements ServerListener {
    final List<AuditEvent> events = new CopyOnWriteArrayList<>();

    @Override
    public void audited(AuditEvent event) {
      events.add(event);
    }
  }

  private static String mint(RawHttp http, String instance) throws Exception {
    RawHttp.Reply r = http.send("POST", "/v1/tokens", "application/json",
        ("{\"instance\":\"" + instance + "\"}").getBytes(StandardCharsets.UTF_8), HOST);
    assertEquals(201, r.status(), r.body());
    return r.json().get("token").asText();
  }

  @Test
  void everyInteraction_isOneJsonLineWithItsFields_andNoTokenValueAppears() throws Exception {
    RecordingAuditListener heard = new RecordingAuditListener();
    Path file = dir.resolve("audit.log");
    AuditLogFile log = AuditLogFile.open(file);
    String instanceToken;
    byte[] frame = Fixtures.wire(Fixtures.userMessage("chat-7", "hello"));
    try (TetherServer server = TetherServer.builder().listen(new HostAddress.Tcp("127.0.0.1", 0)).token(TOKEN)
        .store(MemoryTetherStore.create()).workspaces(dir.resolve("ws")).instance("vm1").instance("vm2")
        .listener(ServerListener.all(heard, log)).start();
         RawHttp http = new RawHttp(server.boundAddress())) {
      instanceToken = mint(http, "vm1");
      String own = "Bearer " + instanceToken;
      assertEquals(202, http.send("POST", "/v1/instances/vm1/tether", "application/json", frame, own).status());
      assertEquals(200, http.get("/v1/instances/vm1/tether/poll?after_seq=0&session_id=chat-7", own).status());
      assertEquals(403, http.get("/v1/instances/vm2/tether/poll", own).status());
      assertEquals(400, http.send("POST", "/v1/instances/vm1/tether", "application/json",
          "{\"v\":2,\"type\":\"user.message\",\"payload\":{}}".getBytes(StandardCharsets.UTF_8), HOST).status());
      assertEquals(401, http.get("/v1/instances/vm1/tether/poll", "Bearer " + "x".repeat(40)).status());
      assertEquals(200, http.get("/v1/health", HOST).status()); // not a host-agent interaction
      while (heard.events.size() < 5) {
        Thread.onSpinWait(); // told after each response completes
      }
    }
    log.close();

    List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
    assertEquals(5, lines.size(), String.join("\n", lines));
    String text = Files.readString(file);
    assertFalse(text.contains(TOKEN), "never the host token");
    assertFalse(text.contains(instanceToken), "never an instance token");
    assertFalse(text.contains("x".repeat(40)), "never a presented token");
    assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)));
    List<JsonNode> json = new ArrayList<>();
    for (String line : lines) {
      json.add(JSON.readTree(line));
    }
    JsonNode send = json.get(0);
    assertTrue(send.get("token_id").asText().startsWith("tok-"), send.toString());
    assertEquals("vm1", send.get("instance").asText());
    assertEquals("host", send.get("channel").asText());
    assertEquals("chat-7", send.get("session_id").asText());
    assertTrue(send.get("msg_id").asText().startsWith("host-"), send.toString());
    assertEquals("user.message", send.get("type").asText());
    assertEquals("/v1/instances/{id}/tether", send.get("route").asText());
    assertEquals("POST", send.get("method").asText());
    assertEquals(202, send.get("status").asInt());
    assertEquals(frame.length, send.get("bytes_in").asLong());
    assertTrue(send.get("bytes_out").asLong() > 0);
    assertTrue(send.get("time").asText().endsWith("Z"));

    JsonNode poll = json.get(1);
    assertEquals("/v1/instances/{id}/tether/poll", poll.get("route").asText());
    assertEquals("chat-7", poll.get("session_id").asText(), "a poll's filter");
    assertEquals(200, poll.get("status").asInt());
    assertTrue(poll.get("bytes_out").asLong() > frame.length / 2, "the page with the frame");

    JsonNode denied = json.get(2);
    assertEquals("vm2", denied.get("instance").asText());
    assertEquals(403, denied.get("status").asInt());
    assertEquals("PERMISSION_DENIED", denied.get("code").asText());

    JsonNode refused = json.get(3);
    assertEquals("host", refused.get("token_id").asText());
    assertEquals("UNSUPPORTED_VERSION", refused.get("code").asText());
    assertEquals(400, refused.get("status").asInt());

    JsonNode unauthorized = json.get(4);
    assertNull(unauthorized.get("token_id"), "no valid token, no id");
    assertEquals("vm1", unauthorized.get("instance").asText());
    assertEquals("UNAUTHORIZED", unauthorized.get("code").asText());
    assertEquals(401, unauthorized.get("status").asInt());

    assertEquals(5, heard.events.size());
    assertEquals("vm1", heard.events.get(0).instance());
    assertEquals("user.message", heard.events.get(0).type());
  }

  @Test
  void theUnixSocket_isAuditedAsSocket() throws Exception {
    RecordingAuditListener heard = new RecordingAuditListener();
    Path socket = Path.of("/tmp", "tether-audit-" + ProcessHandle.current().pid() + "-" + System.nanoTime() + ".sock");
    try (TetherServer server = TetherServer.builder().listen(new HostAddress.Unix(socket)).store(MemoryTetherStore.create())
        .workspaces(dir.resolve("ws")).listener(heard).start();
         RawHttp http = new RawHttp(server.boundAddress())) {
      assertEquals(202, http.post("/v1/instances/default/tether", Fixtures.wire(Fixtures.userMessage("s", "hi"))).status());
      while (heard.events.isEmpty()) {
        Thread.onSpinWait();
      }
      assertEquals("socket", heard.events.get(0).tokenId());
    }
  }
}
