package dev.tether.media;

import static dev.tether.api.testing.QtGens.anyOf;
import static dev.tether.api.testing.QtGens.chars;
import static dev.tether.api.testing.QtGens.charsOf;
import static dev.tether.api.testing.QtGens.longsAcrossMagnitudes;
import static dev.tether.api.testing.QtGens.nullable;
import static dev.tether.api.testing.QtGens.strings;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.lists;
import static org.quicktheories.generators.SourceDSL.longs;
import static org.quicktheories.generators.SourceDSL.maps;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.quicktheories.core.Gen;

class MediaRegistryFilePropertyTest {
  @Test
  void parse_ofToJson_returnsTheSameReferences() {
    qt().withExamples(500).forAll(lists().of(refs()).ofSizeBetween(0, 5)).checkAssert(refs -> {
      try {
        assertEquals(refs, MediaRegistryFile.parse(MediaRegistryFile.toJson(refs), "property", 1000));
      } catch (MediaFormatException e) {
        throw new AssertionError("own JSON rejected: " + e.getMessage(), e);
      }
    });
  }

  private static Gen<MediaReference> refs() {
    Gen<String> anyText = strings(chars('\u0001', '\uffff'), 0, 40);
    Gen<String> token = strings(anyOf(chars('a', 'z'), charsOf("0123456789._-")), 1, 30);
    Gen<String> fileNames = nullable(anyText, 30);
    Gen<Long> sizes = longsAcrossMagnitudes(-1, Long.MAX_VALUE);
    Gen<Map<String, String>> downloadInfo = maps().of(anyText, anyText).ofSizeBetween(0, 4);
    Gen<Instant> createdAt = longs().between(-10_000_000_000L, 10_000_000_000L)
        .map(s -> Instant.ofEpochSecond(s, Math.floorMod(s * 7919, 1_000_000_000L)));
    Gen<Duration> ttls = longsAcrossMagnitudes(1, Long.MAX_VALUE / 2).map(ms -> Duration.ofMillis(ms));
    // More fields than Gen.zip takes: draw each from the same randomness source, so shrinking still works.
    return in -> MediaReference.builder(token.generate(in), "telegram", MediaKind.VOICE, "audio/ogg; codecs=opus")
        .chat(anyText.generate(in))
        .messageId(anyText.generate(in))
        .fileName(fileNames.generate(in))
        .size(sizes.generate(in))
        .caption(anyText.generate(in))
        .downloadInfo(downloadInfo.generate(in))
        .createdAt(createdAt.generate(in))
        .ttl(ttls.generate(in))
        .build();
  }
}
