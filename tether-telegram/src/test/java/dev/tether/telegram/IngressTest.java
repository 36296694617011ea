package dev.tether.telegram;

import static dev.tether.telegram.BridgeHarness.CHAT;
import static dev.tether.telegram.BridgeHarness.GROUP;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tether.api.Frame;
import dev.tether.api.MediaType;
import dev.tether.api.Payload;
import dev.tether.api.SessionKey;
import dev.tether.telegram.testing.RecordingBotApi;
import dev.tether.telegram.testing.TgMessages;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Telegram to tether, against the local Bot API and an in-process host with the scripted agent. */
class IngressTest {
  @TempDir Path dir;

  @Test
  void text_roundTrip_answerArrivesInTheSameChat() throws Exception {
    try (BridgeHarness h = new BridgeHarness(dir).withAgent()) {
      h.start();
      h.api.addMessage(TgMessages.text(CHAT, "hello there"));
      RecordingBotApi.Call answer = h.api.awaitText(CHAT, "You said: hello there");
      assertEquals("You said: hello there", answer.text());

      Frame forwarded = h.forwarded().get(0);
      assertEquals(new SessionKey("telegram", "4242"), forwarded.session().orElseThrow());
      Payload.UserMessage m = (Payload.UserMessage) forwarded.payloadView();
      assertEquals("777", m.user().orElseThrow().id());
      assertEquals("Alice", m.user().orElseThrow().name());
      assertTrue(forwarded.msgId().orElseThrow().startsWith("tg-4242-"), forwarded.msgId().toString());
    }
  }

  @Test
  void photoInThreeSizes_onlyTheLargestIsDownloaded_andTheCaptionIsTheText() throws Exception {
    try (BridgeHarness h = new BridgeHarness(dir).withAgent()) {
      byte[] small = TestImages.jpeg(90, 60);
      byte[] medium = TestImages.jpeg(320, 213);
      byte[] large = TestImages.jpeg(1280, 853);
      String s = h.api.addFile(small);
      String m = h.api.addFile(medium);
      String l = h.api.addFile(large);
      h.start();
      h.api.addMessage(TgMessages.photo(CHAT, "what is this?", s, small.length, m, medium.length, l, large.length));

      RecordingBotApi.Call answer = h.api.awaitText(CHAT, "You said: what is this?");
      assertTrue(answer.text().contains("image 1: image/jpeg, " + large.length + " bytes, 1280x853"), answer.text());
      assertEquals(1, h.api.downloads().size(), "only the largest size is downloaded: " + h.api.downloads());
      assertEquals(List.of(l), h.api.calls("getFile").stream().map(c -> c.fields().get("file_id")).toList());
    }
  }

  @Test
  void imageDocument_isForwardedAsAnImageOfItsType() throws Exception {
    try (BridgeHarness h = new BridgeHarness(dir).withAgent()) {
      byte[] png = TestImages.png(64, 48);
      String f = h.api.addFile(png);
      h.start();
      h.api.addMessage(TgMessages.document(CHAT, "a diagram", f, "diagram.png", "image/png", (long) png.length));

      RecordingBotApi.Call answer = h.api.awaitText(CHAT, "You said: a diagram");
      assertTrue(answer.text().contains("image 1: image/png, " + png.length + " bytes, 64x48"), answer.text());
      assertEquals(MediaType.PNG, h.agent().messages().get(0).images().get(0).mediaType());
    }
  }

  @Test
  void photoOf25MB_isNotDownloaded_andExplained_andLaterMessagesStillWork() throws Exception {
    try (BridgeHarness h = new BridgeHarness(dir).withAgent()) {
      String small = h.api.addFile(TestImages.jpeg(90, 60));
      String big = h.api.addFile(TestImages.jpeg(100, 100)); // its declared size is what matters
      h.start();
      h.api.addMessage(TgMessages.photo(CHAT, "huge", small, 3000, big, 25_000_000));
      RecordingBotApi.Call notice = h.api.awaitText(CHAT, "not forwarded");
      assertTrue(notice.text().contains("20 MB"), notice.text());

      h.api.addMessage(TgMessages.text(CHAT, "after the big one"));
      h.api.awaitText(CHAT, "You said: after the big one");
      assertEquals(List.of(), h.api.downloads(), "nothing was downloaded");
      assertEquals(List.of(), h.api.calls("getFile"), "not even asked for");
      assertEquals(1, h.forwarded().size(), "only the later text reached the host");
    }
  }

  @Test
  void photoWithoutFileSize_overTheLimit_stopsAtTheCapAndIsExplained() throws Exception {
    try (BridgeHarness h = new BridgeHarness(dir).withAgent()) {
      String f = h.api.addFile(TestImages.paddedJpeg(11 << 20), false);
      h.start();
      h.api.addMessage(TgMessages.photo(CHAT, null, f, null));
      RecordingBotApi.Call notice = h.api.awaitText(CHAT, "larger than 10.0 MiB");
      assertTrue(notice.text().contains("not forwarded"), notice.text());
      h.api.addMessage(TgMessages.text(CHAT, "next"));
      h.api.awaitText(CHAT, "You said: next");
      assertEquals(1, h.forwarded().size());
    }
  }

  @Test
  void pdfDocument_isExplained_andNothingIsForwarded() throws Exception {
    try (BridgeHarness h = new BridgeHarness(dir).withAgent()) {
      String f = h.api.addFile("%PDF-1.7 not an image".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
      h.start();
      h.api.addMessage(TgMessages.document(CHAT, "read this", f, "report.pdf", "application/pdf", 21L));
      RecordingBotApi.Call notice = h.api.awaitText(CHAT, "'application/pdf'");
      assertTrue(notice.text().contains("PNG, JPEG, GIF and WebP"), notice.text());
      h.api.addMessage(TgMessages.text(CHAT, "ok then"));
      h.api.awaitText(CHAT, "You said: ok then");
      assertEquals(1, h.forwarded().size());
      assertEquals(List.of(), h.api.downloads());
    }
  }

  @Test
  void chatNotAllowed_forwardsNothing_andIsNeverAnswered() throws Exception {
    try (BridgeHarness h = new BridgeHarness(dir).withAgent()) {
      h.start();
      h.api.addMessage(TgMessages.text(999L, "let me in"));
      h.api.addMessage(TgMessages.text(999L, "please"));
      h.api.addMessage(TgMessages.text(CHAT, "allowed"));
      h.api.awaitText(CHAT, "You said: allowed");
      assertEquals(1, h.forwarded().size());
      assertEquals(List.of(), h.api.calls().stream().filter(c -> "999".equals(c.fields().get("chat_id"))).toList());
    }
  }

  @Test
  void chatNotAllowed_withRefusal_getsExactlyOneRefusalNamingItsId() throws Exception {
    try (BridgeHarness h = new BridgeHarness(dir).withAgent()) {
      h.start(b -> b.refuseOtherChats(true));
      h.api.addMessage(TgMessages.text(999L, "let me in"));
      h.api.addMessage(TgMessages.text(999L, "please"));
      h.api.addMessage(TgMessages.text(CHAT, "allowed"));
      h.api.awaitText(CHAT, "You said: allowed");
      RecordingBotApi.Call refusal = h.api.awaitText(999L, "id 999");
      assertEquals(1, h.api.delivered().stream().filter(c -> c.chatId() == 999L).count(), refusal.text());
      assertEquals(1, h.forwarded().size());
    }
  }

  @Test
  void albumOfTwo_isAnsweredAsOneMessage_withItsImagesInOrder() throws Exception {
    try (BridgeHarness h = new BridgeHarness(dir).withAgent()) {
      byte[] first = TestImages.jpeg(320, 200);
      byte[] second = TestImages.jpeg(200, 320);
      String a = h.api.addFile(first);
      String b = h.api.addFile(second);
      h.start();
      h.api.addMessage(TgMessages.inAlbum(TgMessages.photo(CHAT, "compare these", a, first.length), "album-1"));
      h.api.addMessage(TgMessages.inAlbum(TgMessages.photo(CHAT, null, b, second.length), "album-1"));

      RecordingBotApi.Call answer = h.api.awaitText(CHAT, "You said: compare these");
      assertTrue(answer.text().contains("image 1: image/jpeg, " + first.length + " bytes, 320x200"), answer.text());
      assertTrue(answer.text().contains("image 2: image/jpeg, " + second.length + " bytes, 200x320"), answer.text());
      assertEquals(1, h.forwarded().size(), "one message for the album");
      assertEquals(1, h.api.delivered().size(), "one answer: " + RecordingBotApi.describe(h.api.delivered()));
    }
  }

  @Test
  void albumOfSix_keepsTheFirstFour_andTellsHowManyWereLeftOut() throws Exception {
    try (BridgeHarness h = new BridgeHarness(dir).withAgent()) {
      String[] ids = new String[6];
      for (int i = 0; i < 6; i++) {
        ids[i] = h.api.addFile(TestImages.jpeg(100 + i, 50));
      }
      h.start();
      for (int i = 0; i < 6; i++) {
        h.api.addMessage(TgMessages.inAlbum(TgMessages.photo(CHAT, i == 0 ? "six" : null, ids[i], null), "album-6"));
      }
      RecordingBotApi.Call notice = h.api.awaitText(CHAT, "2 were left out");
      assertTrue(notice.text().contains("first 4 of the 6"), notice.text());
      RecordingBotApi.Call answer = h.api.awaitText(CHAT, "You said: six");
      for (int i = 0; i < 4; i++) {
        assertTrue(answer.text().contains("image " + (i + 1) + ": image/jpeg") && answer.text().contains((100 + i) + "x50"),
            answer.text());
      }
      assertEquals(4, h.api.downloads().size(), "the left-out items are not downloaded");
      assertEquals(1, h.forwarded().size());
    }
  }

  @Test
  void forumTopic_isItsOwnSession_andIsAnsweredInItsTopic() throws Exception {
    try (BridgeHarness h = new BridgeHarness(dir).withAgent()) {
      h.start();
      h.api.addMessage(TgMessages.inTopic(TgMessages.text(GROUP, "in topic 77"), 77));
      h.api.addMessage(TgMessages.text(GROUP, "in the general chat"));
      RecordingBotApi.Call inTopic = h.api.awaitText(GROUP, "You said: in topic 77");
      RecordingBotApi.Call general = h.api.awaitText(GROUP, "You said: in the general chat");
      assertEquals("77", inTopic.fields().get("message_thread_id"));
      assertEquals(null, general.fields().get("message_thread_id"));
      assertEquals(List.of(new SessionKey("telegram", GROUP + ":77"), new SessionKey("telegram", Long.toString(GROUP))),
          h.forwarded().stream().map(f -> f.session().orElseThrow()).toList());
    }
  }
}
