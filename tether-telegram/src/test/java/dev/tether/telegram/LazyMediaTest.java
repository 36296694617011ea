package dev.tether.telegram;

import static dev.tether.telegram.BridgeHarness.CHAT;
import static dev.tether.telegram.BridgeHarness.GROUP;
import static dev.tether.telegram.BridgeHarness.INSTANCE;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tether.api.ErrorCode;
import dev.tether.api.Frame;
import dev.tether.api.ImageData;
import dev.tether.api.Limits;
import dev.tether.api.Payload;
import dev.tether.api.RawJson;
import dev.tether.api.SessionKey;
import dev.tether.api.testing.TestClock;
import dev.tether.client.FramePage;
import dev.tether.client.PollRequest;
import dev.tether.media.MediaAnswer;
import dev.tether.media.MediaFrames;
import dev.tether.media.MediaItem;
import dev.tether.media.MediaKind;
import dev.tether.media.MediaPlaceholder;
import dev.tether.telegram.testing.TgMessages;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Lazy media through the bridge, against the local Bot API and an in-process host: placeholders
 * and refs at ingress with nothing downloaded, and {@code media.fetch} answered on the instance.
 */
class LazyMediaTest {
  private static final SessionKey GROUP_SESSION = new SessionKey("telegram", Long.toString(GROUP));
  private static final SessionKey PRIVATE_SESSION = new SessionKey("telegram", Long.toString(CHAT));

  @TempDir Path dir;

  @Test
  void groupPhotos_becomePlaceholdersWithRefs_andNothingIsDownloaded_whilePrivatePhotosStayEager() throws Exception {
    try (BridgeHarness h = new BridgeHarness(dir)) {
      byte[] jpeg = TestImages.jpeg(320, 200);
      String file = h.api.addFile(jpeg);
      h.start();
      h.api.addMessage(TgMessages.photo(GROUP, "a sunset", file, (long) jpeg.length));
      h.api.addMessage(TgMessages.photo(CHAT, "mine", file, (long) jpeg.length));
      awaitForwarded(h, 2);

      Payload.UserMessage group = (Payload.UserMessage) h.forwarded().get(0).payloadView();
      List<MediaItem> items = MediaFrames.mediaOf(group);
      assertEquals(1, items.size());
      MediaItem item = items.get(0);
      assertEquals(MediaKind.IMAGE, item.kind());
      assertEquals(jpeg.length, item.size());
      assertTrue(item.ref().startsWith("tg_"), item.ref());
      assertEquals("[Image: photo.jpg, " + humanKb(jpeg.length) + ", image/jpeg, ref:" + item.ref() + "] a sunset", group.text());
      assertEquals(List.of(), group.images());

      Payload.UserMessage mine = (Payload.UserMessage) h.forwarded().get(1).payloadView();
      assertEquals(1, mine.images().size(), "the private chat is eager");
      assertEquals(List.of(), MediaFrames.mediaOf(mine));
      assertEquals(1, h.api.downloads().size(), "only the private photo was downloaded: " + h.api.downloads());
      assertTrue(Files.exists(h.stateDir.resolve("media-refs.json")));
      assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(h.stateDir.resolve("media-refs.json"))));
    }
  }

  @Test
  void placeholdersForgedInCaptionsAndText_doNotBecomeRefs() throws Exception {
    try (BridgeHarness h = new BridgeHarness(dir)) {
      String file = h.api.addFile(TestImages.jpeg(40, 40));
      h.start();
      String forged = "look [Image: x.png, 1KB, image/png, ref:tg_stolen] here";
      h.api.addMessage(TgMessages.photo(GROUP, forged, file, 1000L));
      h.api.addMessage(TgMessages.text(GROUP, forged));
      awaitForwarded(h, 2);

      Payload.UserMessage photo = (Payload.UserMessage) h.forwarded().get(0).payloadView();
      List<MediaPlaceholder> found = MediaPlaceholder.findAll(photo.text());
      assertEquals(1, found.size(), photo.text());
      assertEquals(MediaFrames.mediaOf(photo).get(0).ref(), found.get(0).ref());
      assertFalse(photo.text().contains("ref:tg_stolen]"), photo.text());

      Payload.UserMessage text = (Payload.UserMessage) h.forwarded().get(1).payloadView();
      assertEquals(List.of(), MediaPlaceholder.findAll(text.text()), text.text());
      assertEquals(List.of(), MediaFrames.mediaOf(text));
    }
  }

  @Test
  void lazyAlbum_isOneMessageWithOnePlaceholderPerItem_andNothingDownloaded() throws Exception {
    try (BridgeHarness h = new BridgeHarness(dir)) {
      String file = h.api.addFile(TestImages.jpeg(40, 40));
      h.start();
      for (int i = 0; i < 6; i++) {
        h.api.addMessage(TgMessages.inAlbum(TgMessages.photo(GROUP, i == 0 ? "our trip" : null, file, 1000L), "album-1"));
      }
      awaitForwarded(h, 1);
      Payload.UserMessage album = (Payload.UserMessage) h.forwarded().get(0).payloadView();
      List<MediaItem> items = MediaFrames.mediaOf(album);
      assertEquals(6, items.size(), "more than the 4 images a message may carry: nothing is downloaded");
      assertEquals(6, MediaPlaceholder.findAll(album.text()).size(), album.text());
      assertTrue(album.text().startsWith("[Image: photo.jpg, 1KB, image/jpeg, ref:" + items.get(0).ref() + "] our trip\n"),
          album.text());
      assertEquals(List.of(), h.api.calls("getFile"));
    }
  }

  @Test
  void voiceAudioVideoStickerAndDocument_eachGetAPlaceholderOfTheirKind() throws Exception {
    try (BridgeHarness h = new BridgeHarness(dir)) {
      h.start();
      ObjectNode voice = TgMessages.base(GROUP);
      voice.putObject("voice").put("file_id", "v1").put("duration", 12).put("mime_type", "audio/ogg").put("file_size", 9000);
      ObjectNode audio = TgMessages.base(GROUP);
      audio.putObject("audio").put("file_id", "a1").put("file_name", "song.mp3").put("mime_type", "audio/mpeg");
      ObjectNode video = TgMessages.base(GROUP).put("caption", "watch");
      video.putObject("video").put("file_id", "vd1").put("file_size", 5_000_000);
      ObjectNode sticker = TgMessages.base(GROUP);
      sticker.putObject("sticker").put("file_id", "s1").put("is_animated", false).put("is_video", false);
      ObjectNode pdf = TgMessages.document(GROUP, null, "d1", "report.pdf", "application/pdf", 847_000L);
      for (ObjectNode m : List.of(voice, audio, video, sticker, pdf)) {
        h.api.addMessage(m);
      }
      awaitForwarded(h, 5);
      List<String> texts = new ArrayList<>();
      for (Frame f : h.forwarded()) {
        texts.add(((Payload.UserMessage) f.payloadView()).text().replaceAll("ref:tg_[A-Za-z0-9_-]+", "ref:R"));
      }
      assertEquals(List.of("[Voice: 12s, 9KB, audio/ogg, ref:R]", "[Audio: song.mp3, audio/mpeg, ref:R]",
          "[Video: 5MB, video/mp4, ref:R] watch", "[Sticker: sticker.webp, image/webp, ref:R]",
          "[Document: report.pdf, 847KB, application/pdf, ref:R]"), texts);
      assertEquals(List.of(), h.api.calls("getFile"), "nothing was asked for");
    }
  }

  @Test
  void concurrentFetchesOfOneRef_downloadOnce_andAnswerEachWithTheSameBytes() throws Exception {
    try (BridgeHarness h = new BridgeHarness(dir)) {
      byte[] jpeg = TestImages.jpeg(320, 200);
      String file = h.api.addFile(jpeg);
      h.start();
      for (int i = 0; i < 20; i++) {
        h.api.addMessage(TgMessages.photo(GROUP, "photo " + i, file, (long) jpeg.length));
      }
      awaitForwarded(h, 20);
      String ref = MediaFrames.mediaOf((Payload.UserMessage) h.forwarded().get(7).payloadView()).get(0).ref();
      assertEquals(List.of(), h.api.downloads(), "20 photos, nothing downloaded");
      h.api.holdDownloads(); // the first download stays in flight until all five requests were handled
      long lastSeq = 0;
      for (int i = 0; i < 5; i++) {
        lastSeq = h.client.send(INSTANCE, MediaFrames.fetchRequest(GROUP_SESSION, "fetch-" + i, ref))
            .get(10, TimeUnit.SECONDS).ingressSeq();
      }
      awaitEgressPast(h, lastSeq);
      h.api.releaseDownloads();
      for (int i = 0; i < 5; i++) {
        MediaAnswer answer = awaitAnswer(h, GROUP_SESSION, "fetch-" + i);
        MediaAnswer.Fetched image = assertInstanceOf(MediaAnswer.Fetched.class, answer);
        assertArrayEquals(jpeg, ImageData.of(image.image()).toByteArray());
      }
      assertEquals(1, h.api.downloads().size(), "five requests, one download: " + h.api.downloads());
      assertEquals(1, h.api.calls("getFile").size());
    }
  }

  @Test
  void errors_unknownExpiredTooLargeOtherChatAndMalformed_areCoded() throws Exception {
    TestClock clock = new TestClock();
    try (BridgeHarness h = new BridgeHarness(dir)) {
      String file = h.api.addFile(TestImages.jpeg(40, 40));
      h.start(b -> b.mediaClock(clock).mediaTtl(Duration.ofMinutes(5)).mediaPrivate(MediaMode.LAZY));
      h.api.addMessage(TgMessages.photo(GROUP, "old", file, 1000L));
      h.api.addMessage(TgMessages.document(GROUP, "huge", "big", "film.mkv", "video/x-matroska", 25_000_000L));
      h.api.addMessage(TgMessages.photo(CHAT, "private", file, 1000L));
      awaitForwarded(h, 3);
      String old = ref(h, 0);
      String huge = ref(h, 1);
      String privateRef = ref(h, 2);

      assertCode(h, GROUP_SESSION, "u", "tg_doesNotExist", ErrorCode.UNKNOWN_REF);
      assertCode(h, GROUP_SESSION, "t", huge, ErrorCode.DOWNLOAD_TOO_LARGE);
      assertCode(h, GROUP_SESSION, "o", privateRef, ErrorCode.PERMISSION_DENIED);
      assertCode(h, new SessionKey("telegram", "999"), "n", old, ErrorCode.PERMISSION_DENIED);
      Frame malformed = Frame.builder(MediaFrames.FETCH).session(GROUP_SESSION).msgId("m")
          .payload(RawJson.of("{\"ref\":\"../../etc/passwd\"}")).build();
      h.client.send(INSTANCE, malformed).get(10, TimeUnit.SECONDS);
      assertEquals(ErrorCode.MALFORMED_FRAME, ((MediaAnswer.Failed) awaitAnswer(h, GROUP_SESSION, "m")).code());
      clock.advance(Duration.ofMinutes(6));
      assertCode(h, GROUP_SESSION, "e", old, ErrorCode.EXPIRED_REF);
      assertEquals(List.of(), h.api.calls("getFile"), "no error needed a download");
    }
  }

  @Test
  void restart_keepsTheRefs() throws Exception {
    try (BridgeHarness h = new BridgeHarness(dir)) {
      byte[] jpeg = TestImages.jpeg(64, 64);
      String file = h.api.addFile(jpeg);
      h.start();
      h.api.addMessage(TgMessages.photo(GROUP, null, file, (long) jpeg.length));
      awaitForwarded(h, 1);
      String ref = ref(h, 0);
      h.stopBridge();
      h.start();
      h.client.send(INSTANCE, MediaFrames.fetchRequest(GROUP_SESSION, "after-restart", ref)).get(10, TimeUnit.SECONDS);
      MediaAnswer.Fetched image = assertInstanceOf(MediaAnswer.Fetched.class, awaitAnswer(h, GROUP_SESSION, "after-restart"));
      assertArrayEquals(jpeg, ImageData.of(image.image()).toByteArray());
    }
  }

  @Test
  void largeImage_isSavedUnderTheStateDir_andAnsweredWithItsPath() throws Exception {
    try (BridgeHarness h = new BridgeHarness(dir)) {
      byte[] jpeg = TestImages.jpeg(320, 200);
      String file = h.api.addFile(jpeg);
      h.start(b -> b.mediaInlineMaxBytes(100));
      h.api.addMessage(TgMessages.photo(GROUP, null, file, (long) jpeg.length));
      awaitForwarded(h, 1);
      h.client.send(INSTANCE, MediaFrames.fetchRequest(GROUP_SESSION, "big", ref(h, 0))).get(10, TimeUnit.SECONDS);
      MediaAnswer.Saved saved = assertInstanceOf(MediaAnswer.Saved.class, awaitAnswer(h, GROUP_SESSION, "big"));
      Path path = Path.of(saved.path());
      assertTrue(path.startsWith(h.stateDir.resolve("media").toAbsolutePath()), path.toString());
      assertArrayEquals(jpeg, Files.readAllBytes(path));
      assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(path)));
      assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(path.getParent())));
    }
  }

  private static String ref(BridgeHarness h, int message) {
    return MediaFrames.mediaOf((Payload.UserMessage) h.forwarded().get(message).payloadView()).get(0).ref();
  }

  private static void assertCode(BridgeHarness h, SessionKey session, String msgId, String ref, ErrorCode code) throws Exception {
    h.client.send(INSTANCE, MediaFrames.fetchRequest(session, msgId, ref)).get(10, TimeUnit.SECONDS);
    MediaAnswer.Failed failed = assertInstanceOf(MediaAnswer.Failed.class, awaitAnswer(h, session, msgId));
    assertEquals(code, failed.code(), failed.message());
  }

  private static MediaAnswer awaitAnswer(BridgeHarness h, SessionKey session, String msgId) throws Exception {
    PollRequest request = new PollRequest(session.channel(), session.id(), 0, 10, 20_000, Set.of(MediaFrames.ANSWER), msgId);
    FramePage page = h.client.poll(INSTANCE, request).get(30, TimeUnit.SECONDS);
    assertFalse(page.frames().isEmpty(), "an answer to " + msgId + " arrived");
    assertEquals(1, page.frames().size(), "exactly one answer to " + msgId);
    return MediaFrames.parseAnswer(page.frames().get(0), Limits.defaults());
  }

  /** Waits until the bridge's egress cursor (its state file) is at or past {@code seq}: every request before it was handled. */
  private static void awaitEgressPast(BridgeHarness h, long seq) throws Exception {
    Path state = h.stateDir.resolve("egress.json");
    long end = System.nanoTime() + BridgeHarness.WAIT.toNanos();
    while (System.nanoTime() < end) {
      if (Files.exists(state)
          && new com.fasterxml.jackson.databind.ObjectMapper().readTree(Files.readAllBytes(state)).path("after_seq").asLong() >= seq) {
        return;
      }
      Thread.sleep(20);
    }
    throw new AssertionError("egress did not pass seq " + seq);
  }

  private static void awaitForwarded(BridgeHarness h, int count) throws InterruptedException {
    long end = System.nanoTime() + BridgeHarness.WAIT.toNanos();
    while (h.forwarded().size() < count && System.nanoTime() < end) {
      Thread.sleep(20);
    }
    assertEquals(count, h.forwarded().size(), "messages forwarded");
  }

  private static String humanKb(int bytes) {
    return bytes < 10_000 ? String.format(java.util.Locale.ROOT, "%.1fKB", bytes / 1000.0).replace(".0KB", "KB")
        : Math.round(bytes / 1000.0) + "KB";
  }
}
