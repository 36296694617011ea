package dev.tether.cli;

import dev.tether.client.http.HttpTetherClient;
import dev.tether.server.testing.RawHttp;
import dev.tether.server.testing.Fixtures;
import dev.tether.client.TokenFile;
import dev.tether.client.HostAddress;
import dev.tether.client.FramePage;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tether.api.Frame;
import dev.tether.api.FrameTypes;
import dev.tether.api.Image;
import dev.tether.api.Limits;
import dev.tether.api.MediaType;
import dev.tether.api.Payload;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * End to end with real processes and sockets: {@code tether serve} and {@code tether agent} run
 * as child JVMs on a Unix socket; the test talks HTTP to them.
 */
class TetherE2eTest {
  private static final long START_MS = 60_000;
  private static final String INSTANCE = "vm-e2e";

  @TempDir Path dir;

  @Test
  void imageIn_descriptionOut_andAChartRequestGetsAPngInAssistantDone() throws Exception {
    Path socket = dir.resolve("tether.sock");
    try (ChildJvm serve = ChildJvm.start(dir, "serve", Map.of(), "serve", "--auto-create", "--socket", socket.toString())) {
      serve.awaitStderr("listening on", START_MS);
      Path agentDir = dir.resolve("agent-data");
      try (ChildJvm agent = ChildJvm.start(dir, "agent", Map.of(), "agent", "--host", socket.toString(), "--instance", INSTANCE,
              "--data-dir", agentDir.toString());
          HttpTetherClient client = Clients.of(new HostAddress.Unix(socket), null)) {
        agent.awaitStderr("ready on", START_MS);

        Image photo = Fixtures.jpeg(320, 200);
        Frame ask = Fixtures.userMessage("e2e", "What is in this picture?", photo);
        var accepted = client.send(INSTANCE, ask).get(30, TimeUnit.SECONDS);
        List<Frame> reply = readReply(client, "e2e", accepted.ingressSeq(), accepted.msgId());
        assertEquals(FrameTypes.STATUS_PRESENCE, reply.get(0).type(), "presence comes first");
        assertTrue(reply.stream().anyMatch(f -> f.type().equals(FrameTypes.ASSISTANT_DELTA)), "deltas stream");
        reply.forEach(f -> assertEquals(accepted.msgId(), f.msgId().orElseThrow(), "every reply frame carries the request's msg_id"));
        Payload.AssistantDone done = done(reply);
        String expected = String.format(java.util.Locale.ROOT, "image 1: JPEG, 320x200 pixels, %,d bytes", photo.decodedSize());
        assertTrue(done.text().contains(expected), done.text());
        assertTrue(done.images().isEmpty());

        Frame chart = Fixtures.userMessage("e2e", "Please draw a chart of 2, 4 and 8");
        var chartAccepted = client.send(INSTANCE, chart).get(30, TimeUnit.SECONDS);
        Payload.AssistantDone chartDone = done(readReply(client, "e2e", chartAccepted.ingressSeq(), chartAccepted.msgId()));
        assertEquals(1, chartDone.images().size(), chartDone.text());
        Image png = chartDone.images().get(0);
        assertEquals(MediaType.PNG, png.mediaType());
        BufferedImage drawn = ImageIO.read(new ByteArrayInputStream(Base64.getDecoder().decode(png.data())));
        assertEquals(ChartPainter.WIDTH, drawn.getWidth());
        assertEquals(ChartPainter.HEIGHT, drawn.getHeight());
        assertTrue(chartDone.text().contains("session turn 2"), "the session remembers the first turn: " + chartDone.text());
        try (var files = java.nio.file.Files.walk(agentDir.resolve("blobs"))) {
          assertEquals(2, files.filter(p -> p.toString().endsWith(".jpg") || p.toString().endsWith(".png")).count(),
              "the agent keeps the photo and its chart as blobs");
        }
      }
    }
  }

  @Test
  void oversizeUpload_413WithTheCode_andTheServerKeepsServing() throws Exception {
    Path socket = dir.resolve("tether.sock");
    try (ChildJvm serve = ChildJvm.start(dir, "serve", Map.of(), "serve", "--auto-create", "--socket", socket.toString());
        RawHttp http = new RawHttp(new HostAddress.Unix(socket))) {
      serve.awaitStderr("listening on", START_MS);
      String path = "/v1/instances/" + INSTANCE + "/tether";
      byte[] big = new byte[Limits.MAX_FRAME_BYTES + 1];
      java.util.Arrays.fill(big, (byte) ' ');
      RawHttp.Reply declared = http.post(path, big);
      assertEquals(413, declared.status());
      assertEquals("FRAME_TOO_LARGE", declared.errorCode());

      byte[] head = Fixtures.utf8("{\"v\":1,\"type\":\"user.message\",\"payload\":{\"text\":\"");
      RawHttp.Reply chunked = http.postChunked(path, head, Limits.MAX_FRAME_BYTES + (1L << 20), (byte) 'a');
      assertEquals(413, chunked.status(), chunked.body());
      assertEquals("FRAME_TOO_LARGE", chunked.errorCode());

      RawHttp.Reply ok = http.post(path, Fixtures.wire(Fixtures.userMessage("default", "small")));
      assertEquals(202, ok.status(), ok.body());
      assertEquals(1, ok.json().get("ingress_seq").asLong(), "nothing of the refused uploads was stored");
      assertEquals(200, http.get("/v1/health").status());
    }
  }

  @Test
  void restartWithDataDir_continuesSeqAndKeepsTheHistory() throws Exception {
    Path socket = dir.resolve("tether.sock");
    Path data = dir.resolve("data");
    List<String> msgIds = new ArrayList<>();
    try (ChildJvm serve = ChildJvm.start(dir, "serve1", Map.of(), "serve", "--auto-create", "--socket", socket.toString(), "--data-dir", data.toString());
        HttpTetherClient client = Clients.of(new HostAddress.Unix(socket), null)) {
      serve.awaitStderr("listening on", START_MS);
      for (int i = 1; i <= 3; i++) {
        var a = client.send(INSTANCE, Fixtures.userMessage("default", "before restart " + i, Fixtures.png(5, 5))).get(30, TimeUnit.SECONDS);
        assertEquals(i, a.ingressSeq());
        msgIds.add(a.msgId());
      }
      assertEquals(143, serve.terminate(), "SIGTERM ends the JVM with 128+15 after the shutdown hook: " + serve.stderrText());
      assertTrue(serve.stderrText().contains("stopped (requests finished, store closed)"), serve.stderrText());
    }
    try (ChildJvm serve = ChildJvm.start(dir, "serve2", Map.of(), "serve", "--auto-create", "--socket", socket.toString(), "--data-dir", data.toString());
        HttpTetherClient client = Clients.of(new HostAddress.Unix(socket), null)) {
      serve.awaitStderr("listening on", START_MS);
      var after = client.send(INSTANCE, Fixtures.userMessage("default", "after restart")).get(30, TimeUnit.SECONDS);
      assertEquals(4, after.ingressSeq(), "seq continues after the journal's high-water mark");
      FramePage page = Clients.poll(client,INSTANCE, null, null, 0, 0, 0, null, null).get(30, TimeUnit.SECONDS);
      assertEquals(4, page.frames().size());
      for (int i = 0; i < 3; i++) {
        Frame f = page.frames().get(i);
        assertEquals(i + 1, f.seq());
        assertEquals(msgIds.get(i), f.msgId().orElseThrow());
        Payload.UserMessage m = (Payload.UserMessage) f.payloadView();
        assertEquals("before restart " + (i + 1), m.text());
        assertEquals(1, m.images().size(), "images survive the restart");
      }
    }
  }

  @Test
  void tcpOnLoopback_withTheTokenFile_servesTheAgentAndRefusesStrangers() throws Exception {
    Path token = dir.resolve("secret/token");
    try (ChildJvm serve = ChildJvm.start(dir, "serve", Map.of(), "serve", "--auto-create", "--listen", "127.0.0.1:0", "--token-file", token.toString())) {
      int port = Integer.parseInt(serve.awaitStderr("listening on http://127\\.0\\.0\\.1:(\\d+)", START_MS).group(1));
      assertEquals("rw-------", java.nio.file.attribute.PosixFilePermissions.toString(java.nio.file.Files.getPosixFilePermissions(token)));
      String host = "http://127.0.0.1:" + port;
      try (ChildJvm agent = ChildJvm.start(dir, "agent", Map.of(), "agent", "--host", host, "--token-file", token.toString(),
              "--instance", INSTANCE, "--data-dir", dir.resolve("agent-data").toString());
          HttpTetherClient client = Clients.of(HostAddress.parse(host), TokenFile.read(token));
          RawHttp stranger = new RawHttp(HostAddress.parse(host))) {
        agent.awaitStderr("ready on", START_MS);
        assertEquals(401, stranger.post("/v1/instances/" + INSTANCE + "/tether", Fixtures.wire(Fixtures.userMessage("t", "no token"))).status());
        var accepted = client.send(INSTANCE, Fixtures.userMessage("tcp", "over tcp", Fixtures.png(9, 4))).get(30, TimeUnit.SECONDS);
        assertEquals(1, accepted.ingressSeq(), "the stranger's frame was not stored");
        Payload.AssistantDone done = done(readReply(client, "tcp", accepted.ingressSeq(), accepted.msgId()));
        assertTrue(done.text().contains("image 1: PNG, 9x4 pixels"), done.text());
      }
    }
  }

  @Test
  void serveWithAgent_isOneCommandThatAnswers() throws Exception {
    Path socket = dir.resolve("one.sock");
    try (ChildJvm serve = ChildJvm.start(dir, "serve-with-agent", Map.of(), "serve", "--auto-create", "--socket", socket.toString(), "--with-agent");
        HttpTetherClient client = Clients.of(new HostAddress.Unix(socket), null)) {
      serve.awaitStderr("listening on", START_MS);
      serve.awaitStderr("ready on", START_MS);
      Image photo = Fixtures.jpeg(64, 48);
      Frame ask = Fixtures.userMessage("one", "What is in this picture?", photo);
      var accepted = client.send("default", ask).get(30, TimeUnit.SECONDS);
      List<Frame> frames = new ArrayList<>();
      long cursor = accepted.ingressSeq();
      for (int i = 0; i < 40 && frames.stream().noneMatch(f -> f.type().equals(FrameTypes.ASSISTANT_DONE)); i++) {
        FramePage page =
            Clients.poll(client,"default", "host", "one", cursor, 0, 10_000, null, accepted.msgId()).get(60, TimeUnit.SECONDS);
        frames.addAll(page.frames());
        cursor = page.nextSeq();
      }
      assertTrue(done(frames).text().contains("image 1: JPEG, 64x48 pixels"), done(frames).text());
    }
  }

  /** Polls until the assistant.done answering {@code msgId}; returns every reply frame in order. */
  private static List<Frame> readReply(HttpTetherClient client, String session, long afterSeq, String msgId) throws Exception {
    List<Frame> frames = new ArrayList<>();
    long cursor = afterSeq;
    for (int i = 0; i < 40; i++) {
      FramePage page = Clients.poll(client,INSTANCE, "host", session, cursor, 0, 10_000, null, msgId).get(60, TimeUnit.SECONDS);
      frames.addAll(page.frames());
      cursor = page.nextSeq();
      if (frames.stream().anyMatch(f -> f.type().equals(FrameTypes.ASSISTANT_DONE))) {
        return frames;
      }
    }
    throw new AssertionError("no assistant.done for " + msgId + "; got " + frames);
  }

  private static Payload.AssistantDone done(List<Frame> reply) {
    return reply.stream().filter(f -> f.type().equals(FrameTypes.ASSISTANT_DONE))
        .map(f -> (Payload.AssistantDone) f.payloadView()).findFirst().orElseThrow();
  }
}
