package dev.tether.media;

import static dev.tether.api.testing.QtGens.anyOf;
import static dev.tether.api.testing.QtGens.chars;
import static dev.tether.api.testing.QtGens.charsOf;
import static dev.tether.api.testing.QtGens.longsAcrossMagnitudes;
import static dev.tether.api.testing.QtGens.strings;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.lists;
import static org.quicktheories.generators.SourceDSL.longs;

import dev.tether.media.internal.MediaFiles;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.quicktheories.core.Gen;

class AttachmentManifestPropertyTest {
  @Test
  void parse_ofToJson_returnsTheSameAttachments() {
    qt().withExamples(500).forAll(lists().of(attachments()).ofSizeBetween(0, 6)).checkAssert(generated -> {
      // A catalog never lists one name twice (ignoring case); keep the first of each.
      Set<String> seen = new HashSet<>();
      List<Attachment> attachments = new ArrayList<>();
      for (Attachment a : generated) {
        if (seen.add(a.fileName().toLowerCase(Locale.ROOT))) {
          attachments.add(a);
        }
      }
      try {
        assertEquals(attachments, AttachmentManifest.parse(AttachmentManifest.toJson(attachments), "property", 1000));
      } catch (MediaFormatException e) {
        throw new AssertionError("own JSON rejected: " + e.getMessage(), e);
      }
    });
  }

  private static Gen<Attachment> attachments() {
    Gen<String> names = strings(chars('\u0000', '\uffff'), 0, 60).map(raw -> MediaFiles.sanitise(raw));
    Gen<String> token = strings(anyOf(chars('a', 'z'), charsOf("0123456789.+-")), 1, 12);
    Gen<String> mimes = token.zip(token, (t, s) -> t + "/" + s);
    return names.zip(mimes, longsAcrossMagnitudes(0, Long.MAX_VALUE),
        longs().between(0, 4_000_000_000L).map(s -> Instant.ofEpochSecond(s)), Attachment::new);
  }
}
