package dev.tether.whatsapp;

import static dev.tether.whatsapp.WhatsAppHarness.CUSTOMER;
import static dev.tether.whatsapp.WhatsAppHarness.INSTANCE;
import static dev.tether.whatsapp.WhatsAppHarness.OTHER;
import static dev.tether.whatsapp.WhatsAppHarness.WAIT;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tether.api.Limits;
import dev.tether.api.Payload;
import dev.tether.api.SessionKey;
import dev.tether.chat.testing.EchoAgent;
import dev.tether.client.FramePage;
import dev.tether.client.PollRequest;
import dev.tether.media.MediaAnswer;
import dev.tether.media.MediaFrames;
import dev.tether.media.MediaItem;
import dev.tether.media.MediaKind;
import dev.tether.whatsapp.testing.FakeGraph;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The WhatsApp bridge against the Graph API stand-in and signed webhook deliveries on 127.0.0.1, with an in-process host. */
class WhatsAppBridgeTest {
  /** Held: java.util.logging keeps loggers weakly, and a collected one loses its handlers. */
  private static final Logger BRIDGE_LOG = Logger.getLogger("dev.tether.whatsapp");

  @TempDir Path dir;

  @Test
  void verificationHandshake_answersTheChallengeOnlyForTheVerifyToken() throws Exception {
    try (WhatsAppHarness h = new WhatsAppHarness(dir)) {
      h.start(UnaryOperator.identity());
      var ok = h.get("hub.mode=subscribe&hub.verify_token=" + WhatsAppHarness.VERIFY_TOKEN + "&hub.challenge=1158201444");
      assertEquals(200, ok.statusCode());
      assertEquals("1158201444", ok.body());
      assertEquals(403, h.get("hub.mode=subscribe&hub.verify_token=guess&hub.challenge=1158201444").statusCode());
      try (java.net.Socket raw = new java.net.Socket(java.net.InetAddress.getLoopbackAddress(), h.webhook(null).getPort())) {
        raw.getOutputStream().write(("GET /whatsapp/webhook?hub.mode=subscribe&hub.verify_token=%zz&hub.challenge=1 HTTP/1.1\r\n"
            + "Host: 127.0.0.1\r\nConnection: close\r\n\r\n").getBytes(java.nio.charset.StandardCharsets.US_ASCII));
        String status = new String(raw.getInputStream().readNBytes(12), java.nio.charset.StandardCharsets.US_ASCII);
        assertEquals("HTTP/1.1 4", status.substring(0, 10), "a malformed escape is refused (the JDK server answers 400): " + status);
      }
    }
  }

  @Test
  void badSignature_isRefusedAndLogged_duplicatesAndOtherNumbersAreIgnored() throws Exception {
    List<String> lines = capture();
    try (WhatsAppHarness h = new WhatsAppHarness(dir)) {
      h.start(UnaryOperator.identity());
      assertEquals(401, h.deliver(FakeGraph.delivery(CUSTOMER, "wamid.1", FakeGraph.text("forged")), "not-the-app-secret").statusCode());
      assertTrue(lines.stream().anyMatch(l -> l.contains("bad X-Hub-Signature-256")), lines.toString());
      assertEquals(200, h.deliver(FakeGraph.delivery("4400000000", "wamid.2", FakeGraph.text("stranger"))).statusCode());
      var genuine = FakeGraph.delivery(CUSTOMER, "wamid.3", FakeGraph.text("genuine"));
      assertEquals(200, h.deliver(genuine).statusCode());
      assertEquals(200, h.deliver(genuine).statusCode(), "WhatsApp's redelivery");
      h.awaitForwarded(1);
      Thread.sleep(300); // a second forward, if there were one, would land within this
      assertEquals(1, h.forwarded().size());
      assertEquals("genuine", ((Payload.UserMessage) h.forwarded().get(0).payloadView()).text());
      assertEquals(new SessionKey("whatsapp", CUSTOMER), h.forwarded().get(0).session().orElseThrow());
    }
  }

  @Test
  void aRedeliveryAfterABridgeRestart_isStillADuplicate_theIdsAreInTheStateDir() throws Exception {
    try (WhatsAppHarness h = new WhatsAppHarness(dir)) {
      h.start(UnaryOperator.identity());
      var first = FakeGraph.delivery(CUSTOMER, "wamid.before-restart", FakeGraph.text("once only"));
      assertEquals(200, h.deliver(first).statusCode());
      h.awaitForwarded(1);
      h.stopBridge();
      assertTrue(Files.readString(h.stateDir.resolve("seen-ids")).contains("wamid.before-restart"));

      h.start(UnaryOperator.identity());
      assertEquals(200, h.deliver(first).statusCode(), "WhatsApp redelivers what the stopped bridge had taken");
      assertEquals(200, h.deliver(FakeGraph.delivery(CUSTOMER, "wamid.after-restart", FakeGraph.text("new one"))).statusCode());
      h.awaitForwarded(2); // deliveries are handled in order: the repeat was judged before this one
      assertEquals(List.of("once only", "new one"),
          h.forwarded().stream().map(f -> ((Payload.UserMessage) f.payloadView()).text()).toList());
    }
  }

  @Test
  void everyMediaKind_becomesAWaPlaceholder_withNothingResolvedOrDownloaded_andOneFetchDownloadsOnce() throws Exception {
    try (WhatsAppHarness h = new WhatsAppHarness(dir)) {
      byte[] png = EchoAgent.png();
      h.graph.addMedia("m-image", "image/png", png);
      h.start(UnaryOperator.identity());
      h.deliver(FakeGraph.delivery(CUSTOMER, "wamid.i", FakeGraph.media("image", "m-image", "image/png", "my chart")));
      var doc = FakeGraph.media("document", "m-doc", "application/pdf", null);
      ((com.fasterxml.jackson.databind.node.ObjectNode) doc.get("document")).put("filename", "report.pdf");
      h.deliver(FakeGraph.delivery(CUSTOMER, "wamid.d", doc));
      h.deliver(FakeGraph.delivery(CUSTOMER, "wamid.a", FakeGraph.media("audio", "m-audio", "audio/mpeg", null)));
      var voice = FakeGraph.media("audio", "m-voice", "audio/ogg; codecs=opus", null);
      ((com.fasterxml.jackson.databind.node.ObjectNode) voice.get("audio")).put("voice", true);
      h.deliver(FakeGraph.delivery(CUSTOMER, "wamid.v", voice));
      h.deliver(FakeGraph.delivery(CUSTOMER, "wamid.vd", FakeGraph.media("video", "m-video", "video/mp4", null)));
      h.deliver(FakeGraph.delivery(CUSTOMER, "wamid.s", FakeGraph.media("sticker", "m-sticker", "image/webp", null)));
      h.awaitForwarded(6);
      List<MediaKind> kinds = new ArrayList<>();
      for (var f : h.forwarded()) {
        MediaItem item = MediaFrames.mediaOf((Payload.UserMessage) f.payloadView()).get(0);
        assertTrue(item.ref().startsWith("wa_"), item.ref());
        kinds.add(item.kind());
      }
      assertEquals(List.of(MediaKind.IMAGE, MediaKind.DOCUMENT, MediaKind.AUDIO, MediaKind.VOICE, MediaKind.VIDEO, MediaKind.STICKER), kinds);
      assertTrue(((Payload.UserMessage) h.forwarded().get(1).payloadView()).text().startsWith("[Document: report.pdf, "));
      assertEquals(List.of(), h.graph.resolves(), "no media URL is resolved before a fetch");
      assertEquals(List.of(), h.graph.downloads());

      String ref = MediaFrames.mediaOf((Payload.UserMessage) h.forwarded().get(0).payloadView()).get(0).ref();
      MediaAnswer.Fetched fetched = assertInstanceOf(MediaAnswer.Fetched.class, fetch(h, "f1", ref));
      assertArrayEquals(png, Base64.getDecoder().decode(fetched.image().data()));
      assertEquals(List.of("m-image"), h.graph.resolves(), "the URL is resolved at fetch time");
      assertEquals(List.of("m-image"), h.graph.downloads(), "exactly one download");
    }
  }

  @Test
  void anExpiredMediaUrl_isResolvedAgain() throws Exception {
    try (WhatsAppHarness h = new WhatsAppHarness(dir)) {
      byte[] png = EchoAgent.png();
      h.graph.addMedia("m-old", "image/png", png);
      h.graph.expireFirstUrl("m-old");
      h.start(UnaryOperator.identity());
      h.deliver(FakeGraph.delivery(CUSTOMER, "wamid.o", FakeGraph.media("image", "m-old", "image/png", null)));
      h.awaitForwarded(1);
      String ref = MediaFrames.mediaOf((Payload.UserMessage) h.forwarded().get(0).payloadView()).get(0).ref();
      MediaAnswer.Fetched fetched = assertInstanceOf(MediaAnswer.Fetched.class, fetch(h, "f2", ref));
      assertArrayEquals(png, Base64.getDecoder().decode(fetched.image().data()));
      assertEquals(List.of("m-old", "m-old"), h.graph.resolves());
    }
  }

  @Test
  void answers_uploadImagesAndSendText_429IsRetried_andThe24HourWindowIsAClearError() throws Exception {
    List<String> lines = capture();
    try (WhatsAppHarness h = new WhatsAppHarness(dir).withAgent()) {
      h.graph.rateLimitSends(1);
      h.graph.outsideWindow(OTHER);
      h.start(UnaryOperator.identity());
      h.deliver(FakeGraph.delivery(CUSTOMER, "wamid.c", FakeGraph.text("a chart please")));
      var image = h.graph.awaitSent(m -> "image".equals(m.path("type").asText()), WAIT);
      assertEquals(CUSTOMER, image.path("to").asText());
      assertEquals("You said: a chart please", image.path("image").path("caption").asText());
      assertArrayEquals(EchoAgent.png(), h.graph.uploads().get(0));
      h.deliver(FakeGraph.delivery(OTHER, "wamid.late", FakeGraph.text("hello after a day")));
      h.deliver(FakeGraph.delivery(CUSTOMER, "wamid.t", FakeGraph.text("plain")));
      h.graph.awaitSent(m -> "You said: plain".equals(m.path("text").path("body").asText()), WAIT);
      assertEquals(1, h.graph.sent().stream().filter(m -> "image".equals(m.path("type").asText())).count(), "the 429 lost nothing, sent once");
      assertTrue(h.graph.sent().stream().noneMatch(m -> OTHER.equals(m.path("to").asText())));
      assertTrue(lines.stream().anyMatch(l -> l.contains("24-hour customer service window")), lines.toString());
    }
  }

  @Test
  void aHostileDocumentName_isRefused_andEagerImagesTravelAsImages() throws Exception {
    try (WhatsAppHarness h = new WhatsAppHarness(dir)) {
      byte[] png = EchoAgent.png();
      h.graph.addMedia("m-eager", "image/png", png);
      h.start(b -> b.lazyMedia(false));
      var doc = FakeGraph.media("document", "m-doc", "application/pdf", null);
      ((com.fasterxml.jackson.databind.node.ObjectNode) doc.get("document")).put("filename", "../../.ssh/authorized_keys");
      h.deliver(FakeGraph.delivery(CUSTOMER, "wamid.h", doc));
      h.deliver(FakeGraph.delivery(CUSTOMER, "wamid.e", FakeGraph.media("image", "m-eager", "image/png", "look")));
      h.awaitForwarded(2);
      assertTrue(((Payload.UserMessage) h.forwarded().get(0).payloadView()).text().contains("not a plain file name"));
      Payload.UserMessage eager = (Payload.UserMessage) h.forwarded().get(1).payloadView();
      assertEquals(1, eager.images().size());
      assertEquals(List.of("m-eager"), h.graph.downloads());
    }
  }

  private static MediaAnswer fetch(WhatsAppHarness h, String msgId, String ref) throws Exception {
    SessionKey session = new SessionKey("whatsapp", CUSTOMER);
    h.client.send(INSTANCE, MediaFrames.fetchRequest(session, msgId, ref)).get(10, TimeUnit.SECONDS);
    PollRequest request = new PollRequest(session.channel(), session.id(), 0, 10, 20_000, Set.of(MediaFrames.ANSWER), msgId);
    FramePage page = h.client.poll(INSTANCE, request).get(30, TimeUnit.SECONDS);
    assertEquals(1, page.frames().size(), "exactly one answer to " + msgId);
    return MediaFrames.parseAnswer(page.frames().get(0), Limits.defaults());
  }

  /** The bridge's log lines from now on (System.Logger goes to java.util.logging here). */
  private static List<String> capture() {
    List<String> lines = new CopyOnWriteArrayList<>();
    BRIDGE_LOG.addHandler(new Handler() {
      @Override
      public void publish(LogRecord r) {
        lines.add(String.valueOf(r.getMessage()));
      }

      @Override
      public void flush() {}

      @Override
      public void close() {}
    });
    return lines;
  }
}
