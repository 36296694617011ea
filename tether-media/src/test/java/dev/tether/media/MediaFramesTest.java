package dev.tether.media;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tether.api.ErrorCode;
import dev.tether.api.Frame;
import dev.tether.api.FrameCodec;
import dev.tether.api.FrameTypes;
import dev.tether.api.Image;
import dev.tether.api.Limits;
import dev.tether.api.MediaType;
import dev.tether.api.Payload;
import dev.tether.api.RawJson;
import dev.tether.api.SessionKey;
import dev.tether.api.TetherException;
import dev.tether.api.testing.TestImages;
import dev.tether.images.Images;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

class MediaFramesTest {
  private static final SessionKey CHAT = new SessionKey("telegram", "-100200300");

  @Test
  void types_followTheWiresDirectionRule() {
    assertTrue(!FrameTypes.isHostToGuest(MediaFrames.FETCH), "the request flows guest to host");
    assertTrue(FrameTypes.isHostToGuest(MediaFrames.ANSWER), "the answer flows host to guest");
  }

  @Test
  void fetchRequest_roundTripsThroughTheCodec() {
    Frame request = MediaFrames.fetchRequest(CHAT, "mf-1", "tg_AbC-1.2");
    Frame read = FrameCodec.standard().read(FrameCodec.standard().write(request));
    assertEquals("tg_AbC-1.2", MediaFrames.parseFetchRequest(read));
    assertEquals(Optional.of("mf-1"), read.msgId());
    assertEquals(Optional.of(CHAT), read.session());
  }

  @ParameterizedTest
  @ValueSource(strings = {"{}", "{\"ref\":1}", "{\"ref\":\"\"}", "{\"ref\":\"../etc\"}",
      "{\"ref\":\"ref:tg_1\"}", "{\"ref\":\"tg 1\"}", "{\"ref\":null}", "{\"ref\":[\"tg_1\"]}"})
  void malformedRequests_areRefusedWithMalformedFrame(String payload) {
    Frame frame = Frame.builder(MediaFrames.FETCH).session(CHAT).msgId("m").payload(RawJson.of(payload)).build();
    TetherException e = assertThrows(TetherException.class, () -> MediaFrames.parseFetchRequest(frame));
    assertEquals(ErrorCode.MALFORMED_FRAME, e.code());
  }

  @Test
  void requestWithoutMsgId_isRefused_becauseItsAnswerCouldNotBeMatched() {
    Frame frame = Frame.builder(MediaFrames.FETCH).session(CHAT).payload(RawJson.of("{\"ref\":\"tg_1\"}")).build();
    assertEquals(ErrorCode.MALFORMED_FRAME, assertThrows(TetherException.class, () -> MediaFrames.parseFetchRequest(frame)).code());
  }

  @Test
  void answers_roundTrip_image_saved_and_error() {
    Image image = Images.fromBytes(TestImages.encode("png", 8, 8), MediaType.PNG);
    List<MediaAnswer> answers = List.of(
        new MediaAnswer.Fetched("tg_1", "image/png", image),
        new MediaAnswer.Saved("tg_2", "application/pdf", "/tmp/media/tg_2-report.pdf", 25_000_000),
        new MediaAnswer.Failed("tg_3", ErrorCode.EXPIRED_REF, "media ref:tg_3 expired"));
    for (MediaAnswer answer : answers) {
      Frame frame = FrameCodec.standard().read(FrameCodec.standard().write(MediaFrames.answer(CHAT, "mf-9", answer)));
      assertEquals(answer, MediaFrames.parseAnswer(frame, Limits.defaults()));
      assertEquals(Optional.of("mf-9"), frame.msgId());
    }
  }

  @Test
  void answerWithAnImageThatIsNotItsType_isRefusedByTheConsumer() {
    String gifAsPng = "{\"ref\":\"tg_1\",\"status\":\"image\",\"mime_type\":\"image/png\","
        + "\"images\":[{\"media_type\":\"image/png\",\"data\":\"R0lGODlhAQABAAAAACw=\"}]}";
    Frame frame = Frame.builder(MediaFrames.ANSWER).session(CHAT).msgId("m").payload(RawJson.of(gifAsPng)).build();
    assertEquals(ErrorCode.MEDIA_TYPE_MISMATCH,
        assertThrows(TetherException.class, () -> MediaFrames.parseAnswer(frame, Limits.defaults())).code());
  }

  @ParameterizedTest
  @ValueSource(strings = {"{\"ref\":\"tg_1\"}", "{\"ref\":\"tg_1\",\"status\":\"later\"}",
      "{\"ref\":\"tg_1\",\"status\":\"saved\",\"mime_type\":\"a/b\",\"path\":\"/x\",\"size\":-1}",
      "{\"ref\":\"tg_1\",\"status\":\"image\",\"mime_type\":\"image/png\",\"images\":[]}",
      "{\"ref\":\"tg_1\",\"status\":\"error\",\"error\":\"x\"}", "{\"status\":\"image\"}"})
  void malformedAnswers_areRefusedWithMalformedFrame(String payload) {
    Frame frame = Frame.builder(MediaFrames.ANSWER).session(CHAT).msgId("m").payload(RawJson.of(payload)).build();
    assertEquals(ErrorCode.MALFORMED_FRAME,
        assertThrows(TetherException.class, () -> MediaFrames.parseAnswer(frame, Limits.defaults())).code());
  }

  @Test
  void mediaField_roundTripsItems_andSkipsEntriesThatAreNotItems() {
    MediaItem photo = new MediaItem("tg_1", MediaKind.IMAGE, "image/jpeg", "photo.jpg", 2_400_000, "a sunset",
        Instant.parse("2026-11-25T22:00:00Z"));
    MediaItem voice = new MediaItem("tg_2", MediaKind.VOICE, "audio/ogg", "12s", -1, "", Instant.parse("2026-11-25T22:00:00Z"));
    Payload.UserMessage m = new Payload.UserMessage("x", List.of(), Optional.empty(),
        Map.of(MediaFrames.MEDIA_FIELD, MediaFrames.mediaField(List.of(photo, voice))));
    assertEquals(List.of(photo, voice), MediaFrames.mediaOf(m));
    assertEquals("[Image: photo.jpg, 2.4MB, image/jpeg, ref:tg_1] a sunset", photo.placeholder().format());

    String hostile = "[{\"ref\":\"../x\",\"kind\":\"image\",\"mime_type\":\"image/png\",\"expires_at\":\"2026-01-01T00:00:00Z\"},"
        + "{\"ref\":\"tg_3\",\"kind\":\"image\",\"mime_type\":\"image/png\",\"expires_at\":\"soon\"}, 7, null,"
        + "{\"ref\":\"tg_4\",\"kind\":\"image\",\"mime_type\":\"image/png\",\"size\":\"big\",\"expires_at\":\"2026-01-01T00:00:00Z\"},"
        + "{\"ref\":\"tg_5\",\"kind\":\"sticker\",\"mime_type\":\"image/webp\",\"expires_at\":\"2026-01-01T00:00:00Z\"}]";
    Payload.UserMessage h = new Payload.UserMessage("x", List.of(), Optional.empty(), Map.of("media", RawJson.of(hostile)));
    List<MediaItem> items = MediaFrames.mediaOf(h);
    assertEquals(1, items.size(), items.toString());
    assertEquals("tg_5", items.get(0).ref());
    assertInstanceOf(List.class, MediaFrames.mediaOf(Payload.UserMessage.of("no media", List.of())));
    assertEquals(List.of(), MediaFrames.mediaOf(new Payload.UserMessage("x", List.of(), Optional.empty(),
        Map.of("media", RawJson.of("{\"not\":\"a list\"}")))));
  }
}
