package dev.tether.server.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.tether.api.ErrorCode;
import dev.tether.api.SessionKey;
import dev.tether.api.TetherException;
import dev.tether.client.AttachmentClient;
import dev.tether.client.AttachmentInfo;
import dev.tether.client.HostAddress;
import dev.tether.server.TetherServer;
import dev.tether.server.testing.RawHttp;
import dev.tether.store.MemoryTetherStore;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The in-process client's attachments ({@link LocalClient} as an {@link AttachmentClient}) on a
 * real server: what it stores the HTTP routes list and serve and the other way round, names are
 * sanitised the same, and each refusal has the routes' code (unknown instance and attachment, too
 * large, past the disk budget, a bad session).
 */
class LocalClientAttachmentsTest {
  private static final String HOST = "Bearer " + "h".repeat(40);
  private static final SessionKey S1 = SessionKey.host("s1");

  @TempDir Path dir;
  private TetherServer server;
  private AttachmentClient local;
  private RawHttp http;

  @BeforeEach
  void start() throws Exception {
    server = TetherServer.builder().listen(new HostAddress.Tcp("127.0.0.1", 0)).token(HOST.substring(7))
        .store(MemoryTetherStore.create()).workspaces(dir.resolve("ws")).attachmentsDirectory(dir.resolve("attachments"))
        .instance("vm1").instanceDiskBytes(64 * 1024).start();
    local = assertInstanceOf(AttachmentClient.class, server.localClient());
    http = new RawHttp(server.boundAddress());
  }

  @AfterEach
  void stop() {
    http.close();
    server.close();
  }

  @Test
  void putListReadDelete_sameStoreAsTheHttpRoutes() throws Exception {
    byte[] text = "hello\n".getBytes(StandardCharsets.UTF_8);
    AttachmentInfo stored = local.putAttachment("vm1", S1, "../../etc/notes.txt", "text/plain", text).get(10, TimeUnit.SECONDS);
    assertEquals("notes.txt", stored.name(), "sanitised as the upload route does");
    assertEquals("text/plain", stored.mimeType());
    assertEquals(text.length, stored.size());

    RawHttp.Reply listed = http.get("/v1/instances/vm1/attachments?session_id=s1", HOST);
    assertEquals(200, listed.status(), listed.body());
    assertEquals("notes.txt", listed.json().get("attachments").get(0).get("name").asText());
    RawHttp.Reply uploaded = http.send("POST", "/v1/instances/vm1/attachments?session_id=s1&name=notes.txt", "text/x-python",
        "x = 1\n".getBytes(StandardCharsets.UTF_8), HOST);
    assertEquals(201, uploaded.status(), uploaded.body());

    List<AttachmentInfo> all = local.attachments("vm1", S1).get(10, TimeUnit.SECONDS);
    assertEquals(List.of("notes.txt", "notes-1.txt"), all.stream().map(AttachmentInfo::name).toList());
    assertEquals("text/x-python", all.get(1).mimeType());
    assertArrayEquals(text, local.attachment("vm1", S1, "notes.txt").get(10, TimeUnit.SECONDS));
    assertEquals(List.of(), local.attachments("vm1", SessionKey.host("other")).get(10, TimeUnit.SECONDS));

    local.deleteAttachment("vm1", S1, "notes.txt").get(10, TimeUnit.SECONDS);
    assertEquals(404, http.get("/v1/instances/vm1/attachments/notes.txt?session_id=s1", HOST).status());
    assertCode(ErrorCode.UNKNOWN_ATTACHMENT, local.attachment("vm1", S1, "notes.txt"));
    assertCode(ErrorCode.UNKNOWN_ATTACHMENT, local.deleteAttachment("vm1", S1, "notes.txt"));
  }

  @Test
  void refusals_carryTheRoutesCodes() throws Exception {
    assertCode(ErrorCode.INSTANCE_NOT_FOUND, local.attachments("nope", S1));
    assertCode(ErrorCode.INSTANCE_NOT_FOUND, local.putAttachment("nope", S1, "a.txt", "text/plain", new byte[1]));
    assertCode(ErrorCode.UPLOAD_TOO_LARGE, local.putAttachment("vm1", S1, "big.bin", null,
        new byte[Math.toIntExact(AttachmentStore.DEFAULT_MAX_BYTES) + 1]));
    assertCode(ErrorCode.INSUFFICIENT_STORAGE, local.putAttachment("vm1", S1, "fills.bin", null, new byte[64 * 1024]));
    assertCode(ErrorCode.INVALID_ARGUMENT, local.attachments("vm1", SessionKey.host("s".repeat(AttachmentRoutes.MAX_PARAM_CHARS + 1))));
    assertCode(ErrorCode.INVALID_ARGUMENT, local.putAttachment("vm1", S1, "", "text/plain", new byte[1]));
    assertCode(ErrorCode.INVALID_ARGUMENT, local.attachment("vm1", S1, "n".repeat(AttachmentRoutes.MAX_PARAM_CHARS + 1)));
    assertEquals(List.of(), local.attachments("vm1", S1).get(10, TimeUnit.SECONDS), "nothing refused was stored");
  }

  private static void assertCode(ErrorCode code, CompletableFuture<?> call) {
    ExecutionException e = assertThrows(ExecutionException.class, () -> call.get(30, TimeUnit.SECONDS));
    TetherException t = assertInstanceOf(TetherException.class, e.getCause(), String.valueOf(e.getCause()));
    assertEquals(code, t.code(), t.getMessage());
  }
}
