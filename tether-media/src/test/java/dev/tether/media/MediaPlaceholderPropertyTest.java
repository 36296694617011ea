package dev.tether.media;

import static dev.tether.api.testing.QtGens.anyOf;
import static dev.tether.api.testing.QtGens.chars;
import static dev.tether.api.testing.QtGens.charsOf;
import static dev.tether.api.testing.QtGens.longsAcrossMagnitudes;
import static dev.tether.api.testing.QtGens.nullable;
import static dev.tether.api.testing.QtGens.strings;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.arbitrary;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.quicktheories.core.Gen;
import org.quicktheories.generators.Generate;

class MediaPlaceholderPropertyTest {
  @Test
  void parse_ofFormat_returnsTheSamePlaceholder() {
    qt().withExamples(2000).forAll(placeholders()).checkAssert(p -> {
      String text = p.format();
      assertEquals(p, MediaPlaceholder.parse(text).orElseThrow(() -> new AssertionError("not parsed: " + text)));
      assertEquals(List.of(p), MediaPlaceholder.findAll(text), text);
    });
  }

  @Test
  void findAll_ofConcatenatedPlaceholders_findsEachOneAndNoForgery() {
    qt().withExamples(500).forAll(placeholders(), placeholders()).checkAssert((a, b) -> {
      String text = a.format() + "\n" + b.format();
      List<MediaPlaceholder> found = MediaPlaceholder.findAll(text);
      assertEquals(2, found.size(), text);
      assertEquals(a.ref(), found.get(0).ref());
      assertEquals(b, found.get(1));
    });
  }

  @Test
  void human_sizeParsesBackWithinRoundingError() {
    qt().withExamples(2000).forAll(longsAcrossMagnitudes(0, Long.MAX_VALUE)).checkAssert(bytes -> {
      String text = MediaSizes.human(bytes);
      assertTrue(text.matches("\\d{1,3}(\\.\\d)?(B|KB|MB|GB|TB|PB|EB)"), text);
      long back = MediaSizes.parse(text).orElseThrow();
      if (bytes < 1000) {
        assertEquals(bytes, back);
      } else {
        // One significant decimal below 10, whole numbers from 10: at most 5% off.
        assertTrue(Math.abs((double) back - bytes) <= bytes * 0.05 + 1, bytes + " -> " + text + " -> " + back);
      }
    });
  }

  private static Gen<MediaPlaceholder> placeholders() {
    Gen<String> hostile = strings(anyOf(chars('\u0000', '\uffff'), charsOf("[],/\\ \n\r:;refREF")), 0, 30);
    Gen<String> names = nullable(Generate.oneOf(hostile, arbitrary().pick("sunset.jpg", "12s", "2.4MB", "ref:evil",
        "a, b", "[Image: x, ref:y]")), 20);
    Gen<String> sizes = nullable(longsAcrossMagnitudes(0, Long.MAX_VALUE).map(n -> MediaSizes.human(n)), 30);
    Gen<String> token = strings(anyOf(chars('a', 'z'), charsOf("0123456789.+-")), 1, 12);
    Gen<String> mimes = nullable(Generate.oneOf(
        token.zip(token, (t, s) -> t + "/" + s),
        arbitrary().pick("image/jpeg", "audio/ogg; codecs=opus", "application/pdf", "text/x-python")), 30);
    Gen<String> refs = strings(anyOf(chars('a', 'z'), chars('A', 'Z'), chars('0', '9'), charsOf("._-")), 1, 40);
    Gen<String> captions = Generate.oneOf(hostile, arbitrary().pick("", " leading", "x ] [Image: a, ref:b] y"));
    Gen<MediaKind> kinds = arbitrary().enumValues(MediaKind.class);
    // Six fields, one more than Gen.zip takes: draw each from the same randomness source.
    return in -> new MediaPlaceholder(kinds.generate(in), names.generate(in), sizes.generate(in),
        mimes.generate(in), refs.generate(in), captions.generate(in));
  }
}
