package dev.tether.slack;

import static dev.tether.slack.SlackHarness.CHANNEL;
import static dev.tether.slack.SlackHarness.DM;
import static dev.tether.slack.SlackHarness.INSTANCE;
import static dev.tether.slack.SlackHarness.WAIT;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tether.api.ErrorCode;
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
import dev.tether.slack.testing.FakeSlack;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Base64;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The Slack bridge against the Slack stand-in (Web API and Socket Mode on 127.0.0.1) and an in-process host. */
class SlackBridgeTest {
  @TempDir Path dir;

  @Test
  void socketModeMessage_isAcked_forwardedAsTheThreadsSession_andAnsweredInTheThread() throws Exception {
    try (SlackHarness h = new SlackHarness(dir).withAgent()) {
      h.startSocketMode(UnaryOperator.identity());
      String envelope = h.slack.socketMode().sendEvent(FakeSlack.message("Ev1", CHANNEL, "1700000001.000100", "hello there"));
      assertTrue(h.slack.socketMode().awaitAck(envelope, WAIT), "the envelope was acknowledged");
      FakeSlack.Call answer = h.slack.await("chat.postMessage", c -> c.fields().get("text").equals("You said: hello there"), WAIT);
      assertEquals(CHANNEL, answer.fields().get("channel"));
      assertEquals("1700000001.000100", answer.fields().get("thread_ts"), "a thread is a session: the answer goes into it");
      assertEquals(new SessionKey("slack", CHANNEL + ":1700000001.000100"), h.forwarded().get(0).session().orElseThrow());
    }
  }

  @Test
  void lazyChannelPhoto_isAPlaceholderWithNoDownload_andOneFetchDownloadsOnce_byteIdentical() throws Exception {
    try (SlackHarness h = new SlackHarness(dir)) {
      byte[] png = EchoAgent.png();
      String url = h.slack.addFile("F0PHOTO1", png);
      h.startSocketMode(UnaryOperator.identity());
      h.slack.socketMode().sendEvent(FakeSlack.withFile(FakeSlack.message("Ev2", CHANNEL, "1700000002.000100", "a sunset"),
          "F0PHOTO1", "sunset.png", png.length, "image/png", url));
      h.awaitForwarded(1);
      Payload.UserMessage m = (Payload.UserMessage) h.forwarded().get(0).payloadView();
      List<MediaItem> items = MediaFrames.mediaOf(m);
      assertEquals(1, items.size());
      assertEquals(MediaKind.IMAGE, items.get(0).kind());
      assertTrue(items.get(0).ref().startsWith("sl_"), items.get(0).ref());
      assertTrue(m.text().startsWith("[Image: sunset.png, "), m.text());
      assertTrue(m.text().endsWith("ref:" + items.get(0).ref() + "]\na sunset"), m.text());
      assertEquals(List.of(), m.images());
      assertEquals(List.of(), h.slack.downloads(), "nothing is downloaded for a lazy channel");
      assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(h.stateDir.resolve("media-refs.json"))));

      SessionKey session = h.forwarded().get(0).session().orElseThrow();
      MediaAnswer.Fetched fetched = assertInstanceOf(MediaAnswer.Fetched.class, fetch(h, session, "f1", items.get(0).ref()));
      assertArrayEquals(png, Base64.getDecoder().decode(fetched.image().data()));
      assertEquals(List.of("F0PHOTO1"), h.slack.downloads(), "exactly one download");

      h.stopBridge(); // a restart keeps the refs
      h.startSocketMode(UnaryOperator.identity());
      assertInstanceOf(MediaAnswer.Fetched.class, fetch(h, session, "f2", items.get(0).ref()));
    }
  }

  @Test
  void eagerDirectMessage_photoTravelsAsImage_andAPdfBecomesASessionAttachment() throws Exception {
    try (SlackHarness h = new SlackHarness(dir)) {
      byte[] png = EchoAgent.png();
      String photo = h.slack.addFile("F0PNG", png);
      String pdf = h.slack.addFile("F0PDF", "%PDF-1.4 tiny".getBytes());
      h.startSocketMode(UnaryOperator.identity());
      var event = FakeSlack.withFile(FakeSlack.message("Ev3", DM, "1700000003.000100", "look"), "F0PNG", "p.png", png.length,
          "image/png", photo);
      FakeSlack.withFile(event, "F0PDF", "report.pdf", 13, "application/pdf", pdf);
      h.slack.socketMode().sendEvent(event);
      h.awaitForwarded(1);
      Payload.UserMessage m = (Payload.UserMessage) h.forwarded().get(0).payloadView();
      assertEquals(1, m.images().size());
      assertTrue(m.text().contains("report.pdf"), m.text());
      assertEquals(1, h.attachments.attachments(INSTANCE, h.forwarded().get(0).session().orElseThrow()).get(10, TimeUnit.SECONDS).size());
    }
  }

  @Test
  void disallowedChannel_isIgnored_andHostileOrOversizedFiles_areRefusedBeforeDownload() throws Exception {
    try (SlackHarness h = new SlackHarness(dir)) {
      String url = h.slack.addFile("F0X", EchoAgent.png());
      h.startSocketMode(b -> b.maxDownloadBytes(1000));
      h.slack.socketMode().sendEvent(FakeSlack.withFile(FakeSlack.message("Ev4", "C0NOTALLOW", "1700000004.000100", "psst"),
          "F0X", "x.png", 10, "image/png", url));
      var hostile = FakeSlack.withFile(FakeSlack.message("Ev5", DM, "1700000005.000100", "files"), "F0X", "../../etc/passwd", 10,
          "image/png", url);
      FakeSlack.withFile(hostile, "F0X", "big.png", 5_000_000, "image/png", url);
      FakeSlack.withFile(hostile, "F0X", "elsewhere.png", 10, "image/png", "https://attacker.example/steal");
      h.slack.socketMode().sendEvent(hostile);
      h.awaitForwarded(1);
      assertEquals(1, h.forwarded().size(), "the disallowed channel's message was not forwarded");
      String text = ((Payload.UserMessage) h.forwarded().get(0).payloadView()).text();
      assertTrue(text.contains("its name is not a plain file name"), text);
      assertTrue(text.contains("over the limit"), text);
      assertTrue(text.contains("not on Slack's hosts"), text);
      assertEquals(List.of(), h.slack.downloads(), "no download for a refused file, and the token never left for another host");
    }
  }

  @Test
  void eventsApi_refusesBadSignaturesAndReplays_answersTheChallenge_andIgnoresRedeliveries() throws Exception {
    try (SlackHarness h = new SlackHarness(dir)) {
      h.startEventsApi(UnaryOperator.identity());
      var challenge = new ObjectMapper().createObjectNode().put("type", "url_verification")
          .put("challenge", "3eZbrw1aBm2rZgRNFdxV2595E9CY3gmdALWMmHkvFXO7tYXAYM8P");
      assertTrue(h.deliver(challenge).body().contains("3eZbrw1aBm2rZgRNFdxV2595E9CY3gmdALWMmHkvFXO7tYXAYM8P"));
      var forged = FakeSlack.message("Ev6", CHANNEL, "1700000006.000100", "forged");
      assertEquals(401, h.deliver(forged, "not-the-signing-secret", System.currentTimeMillis() / 1000).statusCode());
      assertEquals(401, h.deliver(forged, SlackHarness.SIGNING_SECRET, System.currentTimeMillis() / 1000 - 301).statusCode(),
          "a delivery older than five minutes is a replay");
      var good = FakeSlack.message("Ev7", CHANNEL, "1700000007.000100", "genuine");
      assertEquals(200, h.deliver(good).statusCode());
      assertEquals(200, h.deliver(good).statusCode(), "Slack's retry of the same event");
      h.awaitForwarded(1);
      Thread.sleep(300); // a second forward, if there were one, would land within this
      assertEquals(1, h.forwarded().size());
      assertEquals("genuine", ((Payload.UserMessage) h.forwarded().get(0).payloadView()).text());
    }
  }

  @Test
  void aRetryAfterABridgeRestart_isStillADuplicate_theIdsAreInTheStateDir() throws Exception {
    try (SlackHarness h = new SlackHarness(dir)) {
      h.startEventsApi(UnaryOperator.identity());
      var first = FakeSlack.message("EvRestart1", CHANNEL, "1700000008.000100", "once only");
      assertEquals(200, h.deliver(first).statusCode());
      h.awaitForwarded(1);
      h.stopBridge();

      h.startEventsApi(UnaryOperator.identity());
      assertEquals(200, h.deliver(first).statusCode(), "Slack retries what the stopped bridge had taken");
      assertEquals(200, h.deliver(FakeSlack.message("EvRestart2", CHANNEL, "1700000009.000100", "new one")).statusCode());
      h.awaitForwarded(2); // deliveries are handled in order: the repeat was judged before this one
      assertEquals(List.of("once only", "new one"),
          h.forwarded().stream().map(f -> ((Payload.UserMessage) f.payloadView()).text()).toList());
    }
  }

  @Test
  void rateLimited_postMessage_waitsForRetryAfter_andLosesNothing_andImagesUseTheExternalUpload() throws Exception {
    try (SlackHarness h = new SlackHarness(dir).withAgent()) {
      h.slack.rateLimit("chat.postMessage", 1);
      h.startSocketMode(UnaryOperator.identity());
      long start = System.nanoTime();
      h.slack.socketMode().sendEvent(FakeSlack.message("Ev8", CHANNEL, "1700000008.000100", "first"));
      h.slack.await("chat.postMessage", c -> "You said: first".equals(c.fields().get("text")), WAIT);
      assertTrue(System.nanoTime() - start >= 900_000_000L, "Retry-After: 1 was honoured");
      assertEquals(1, h.slack.calls("429 chat.postMessage").size(), "one 429");
      assertEquals(1, h.slack.calls("chat.postMessage").size(), "then the message, once");

      h.slack.socketMode().sendEvent(FakeSlack.message("Ev9", CHANNEL, "1700000009.000100", "a chart please"));
      FakeSlack.Call done = h.slack.await("files.completeUploadExternal", c -> true, WAIT);
      assertEquals("1700000009.000100", done.fields().get("thread_ts"));
      assertEquals("You said: a chart please", done.fields().get("initial_comment"), "short text is the image's comment");
      String fileId = new ObjectMapper().readTree(done.fields().get("files")).get(0).get("id").asText();
      assertArrayEquals(EchoAgent.png(), h.slack.uploaded(fileId));
    }
  }

  @Test
  void fetchFromAnotherChannelsSession_isRefused() throws Exception {
    try (SlackHarness h = new SlackHarness(dir)) {
      String url = h.slack.addFile("F0P", EchoAgent.png());
      h.startSocketMode(UnaryOperator.identity());
      h.slack.socketMode().sendEvent(FakeSlack.withFile(FakeSlack.message("Ev10", CHANNEL, "1700000010.000100", ""), "F0P", "p.png",
          100, "image/png", url));
      h.awaitForwarded(1);
      String ref = MediaFrames.mediaOf((Payload.UserMessage) h.forwarded().get(0).payloadView()).get(0).ref();
      MediaAnswer.Failed failed = assertInstanceOf(MediaAnswer.Failed.class,
          fetch(h, new SessionKey("slack", DM + ":1700000010.000100"), "steal", ref));
      assertEquals(ErrorCode.PERMISSION_DENIED, failed.code());
      assertFalse(h.slack.downloads().contains("F0P"));
    }
  }

  private static MediaAnswer fetch(SlackHarness h, SessionKey session, String msgId, String ref) throws Exception {
    h.client.send(INSTANCE, MediaFrames.fetchRequest(session, msgId, ref)).get(10, TimeUnit.SECONDS);
    PollRequest request = new PollRequest(session.channel(), session.id(), 0, 10, 20_000, Set.of(MediaFrames.ANSWER), msgId);
    FramePage page = h.client.poll(INSTANCE, request).get(30, TimeUnit.SECONDS);
    assertEquals(1, page.frames().size(), "exactly one answer to " + msgId);
    return MediaFrames.parseAnswer(page.frames().get(0), Limits.defaults());
  }
}
