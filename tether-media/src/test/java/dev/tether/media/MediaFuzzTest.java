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
