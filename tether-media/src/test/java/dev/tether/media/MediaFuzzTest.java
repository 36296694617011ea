package dev.tether.media;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Fuzz targets for the three parsers that read outside input: placeholders in message text, the
 * registry file and the attachment manifest. In a normal test run Jazzer replays the seeds under
 * {@code src/test/resources/dev/tether/images/MediaFuzzTestInputs/}; with {@code JAZZER_FUZZ=1}
 * it fuzzes for the given time. Each target allows only the documented outcomes.
 */
class MediaFuzzTest {
  @FuzzTest(maxDuration = "30s")
  void placeholderParser(byte[] data) {
    String text = new String(data, StandardCharsets.UTF_8);
    List<MediaPlaceholder> found = MediaPlaceholder.findAll(text);
    for (MediaPlaceholder p : found) {
      String formatted = p.format();
      assertEquals(p, MediaPlaceholder.parse(formatted).orElseThrow());
      assertEquals(1, MediaPlaceholder.findAll(formatted).size(), formatted);
      assertFalse(p.caption().contains("["), p.caption());
    }
    MediaPlaceholder.parse(text).ifPresent(p -> assertEquals(p.ref(), found.get(0).ref()));
  }

  @FuzzTest(maxDuration = "30s")
  void registryFileLoader(byte[] data) {
    try {
      List<MediaReference> refs = MediaRegistryFile.parse(data, "fuzz", 1000);
      for (MediaReference ref : refs) {
        MediaPlaceholder p = ref.placeholder();
        assertEquals(p, MediaPlaceholder.parse(p.format()).orElseThrow());
      }
    } catch (MediaFormatException expected) {
      // the one documented failure
    }
  }

  /** The lazy-media frames an agent or a bridge reads: a request, an answer, a message's media field. */
  @FuzzTest(maxDuration = "30s")
  void mediaFrameParsers(byte[] data) {
    dev.tether.api.RawJson payload;
    try {
      payload = dev.tether.api.RawJson.ofUtf8(data);
    } catch (RuntimeException notJson) { // IllegalArgumentException or TetherException (duplicate keys)
      return; // RawJson only holds JSON values; the parsers never see anything else
    }
    dev.tether.api.SessionKey session = new dev.tether.api.SessionKey("telegram", "1");
    List<MediaItem> items = MediaFrames.mediaOf(new dev.tether.api.Payload.UserMessage("", List.of(),
        java.util.Optional.empty(), java.util.Map.of(MediaFrames.MEDIA_FIELD, payload)));
    assertEquals(items, MediaFrames.mediaOf(new dev.tether.api.Payload.UserMessage("", List.of(),
        java.util.Optional.empty(), java.util.Map.of(MediaFrames.MEDIA_FIELD, MediaFrames.mediaField(items)))));
    if (!payload.isObject()) {
      return; // a frame's payload is always an object: the envelope refuses anything else
    }
    try {
      String ref = MediaFrames.parseFetchRequest(
          dev.tether.api.Frame.builder(MediaFrames.FETCH).session(session).msgId("m").payload(payload).build());
      assertEquals(ref, MediaFrames.parseFetchRequest(MediaFrames.fetchRequest(session, "m", ref)));
    } catch (dev.tether.api.TetherException expected) {
      assertEquals(dev.tether.api.ErrorCode.MALFORMED_FRAME, expected.code());
    }
    try {
      MediaAnswer answer = MediaFrames.parseAnswer(dev.tether.api.Frame.builder(MediaFrames.ANSWER).session(session)
          .msgId("m").payload(payload).build(), dev.tether.api.Limits.defaults());
      assertEquals(answer, MediaFrames.parseAnswer(MediaFrames.answer(session, "m", answer), dev.tether.api.Limits.defaults()));
    } catch (dev.tether.api.TetherException expected) {
      // MALFORMED_FRAME or an image's own code: both are documented
    }
  }

  @FuzzTest(maxDuration = "30s")
  void manifestLoader(byte[] data) {
    try {
      for (Attachment a : AttachmentManifest.parse(data, "fuzz", 1000)) {
        assertEquals(dev.tether.media.internal.MediaFiles.sanitise(a.fileName()), a.fileName());
      }
    } catch (MediaFormatException expected) {
      // the one documented failure
    }
  }
}
