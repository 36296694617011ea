package dev.tether.cli;

import dev.tether.server.testing.Fixtures;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import dev.tether.coven.internal.proto.FileAttachment;
import dev.tether.coven.internal.proto.FileData;
import dev.tether.coven.internal.proto.MessageResponse;
import dev.tether.coven.internal.proto.RegistrationError;
import dev.tether.coven.internal.proto.SendMessage;
import dev.tether.coven.internal.proto.ServerMessage;
import dev.tether.coven.internal.proto.Shutdown;
import dev.tether.coven.testing.FakeGateway;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * End to end with real processes: {@code tether serve --with-agent} and {@code tether coven} run
 * as child JVMs; the test plays the coven gateway with a real grpc-java server on 127.0.0.1.
 */
class CovenE2eTest {
  private static final long START_MS = 60_000;
  private static final Duration ANSWER = Duration.ofSeconds(60);

  @TempDir Path dir;

  @Test
  void demoAgentOnCoven_describesAPngAttachment_andAnswersAChartRequestWithPngFileData() throws Exception {
    Path socket = dir.resolve("tether.sock");
    Path idFile = dir.resolve("coven-agent-id");
    try (FakeGateway gateway = FakeGateway.start();
        ChildJvm serve = ChildJvm.start(dir, "serve", Map.of(), "serve", "--socket", socket.toString(), "--with-agent")) {
      serve.awaitStderr("tether agent: ready on", START_MS);
      try (ChildJvm coven = ChildJvm.start(dir, "coven", Map.of(), "coven", "--gateway", gateway.target(), "--plaintext",
          "--host", socket.toString(), "--instance", "default", "--name", "demo", "--agent-id-file", idFile.toString())) {
        FakeGateway.Conn conn = gateway.nextConnection(Duration.ofMillis(START_MS));
        String agentId = conn.next(ANSWER).getRegister().getAgentId();
        assertEquals(Files.readString(idFile).strip(), agentId, "the id is kept in --agent-id-file");
        coven.awaitStderr("registered as " + agentId, START_MS);

        byte[] png = Fixtures.picture("png", 40, 30);
        conn.send(message("r-photo", "What is this?", FileAttachment.newBuilder().setFilename("photo.png")
            .setMimeType("image/png").setData(ByteString.copyFrom(png)).build()));
        List<MessageResponse> photo = conn.responsesUntilTerminal("r-photo", ANSWER);
        MessageResponse done = photo.get(photo.size() - 1);
        assertTrue(done.hasDone(), "terminal: " + done);
        String expected = String.format(java.util.Locale.ROOT, "image 1: PNG, 40x30 pixels, %,d bytes", png.length);
        assertTrue(done.getDone().getFullResponse().contains(expected), done.getDone().getFullResponse());
        assertTrue(photo.stream().anyMatch(MessageResponse::hasText), "the answer streams as text events");

        conn.send(message("r-chart", "Please draw a chart of 2, 4 and 8"));
        List<MessageResponse> chart = conn.responsesUntilTerminal("r-chart", ANSWER);
        assertTrue(chart.get(chart.size() - 1).hasDone());
        FileData file = chart.stream().filter(MessageResponse::hasFile).findFirst().orElseThrow().getFile();
        assertEquals("image/png", file.getMimeType());
        BufferedImage drawn = ImageIO.read(new ByteArrayInputStream(file.getData().toByteArray()));
        assertEquals(ChartPainter.WIDTH, drawn.getWidth());
        assertEquals(ChartPainter.HEIGHT, drawn.getHeight());

        conn.send(ServerMessage.newBuilder().setShutdown(Shutdown.newBuilder().setReason("maintenance")).build());
        coven.awaitStderr("asked the agent to leave: maintenance", START_MS);
        assertEquals(0, exitCode(coven), coven.stderrText());
      }
    }
  }

  @Test
  void registrationError_isReported_andTheCommandExitsNonZero() throws Exception {
    Path socket = dir.resolve("tether.sock");
    try (FakeGateway gateway = FakeGateway.start();
        ChildJvm serve = ChildJvm.start(dir, "serve", Map.of(), "serve", "--socket", socket.toString())) {
      gateway.onRegister = reg -> ServerMessage.newBuilder()
          .setRegistrationError(RegistrationError.newBuilder().setReason("agent not approved by an admin")).build();
      serve.awaitStderr("listening on", START_MS);
      try (ChildJvm coven = ChildJvm.start(dir, "coven", Map.of(), "coven", "--gateway", gateway.target(), "--plaintext",
          "--host", socket.toString(), "--agent-id-file", dir.resolve("id").toString())) {
        coven.awaitStderr("rejected the registration: agent not approved by an admin", START_MS);
        assertEquals(CovenCommand.REJECTED, exitCode(coven), coven.stderrText());
      }
    }
  }

  private static ServerMessage message(String requestId, String content, FileAttachment... attachments) {
    return ServerMessage.newBuilder().setSendMessage(SendMessage.newBuilder().setRequestId(requestId).setThreadId("chat-1")
        .setSender("alice").setContent(content).addAllAttachments(List.of(attachments))).build();
  }

  /** Waits for the process to exit by itself, then reads its status. */
  private static int exitCode(ChildJvm jvm) throws Exception {
    ProcessHandle handle = ProcessHandle.of(jvm.pid()).orElse(null);
    if (handle != null) {
      handle.onExit().get(60, java.util.concurrent.TimeUnit.SECONDS);
    }
    return jvm.terminate();
  }
}
