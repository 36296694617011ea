package dev.tether.client.http;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.tether.api.ErrorCode;
import dev.tether.api.SessionKey;
import dev.tether.api.TetherException;
import dev.tether.client.AttachmentInfo;
import dev.tether.client.HostAddress;
import dev.tether.server.TetherServer;
import dev.tether.store.MemoryTetherStore;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The attachment methods of {@link HttpTetherClient} against an embedded server on a real Unix socket. */
class AttachmentClientTest {
  @TempDir Path dir;
  private TetherServer server;
  private HttpTetherClient client;
  private final SessionKey session = new SessionKey("telegram", "-100123");

  @BeforeEach
  void start() throws Exception {
    HostAddress.Unix address = new HostAddress.Unix(dir.resolve("t.sock"));
    server = TetherServer.builder().listen(address).store(MemoryTetherStore.create()).instance("vm")
        .workspaces(dir.resolve("ws")).start();
    client = HttpTetherClient.builder(address).build();
  }

  @AfterEach
  void stop() {
    client.close();
    server.close();
  }

  @Test
  void putListAndRead_roundTrip_withTheDeclaredTypeVerbatim() throws Exception {
    byte[] pdf = "%PDF-1.4\n...".getBytes(StandardCharsets.US_ASCII);
    AttachmentInfo put = client.putAttachment("vm", session, "report 2026.pdf", "application/pdf", pdf).get(30, TimeUnit.SECONDS);
    assertEquals(new AttachmentInfo("report 2026.pdf", "application/pdf", pdf.length, put.addedAt()), put);
    AttachmentInfo again = client.putAttachment("vm", session, "../report 2026.pdf", null, pdf).get(30, TimeUnit.SECONDS);
    assertEquals("report 2026-1.pdf", again.name());
    assertEquals("application/octet-stream", again.mimeType());

    List<AttachmentInfo> list = client.attachments("vm", session).get(30, TimeUnit.SECONDS);
    assertEquals(List.of(put, again), list);
    assertEquals("- report 2026.pdf (" + pdf.length + " bytes, application/pdf)", list.get(0).listLine());
    assertArrayEquals(pdf, client.attachment("vm", session, "report 2026-1.pdf").get(30, TimeUnit.SECONDS));
    assertEquals(List.of(), client.attachments("vm", SessionKey.host("-100123")).get(30, TimeUnit.SECONDS));
  }

  @Test
  void refusals_areTetherExceptionsWithTheHostsCode() throws Exception {
    assertEquals(ErrorCode.UNKNOWN_ATTACHMENT, code(() -> client.attachment("vm", session, "nothing.txt").get(30, TimeUnit.SECONDS)));
    assertEquals(ErrorCode.INSTANCE_NOT_FOUND, code(() -> client.attachments("nope", session).get(30, TimeUnit.SECONDS)));
    assertEquals(ErrorCode.UPLOAD_TOO_LARGE, code(() -> client.putAttachment("vm", session, "big.bin", "application/octet-stream",
        new byte[(20 << 20) + 1]).get(60, TimeUnit.SECONDS)));
    assertEquals(ErrorCode.INVALID_UPLOAD, code(() -> client.putAttachment("vm", session, "a.txt", "no slash", new byte[1])
        .get(30, TimeUnit.SECONDS)));
  }

  @Test
  void deleteAttachment_removesIt_andAnUnknownNameIsUnknownAttachment() throws Exception {
    client.putAttachment("vm", session, "a.txt", "text/plain", new byte[] {'a'}).get(30, TimeUnit.SECONDS);
    AttachmentInfo kept = client.putAttachment("vm", session, "b.txt", "text/plain", new byte[] {'b'}).get(30, TimeUnit.SECONDS);
    client.deleteAttachment("vm", session, "a.txt").get(30, TimeUnit.SECONDS);
    assertEquals(List.of(kept), client.attachments("vm", session).get(30, TimeUnit.SECONDS));
    assertEquals(ErrorCode.UNKNOWN_ATTACHMENT, code(() -> client.deleteAttachment("vm", session, "a.txt").get(30, TimeUnit.SECONDS)));
    assertEquals(ErrorCode.UNKNOWN_ATTACHMENT, code(() -> client.attachment("vm", session, "a.txt").get(30, TimeUnit.SECONDS)));
  }

  @Test
  void pastTheInstancesDiskBudget_anUploadIsInsufficientStorage_untilADeleteMakesRoom() throws Exception {
    HostAddress.Unix address = new HostAddress.Unix(dir.resolve("small.sock"));
    try (TetherServer small = TetherServer.builder().listen(address).store(MemoryTetherStore.create()).instance("vm")
        .workspaces(dir.resolve("ws-small")).instanceDiskBytes(100_000).start();
        HttpTetherClient c = HttpTetherClient.builder(address).build()) {
      c.putAttachment("vm", session, "one.bin", null, new byte[60_000]).get(30, TimeUnit.SECONDS);
      ExecutionException full = assertThrows(ExecutionException.class,
          () -> c.putAttachment("vm", session, "two.bin", null, new byte[60_000]).get(30, TimeUnit.SECONDS));
      // A host-side code (retryable once room is made) arrives as an IOException, as STORE_FULL does.
      java.io.IOException e = assertInstanceOf(java.io.IOException.class, full.getCause());
      assertEquals(true, e.getMessage().startsWith("507 INSUFFICIENT_STORAGE") && e.getMessage().contains("budget of 100000 bytes"),
          e.getMessage());
      c.deleteAttachment("vm", session, "one.bin").get(30, TimeUnit.SECONDS);
      c.putAttachment("vm", session, "two.bin", null, new byte[60_000]).get(30, TimeUnit.SECONDS);
    }
  }

  private interface Call {
    Object run() throws Exception;
  }

  private static ErrorCode code(Call call) {
    ExecutionException e = assertThrows(ExecutionException.class, call::run);
    return assertInstanceOf(TetherException.class, e.getCause()).code();
  }
}
