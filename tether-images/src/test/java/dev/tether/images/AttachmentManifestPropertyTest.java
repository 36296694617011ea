package dev.tether.images;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.tether.images.internal.MediaFiles;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.From;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.Size;

class AttachmentManifestPropertyTest {
  @Property(tries = 500)
  void parse_ofToJson_returnsTheSameAttachments(@ForAll @Size(max = 6) List<@From("attachments") Attachment> generated)
      throws MediaFormatException {
    // A catalog never lists one name twice (ignoring case); keep the first of each.
    Set<String> seen = new HashSet<>();
    List<Attachment> attachments = new ArrayList<>();
    for (Attachment a : generated) {
      if (seen.add(a.fileName().toLowerCase(Locale.ROOT))) {
        attachments.add(a);
      }
    }
    assertEquals(attachments, AttachmentManifest.parse(AttachmentManifest.toJson(attachments), "property", 1000));
  }

  @Provide
  Arbitrary<Attachment> attachments() {
    Arbitrary<String> names = Arbitraries.strings().withCharRange('\u0000', '\uffff').ofMaxLength(60).map(MediaFiles::sanitise);
    Arbitrary<String> token = Arbitraries.strings().withCharRange('a', 'z').withChars("0123456789.+-").ofMinLength(1).ofMaxLength(12);
    Arbitrary<String> mimes = Combinators.combine(token, token).as((t, s) -> t + "/" + s);
    return Combinators.combine(names, mimes, Arbitraries.longs().between(0, Long.MAX_VALUE),
            Arbitraries.longs().between(0, 4_000_000_000L).map(Instant::ofEpochSecond))
        .as(Attachment::new);
  }
}
