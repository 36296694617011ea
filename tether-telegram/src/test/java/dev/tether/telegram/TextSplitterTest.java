package dev.tether.telegram;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.strings;

import dev.tether.telegram.internal.TextSplitter;
import java.util.List;
import org.junit.jupiter.api.Test;

class TextSplitterTest {
  @Test
  void everyChunk_fitsIsNotBlank_andTheChunksKeepEveryNonSpaceCharacterInOrder() {
    qt().forAll(strings().basicMultilingualPlaneAlphabet().ofLengthBetween(0, 400), integers().between(2, 60))
        .checkAssert((text, max) -> {
          List<String> chunks = TextSplitter.split(text, max);
          for (String c : chunks) {
            assertEquals(true, c.length() <= max && !c.isBlank(), "chunk '" + c + "' for max " + max);
          }
          assertEquals(text.replaceAll("[\\s]", ""), String.join("", chunks).replaceAll("[\\s]", ""));
        });
  }

  @Test
  void wordsAndLines_areNotCut_whenABreakFits() {
    qt().forAll(integers().between(1, 30), integers().between(5, 40)).checkAssert((words, max) -> {
      String text = String.join(" ", java.util.Collections.nCopies(words, "word")) + "\nnext line";
      for (String chunk : TextSplitter.split(text, max)) {
        for (String token : chunk.split("[ \n]")) {
          assertEquals(true, token.equals("word") || token.equals("next") || token.equals("line"), "cut word: " + chunk);
        }
      }
    });
  }

  @Test
  void surrogatePairs_areNeverSplit() {
    String emoji = "\uD83D\uDE00"; // one character, two UTF-16 units
    String text = emoji.repeat(10);
    for (String chunk : TextSplitter.split(text, 5)) {
      assertEquals(true, chunk.length() <= 5 && !Character.isLowSurrogate(chunk.charAt(0))
          && !Character.isHighSurrogate(chunk.charAt(chunk.length() - 1)), chunk);
    }
    assertEquals(text, String.join("", TextSplitter.split(text, 5)));
  }

  @Test
  void atTheLimit_oneMessage_oneMore_twoMessages() {
    assertEquals(1, TextSplitter.split("a".repeat(4096), 4096).size());
    assertEquals(List.of("a".repeat(4096), "a"), TextSplitter.split("a".repeat(4097), 4096));
    assertEquals(List.of(), TextSplitter.split("  \n ", 4096), "Telegram rejects blank messages");
  }
}
