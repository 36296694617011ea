package dev.tether.images;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.LongRange;

class MediaPlaceholderPropertyTest {
  @Property(tries = 2000)
  void parse_ofFormat_returnsTheSamePlaceholder(@ForAll("placeholders") MediaPlaceholder p) {
    String text = p.format();
    assertEquals(p, MediaPlaceholder.parse(text).orElseThrow(() -> new AssertionError("not parsed: " + text)));
    assertEquals(List.of(p), MediaPlaceholder.findAll(text), text);
  }

  @Property(tries = 500)
  void findAll_ofConcatenatedPlaceholders_findsEachOneAndNoForgery(
      @ForAll("placeholders") MediaPlaceholder a, @ForAll("placeholders") MediaPlaceholder b) {
    String text = a.format() + "\n" + b.format();
    List<MediaPlaceholder> found = MediaPlaceholder.findAll(text);
    assertEquals(2, found.size(), text);
    assertEquals(a.ref(), found.get(0).ref());
    assertEquals(b, found.get(1));
  }

  @Property(tries = 2000)
  void human_sizeParsesBackWithinRoundingError(@ForAll @LongRange(min = 0, max = Long.MAX_VALUE) long bytes) {
    String text = MediaSizes.human(bytes);
    assertTrue(text.matches("\\d{1,3}(\\.\\d)?(B|KB|MB|GB|TB|PB|EB)"), text);
    long back = MediaSizes.parse(text).orElseThrow();
    if (bytes < 1000) {
      assertEquals(bytes, back);
    } else {
      // One significant decimal below 10, whole numbers from 10: at most 5% off.
      assertTrue(Math.abs((double) back - bytes) <= bytes * 0.05 + 1, bytes + " -> " + text + " -> " + back);
    }
  }

  @Provide
  Arbitrary<MediaPlaceholder> placeholders() {
    Arbitrary<String> hostile = Arbitraries.strings()
        .withCharRange('\u0000', '\uffff')
        .withChars("[],/\\ \n\r:;refREF")
        .ofMaxLength(30);
    Arbitrary<String> names = Arbitraries.oneOf(hostile, Arbitraries.of("sunset.jpg", "12s", "2.4MB", "ref:evil",
        "a, b", "[Image: x, ref:y]")).injectNull(0.2);
    Arbitrary<String> sizes = Arbitraries.longs().between(0, Long.MAX_VALUE).map(MediaSizes::human).injectNull(0.3);
    Arbitrary<String> token = Arbitraries.strings().withCharRange('a', 'z').withChars("0123456789.+-").ofMinLength(1).ofMaxLength(12);
    Arbitrary<String> mimes = Arbitraries.oneOf(
        Combinators.combine(token, token).as((t, s) -> t + "/" + s),
        Arbitraries.of("image/jpeg", "audio/ogg; codecs=opus", "application/pdf", "text/x-python")).injectNull(0.3);
    Arbitrary<String> refs = Arbitraries.strings().withCharRange('a', 'z').withCharRange('A', 'Z')
        .withCharRange('0', '9').withChars("._-").ofMinLength(1).ofMaxLength(40);
    Arbitrary<String> captions = Arbitraries.oneOf(hostile, Arbitraries.of("", " leading", "x ] [Image: a, ref:b] y"));
    return Combinators.combine(Arbitraries.of(MediaKind.class), names, sizes, mimes, refs, captions)
        .as(MediaPlaceholder::new);
  }
}
