package dev.tether.telegram;

import static dev.tether.telegram.BridgeHarness.CHAT;
import static dev.tether.telegram.BridgeHarness.INSTANCE;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tether.api.Frame;
import dev.tether.api.Image;
import dev.tether.api.Limits;
import dev.tether.api.MediaType;
import dev.tether.api.Payload;
import dev.tether.api.RawJson;
import dev.tether.api.SessionKey;
import dev.tether.images.ImageHeaders;
import dev.tether.telegram.testing.RecordingBotApi;
import dev.tether.telegram.testing.TgMessages;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Tether to Telegram: how answers reach the chat. */
class EgressTest {
  private static final SessionKey CHAT_SESSION = new SessionKey("telegram", Long.toString(CHAT));

  @TempDir Path dir;

  @Test
  void chartAnswerWithShortText_isOnePhotoUpload_withTheTextAsCaption() throws Exception {
    try (BridgeHarness h = new BridgeHarness(dir).withAgent()) {
      h.start();
      h.api.addMessage(TgMessages.text(CHAT, "draw a chart"));
      RecordingBotApi.Call photo = h.api.awaitText(CHAT, ScriptedAgent.CHART_TEXT);
      assertEquals("sendPhoto", photo.method());
      assertEquals("photo", photo.upload().field());
      assertEquals("image/png", photo.upload().contentType());
      assertEquals(new ImageHeaders.Dimensions(400, 300), ImageHeaders.dimensions(photo.upload().bytes()));
      assertEquals(List.of("sendPhoto"), h.api.delivered().stream().map(RecordingBotApi.Call::method).toList());
    }
  }

  @Test
  void chartAnswerWithLongText_photoArrivesBeforeItsText() throws Exception {
    try (BridgeHarness h = new BridgeHarness(dir).withAgent()) {
      h.start();
      h.api.addMessage(TgMessages.text(CHAT, "draw a chart and explain it"));
      h.api.awaitText(CHAT, "The bars grow");
      List<RecordingBotApi.Call> delivered = h.api.delivered();
      assertEquals(List.of("sendPhoto", "sendMessage"), delivered.stream().map(RecordingBotApi.Call::method).toList());
      assertNull(delivered.get(0).fields().get("caption"), "a text over 1024 characters is not a caption");
      assertTrue(delivered.get(1).text().startsWith(ScriptedAgent.CHART_TEXT));
    }
  }

  @Test
  void answerOver4096Characters_isSplitIntoValidMessagesAtLineBreaks() throws Exception {
    try (BridgeHarness h = new BridgeHarness(dir).withAgent()) {
      h.start();
      h.api.addMessage(TgMessages.text(CHAT, "a long answer please"));
      List<RecordingBotApi.Call> parts = h.api.awaitDelivered(c -> c.method().equals("sendMessage"), 3, BridgeHarness.WAIT);
      Thread.sleep(300); // nothing more may follow
      parts = h.api.delivered();
      String full = ((Payload.AssistantDone) h.store.retained(INSTANCE).stream()
          .filter(f -> f.type().equals("assistant.done")).findFirst().orElseThrow().payloadView()).text();
      assertEquals(3, parts.size(), RecordingBotApi.describe(parts));
      for (RecordingBotApi.Call p : parts) {
        assertTrue(p.text().length() <= 4096 && !p.text().isBlank(), "length " + p.text().length());
        assertTrue(p.text().strip().endsWith("wrap."), "cut at a line break: ..." + p.text().substring(p.text().length() - 20));
      }
      assertEquals(full.strip(), String.join("\n", parts.stream().map(RecordingBotApi.Call::text).toList()).strip());
    }
  }

  @Test
  void photoTooNarrowForSendPhoto_goesAsADocument() throws Exception {
    try (BridgeHarness h = new BridgeHarness(dir).withAgent()) {
      h.start();
      h.api.addMessage(TgMessages.text(CHAT, "a panorama please"));
      RecordingBotApi.Call doc = h.api.awaitText(CHAT, "A panorama.");
      assertEquals("sendDocument", doc.method());
      assertEquals("document", doc.upload().field());
      assertEquals("image-1.png", doc.upload().fileName());
      assertEquals(List.of(), h.api.calls("sendPhoto"), "never tried as a photo");
    }
  }

  @Test
  void gifAnswer_goesAsADocumentSoItKeepsItsAnimation_andImagesKeepTheirOrder() throws Exception {
    try (BridgeHarness h = new BridgeHarness(dir)) {
      h.start();
      byte[] gif = dev.tether.api.testing.ImageBytes.encode(
          new java.awt.image.BufferedImage(16, 16, java.awt.image.BufferedImage.TYPE_INT_RGB), "gif");
      Image animated = dev.tether.images.Images.fromBytes(gif, MediaType.GIF);
      h.store.append(INSTANCE, Frame.of(CHAT_SESSION, "m", Payload.AssistantDone.of("two pictures",
          List.of(TestImages.pngImage(30, 20), animated))));
      h.api.awaitText(CHAT, "two pictures");
      List<RecordingBotApi.Call> delivered = h.api.delivered();
      assertEquals(List.of("sendPhoto", "sendDocument"), delivered.stream().map(RecordingBotApi.Call::method).toList());
      assertEquals("image-2.gif", delivered.get(1).upload().fileName());
      assertEquals("image/gif", delivered.get(1).upload().contentType());
      assertEquals("two pictures", delivered.get(1).fields().get("caption"), "the caption rides on the last image");
    }
  }

  @Test
  void typing_isShownWhileTheAgentWorks_beforeTheAnswer() throws Exception {
    try (BridgeHarness h = new BridgeHarness(dir).withAgent()) {
      h.start();
      h.api.addMessage(TgMessages.text(CHAT, "think about it"));
      RecordingBotApi.Call answer = h.api.awaitText(CHAT, "You said: think about it");
      List<RecordingBotApi.Call> typing = h.api.calls("sendChatAction");
      assertTrue(!typing.isEmpty(), "typing was shown");
      assertEquals("typing", typing.get(0).fields().get("action"));
      assertEquals(Long.toString(CHAT), typing.get(0).fields().get("chat_id"));
      assertTrue(typing.get(0).atNanos() < answer.atNanos(), "typing comes before the answer");
    }
  }

  @Test
  void typing_isRepeatedWhileTheAgentThinks_andStopsWithTheAnswer() throws Exception {
    try (BridgeHarness h = new BridgeHarness(dir)) {
      h.start();
      h.store.append(INSTANCE, Frame.of(CHAT_SESSION, "m1", Payload.Presence.of(Payload.Presence.THINKING)));
      h.api.await(calls -> calls.stream().filter(c -> c.method().equals("sendChatAction")).count() >= 3,
          BridgeHarness.WAIT, "typing repeated every second");
      h.store.append(INSTANCE, Frame.of(CHAT_SESSION, "m1", Payload.AssistantDone.of("done thinking", List.of())));
      h.api.awaitText(CHAT, "done thinking");
      Thread.sleep(300);
      long after = h.api.calls("sendChatAction").size();
      Thread.sleep(2500);
      assertEquals(after, h.api.calls("sendChatAction").size(), "no typing after the answer");
    }
  }

  @Test
  void unsolicitedAnswers_areDeliveredToo() throws Exception {
    try (BridgeHarness h = new BridgeHarness(dir)) {
      h.start();
      h.store.append(INSTANCE, Frame.of(CHAT_SESSION, "agent-1", Payload.AssistantDone.of("nobody asked, but hello", List.of())));
      h.store.append(INSTANCE, Frame.of(CHAT_SESSION, "agent-2", Payload.AssistantMessage.of("a reminder", List.of())));
      h.api.awaitText(CHAT, "nobody asked, but hello");
      h.api.awaitText(CHAT, "a reminder");
    }
  }

  @Test
  void framesForOtherChannelsOrChatsNotAllowed_areNotSent() throws Exception {
    try (BridgeHarness h = new BridgeHarness(dir)) {
      h.start();
      h.store.append(INSTANCE, Frame.of(new SessionKey("telegram", "999"), "x", Payload.AssistantDone.of("to a stranger", List.of())));
      h.store.append(INSTANCE, Frame.of(new SessionKey("telegram", "not-a-chat"), "x", Payload.AssistantDone.of("to nobody", List.of())));
      h.store.append(INSTANCE, Frame.of(SessionKey.host("4242"), "x", Payload.AssistantDone.of("to the host", List.of())));
      h.store.append(INSTANCE, Frame.of(CHAT_SESSION, "x", Payload.AssistantDone.of("to the chat", List.of())));
      h.api.awaitText(CHAT, "to the chat");
      assertEquals(1, h.api.delivered().size(), RecordingBotApi.describe(h.api.delivered()));
    }
  }

  @Test
  void errorFrame_isToldToTheChat() throws Exception {
    try (BridgeHarness h = new BridgeHarness(dir)) {
      h.start();
      h.store.append(INSTANCE, Frame.builder("error").version(1).session(CHAT_SESSION).msgId("m")
          .payload(RawJson.of("{\"code\":\"MODEL_UNAVAILABLE\",\"message\":\"the model is overloaded\"}")).build());
      h.api.awaitText(CHAT, "The agent reported an error: the model is overloaded");
    }
  }

  @Test
  void answerImageWhoseBytesDoNotMatchItsType_isLeftOut_andTheTextStillArrives() throws Exception {
    try (BridgeHarness h = new BridgeHarness(dir)) {
      h.start();
      Image lying = new Image(MediaType.PNG, Base64.getEncoder().encodeToString(TestImages.jpeg(20, 20)));
      h.store.append(INSTANCE, Frame.of(CHAT_SESSION, "m", Payload.AssistantDone.of("see the picture", List.of(lying))));
      h.api.awaitText(CHAT, "MEDIA_TYPE_MISMATCH");
      RecordingBotApi.Call text = h.api.awaitText(CHAT, "see the picture");
      assertEquals("sendMessage", text.method());
      assertEquals(List.of(), h.api.calls("sendPhoto", "sendDocument"));
    }
  }

  @Test
  void hostileAnswerImages_areEachLeftOutWithTheirCode_andTheValidOnesArriveWithTheirExactBytes() throws Exception {
    try (BridgeHarness h = new BridgeHarness(dir)) {
      h.start(b -> b.limits(Limits.builder().maxImageBytes(4000).build()));
      byte[] small = TestImages.png(20, 20);
      byte[] big = TestImages.paddedJpeg(5000);
      String smallB64 = Base64.getEncoder().encodeToString(small);
      // the same valid PNG with JSON escapes in its string, read through the parser, not the payload's bytes
      String escaped = "\\u00" + Integer.toHexString(smallB64.charAt(0)) + smallB64.substring(1).replace("/", "\\/");
      String json = "{\"text\":\"four images\",\"images\":["
          + "{\"media_type\":\"image/png\",\"data\":\"" + smallB64.replace('+', '-') + "_\"},"
          + "{\"media_type\":\"image/png\",\"data\":\"" + escaped + "\"},"
          + "{\"media_type\":\"image/jpeg\",\"data\":\"" + Base64.getEncoder().encodeToString(big) + "\"},"
          + "{\"media_type\":\"image/png\",\"data\":\"data:image/png;base64," + smallB64 + "\"},"
          + "{\"media_type\":\"image/png\",\"data\":\"" + smallB64 + "\"}]}";
      h.store.append(INSTANCE, Frame.builder("assistant.done").version(1).session(CHAT_SESSION).msgId("m")
          .payload(RawJson.of(json)).build());
      h.api.awaitText(CHAT, "four images");
      List<RecordingBotApi.Call> delivered = h.api.delivered();
      assertEquals(List.of("sendMessage", "sendMessage", "sendMessage", "sendPhoto", "sendPhoto"),
          delivered.stream().map(RecordingBotApi.Call::method).toList(), RecordingBotApi.describe(delivered));
      assertTrue(delivered.get(0).text().contains("INVALID_BASE64"), delivered.get(0).text());
      assertTrue(delivered.get(1).text().contains("IMAGE_TOO_LARGE"), delivered.get(1).text());
      assertTrue(delivered.get(2).text().contains("DATA_URI_NOT_ALLOWED"), delivered.get(2).text());
      assertArrayEquals(small, delivered.get(3).upload().bytes(), "the escaped image, decoded from its text");
      assertArrayEquals(small, delivered.get(4).upload().bytes(), "the plain image, decoded from the payload's bytes");
      assertEquals("image-2.png", delivered.get(4).upload().fileName());
      assertEquals("four images", delivered.get(4).fields().get("caption"));
    }
  }

  @Test
  void liveEdits_showADraftAndEditItIntoTheFinalAnswer() throws Exception {
    try (BridgeHarness h = new BridgeHarness(dir).withAgent()) {
      h.start(b -> b.liveEdits(true));
      h.api.addMessage(TgMessages.text(CHAT, "stream this answer"));
      RecordingBotApi.Call edit = h.api.awaitDelivered(c -> c.method().equals("editMessageText"), 1, BridgeHarness.WAIT)
          .stream().filter(c -> c.method().equals("editMessageText")).findFirst().orElseThrow();
      assertEquals("You said: stream this answer", edit.text());
      List<RecordingBotApi.Call> drafts = h.api.delivered().stream().filter(c -> c.method().equals("sendMessage")).toList();
      assertEquals(1, drafts.size(), "one draft, then edits: " + RecordingBotApi.describe(h.api.delivered()));
      assertTrue("You said: stream this answer".startsWith(drafts.get(0).text()), drafts.get(0).text());
      assertTrue(edit.fields().get("message_id") != null);
    }
  }
}
