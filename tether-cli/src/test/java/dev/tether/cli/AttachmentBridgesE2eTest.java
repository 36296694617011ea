package dev.tether.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import dev.tether.api.SessionKey;
import dev.tether.client.AttachmentInfo;
import dev.tether.client.HostAddress;
import dev.tether.client.http.HttpTetherClient;
import dev.tether.coven.internal.proto.FileAttachment;
import dev.tether.coven.internal.proto.MessageResponse;
import dev.tether.coven.internal.proto.SendMessage;
import dev.tether.coven.internal.proto.ServerMessage;
import dev.tether.coven.testing.FakeGateway;
import dev.tether.server.testing.Fixtures;
import dev.tether.telegram.testing.RecordingBotApi;
import dev.tether.telegram.testing.TgMessages;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Files that are not images become session attachments through the bridges, with real processes:
 * {@code tether serve --with-agent}, and {@code tether telegram} against a local Bot API server
 * ({@link RecordingBotApi}) or {@code tether coven} against a grpc-java gateway ({@link FakeGateway}).
 * The demo agent's answer shows the message it got (the attachment named in its text); the host
 * then holds the file, with the sender's MIME type, in the chat's or thread's session.
 */
class AttachmentBridgesE2eTest {
  private static final long START_MS = 60_000;
  private static final long CHAT = 4242L;

  @TempDir Path dir;

  @Test
  void telegramDocuments_textCodeAndPdf_becomeAttachmentsOfTheChatsSession() throws Exception {
    Path socket = dir.resolve("tether.sock");
    Path tokenFile = dir.resolve("bot-token");
    Files.writeString(tokenFile, RecordingBotApi.TOKEN + "\n");
    Files.setPosixFilePermissions(tokenFile, PosixFilePermissions.fromString("rw-------"));
    try (RecordingBotApi telegram = new RecordingBotApi();
        ChildJvm serve = ChildJvm.start(dir, "serve", Map.of(), "serve", "--socket", socket.toString(), "--with-agent")) {
      serve.awaitStderr("ready on", START_MS);
      try (ChildJvm bridge = ChildJvm.start(dir, "telegram", Map.of(), "telegram",
          "--token-file", tokenFile.toString(), "--api-url", telegram.url().toString(),
          "--host", "unix:" + socket, "--instance", "default", "--allowed-chats", Long.toString(CHAT),
          "--state-dir", dir.resolve("telegram-state").toString())) {
        bridge.awaitStderr("tether telegram: bridging", START_MS);
        byte[] code = "def add(a, b):\n    return a + b\n".getBytes(StandardCharsets.UTF_8);
        byte[] pdf = "%PDF-1.7\n1 0 obj << >> endobj\n%%EOF\n".getBytes(StandardCharsets.US_ASCII);
        byte[] notes = "shopping: milk".getBytes(StandardCharsets.UTF_8);
        telegram.addMessage(TgMessages.document(CHAT, "please review", telegram.addFile(code), "add.py", "text/x-python",
            (long) code.length));
        telegram.awaitText(CHAT, "[Attachment: add.py (" + code.length + " bytes, text/x-python)]");
        telegram.addMessage(TgMessages.document(CHAT, null, telegram.addFile(pdf), "report.pdf", "application/pdf", (long) pdf.length));
        telegram.awaitText(CHAT, "[Attachment: report.pdf (" + pdf.length + " bytes, application/pdf)]");
        telegram.addMessage(TgMessages.document(CHAT, null, telegram.addFile(notes), "../../etc/passwd", "text/plain", (long) notes.length));
        RecordingBotApi.Call answer = telegram.awaitText(CHAT, "[Attachment: passwd (");
        assertTrue(answer.text().contains("Files are attached to this session"), answer.text());

        try (HttpTetherClient host = HttpTetherClient.builder(HostAddress.parse("unix:" + socket)).build()) {
          SessionKey session = new SessionKey("telegram", Long.toString(CHAT));
          List<AttachmentInfo> stored = host.attachments("default", session).get(30, TimeUnit.SECONDS);
          assertEquals(List.of("add.py", "report.pdf", "passwd"), stored.stream().map(AttachmentInfo::name).toList());
          assertEquals(List.of("text/x-python", "application/pdf", "text/plain"), stored.stream().map(AttachmentInfo::mimeType).toList());
          assertArrayEquals(code, host.attachment("default", session, "add.py").get(30, TimeUnit.SECONDS));
          assertArrayEquals(pdf, host.attachment("default", session, "report.pdf").get(30, TimeUnit.SECONDS));
        }
      }
    }
  }

  @Test
  void covenAttachmentThatIsNotAnImage_becomesAnAttachmentOfTheThreadsSession_imagesStayInline() throws Exception {
    Path socket = dir.resolve("tether.sock");
    try (FakeGateway gateway = FakeGateway.start();
        ChildJvm serve = ChildJvm.start(dir, "serve", Map.of(), "serve", "--socket", socket.toString(), "--with-agent")) {
      serve.awaitStderr("tether agent: ready on", START_MS);
      try (ChildJvm coven = ChildJvm.start(dir, "coven", Map.of(), "coven", "--gateway", gateway.target(), "--plaintext",
          "--host", socket.toString(), "--instance", "default", "--agent-id-file", dir.resolve("id").toString())) {
        FakeGateway.Conn conn = gateway.nextConnection(Duration.ofMillis(START_MS));
        String agentId = conn.next(Duration.ofSeconds(60)).getRegister().getAgentId();
        coven.awaitStderr("registered as " + agentId, START_MS);
        byte[] md = "# Plan\n\n1. ship it\n".getBytes(StandardCharsets.UTF_8);
        byte[] png = Fixtures.picture("png", 20, 10);
        conn.send(ServerMessage.newBuilder().setSendMessage(SendMessage.newBuilder().setRequestId("r-1").setThreadId("t-9")
            .setSender("alice").setContent("read the plan")
            .addAttachments(FileAttachment.newBuilder().setFilename("plan.md").setMimeType("text/markdown").setData(ByteString.copyFrom(md)))
            .addAttachments(FileAttachment.newBuilder().setFilename("shot.png").setMimeType("image/png").setData(ByteString.copyFrom(png))))
            .build());
        List<MessageResponse> events = conn.responsesUntilTerminal("r-1", Duration.ofSeconds(60));
        MessageResponse done = events.get(events.size() - 1);
        assertTrue(done.hasDone(), "terminal: " + done);
        String answer = done.getDone().getFullResponse();
        assertTrue(answer.contains("I received 1 image"), answer); // the PNG stays an inline image
        assertTrue(answer.contains("Files are attached to this session"), answer);

        try (HttpTetherClient host = HttpTetherClient.builder(HostAddress.parse("unix:" + socket)).build()) {
          SessionKey session = new SessionKey("coven", "t-9");
          List<AttachmentInfo> stored = host.attachments("default", session).get(30, TimeUnit.SECONDS);
          assertEquals(1, stored.size(), stored.toString());
          assertEquals("plan.md", stored.get(0).name());
          assertEquals("text/markdown", stored.get(0).mimeType());
          assertArrayEquals(md, host.attachment("default", session, "plan.md").get(30, TimeUnit.SECONDS));
        }
      }
    }
  }
}
