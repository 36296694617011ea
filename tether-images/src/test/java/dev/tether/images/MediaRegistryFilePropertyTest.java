package dev.tether.images;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Builders;
import net.jqwik.api.ForAll;
import net.jqwik.api.From;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.Size;

class MediaRegistryFilePropertyTest {
  @Property(tries = 500)
  void parse_ofToJson_returnsTheSameReferences(@ForAll @Size(max = 5) List<@From("refs") MediaReference> refs)
      throws MediaFormatException {
    assertEquals(refs, MediaRegistryFile.parse(MediaRegistryFile.toJson(refs), "property", 1000));
  }

  @Provide
  Arbitrary<MediaReference> refs() {
    Arbitrary<String> anyText = Arbitraries.strings().withCharRange('\u0001', '\uffff').ofMaxLength(40);
    Arbitrary<String> token = Arbitraries.strings().withCharRange('a', 'z').withChars("0123456789._-")
        .ofMinLength(1).ofMaxLength(30);
    return Builders.withBuilder(() -> MediaReference.builder("id", "telegram", MediaKind.IMAGE, "image/png"))
        .use(token).in((b, id) -> copy(b, id))
        .use(anyText).in(MediaReference.Builder::chat)
        .use(anyText).in(MediaReference.Builder::messageId)
        .use(anyText.injectNull(0.3)).in(MediaReference.Builder::fileName)
        .use(Arbitraries.longs().between(-1, Long.MAX_VALUE)).in(MediaReference.Builder::size)
        .use(anyText).in(MediaReference.Builder::caption)
        .use(Arbitraries.maps(anyText, anyText).ofMaxSize(4)).in(MediaReference.Builder::downloadInfo)
        .use(Arbitraries.longs().between(-10_000_000_000L, 10_000_000_000L)
            .map(s -> Instant.ofEpochSecond(s, Math.floorMod(s * 7919, 1_000_000_000L)))).in(MediaReference.Builder::createdAt)
        .use(Arbitraries.longs().between(1, Long.MAX_VALUE / 2).map(Duration::ofMillis)).in(MediaReference.Builder::ttl)
        .build(MediaReference.Builder::build);
  }

  /** The builder takes the id up front; rebuild it with a generated one and the same kind and type. */
  private static MediaReference.Builder copy(MediaReference.Builder b, String id) {
    return MediaReference.builder(id, "telegram", MediaKind.VOICE, "audio/ogg; codecs=opus");
  }
}
