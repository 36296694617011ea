package dev.tether.llm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;

import java.util.OptionalInt;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The image token estimates against the providers' published formulas and their worked examples:
 * Anthropic's vision guide (tokens = width * height / 750 after its resize; its table: 200x200 ~54,
 * 1000x1000 ~1334, 1092x1092 ~1590), OpenAI's image cost guide (1024x1024 high 765, 2048x4096 high
 * 1105, any size low 85) and Gemini's (258 up to 384 px, else 258 per 768 px tile).
 */
class ImageTokenRuleTest {
  @ParameterizedTest(name = "claude {0}x{1} = {2}")
  @CsvSource({
      "200, 200, 54", // the guide's table
      "1000, 1000, 1334", // the guide's table
      "1092, 1092, 1590", // the guide's table: the largest 1:1 image that is not resized
      "1568, 100, 210", // long edge at the limit: not resized
      "2000, 1000, 1599", // resized to 1549x774 by the 1600-token cap
      "3000, 100, 109", // resized to 1568x52 by the long-edge cap
      "8000, 8000, 1599", // resized to 1095x1095
      "1, 1, 1"})
  void claude(int width, int height, int tokens) {
    assertEquals(OptionalInt.of(tokens), ImageTokenRule.CLAUDE.estimate(width, height, ImageDetail.HIGH));
    assertEquals(OptionalInt.of(tokens), ProviderProfile.anthropic().imageTokens(width, height));
  }

  @ParameterizedTest(name = "openai {0}x{1} {2} = {3}")
  @CsvSource({
      "1024, 1024, HIGH, 765", // the guide: scaled to 768x768, 4 tiles
      "2048, 4096, HIGH, 1105", // the guide: 1024x2048, then 768x1536, 6 tiles
      "4096, 8192, LOW, 85", // the guide: low is 85 whatever the size
      "512, 512, HIGH, 255", // one tile, never scaled up
      "100, 100, AUTO, 255", // auto is counted as high
      "1920, 1080, HIGH, 1105", // 1365x768: 3 x 2 tiles
      "513, 100, HIGH, 425", // 2 tiles
      "10000, 10, HIGH, 765"}) // 2048x2 then no shortest-side scaling: 4 x 1 tiles
  void openAi(int width, int height, ImageDetail detail, int tokens) {
    assertEquals(OptionalInt.of(tokens), ImageTokenRule.OPENAI_TILES.estimate(width, height, detail));
    assertEquals(OptionalInt.of(tokens), ProviderProfile.openAiChat().imageTokens(width, height, detail));
    assertEquals(OptionalInt.of(tokens), ProviderProfile.openAiResponses().imageTokens(width, height, detail));
  }

  @ParameterizedTest(name = "gemini {0}x{1} = {2}")
  @CsvSource({
      "384, 384, 258", // both sides at most 384: one image
      "385, 200, 258", // one 768 tile
      "768, 768, 258",
      "769, 768, 516",
      "1000, 1000, 1032", // 2 x 2 tiles
      "1920, 1080, 1548"}) // 3 x 2 tiles
  void gemini(int width, int height, int tokens) {
    for (ImageDetail detail : ImageDetail.values()) {
      assertEquals(OptionalInt.of(tokens), ProviderProfile.gemini().imageTokens(width, height, detail), "detail is ignored");
    }
  }

  @Test
  void ollamaPublishesNoFormulaAndAProfileMayChooseOne() {
    assertEquals(OptionalInt.empty(), ProviderProfile.ollama().imageTokens(100, 100));
    ProviderProfile custom = ProviderProfile.ollama().toBuilder().imageTokenRule(ImageTokenRule.GEMINI_TILES).build();
    assertEquals(OptionalInt.of(258), custom.imageTokens(100, 100));
    assertEquals(ImageTokenRule.OPENAI_TILES,
        ProviderProfile.anthropic().toBuilder().provider(Provider.OPENAI_CHAT).build().imageTokenRule(),
        "without a rule of its own a profile follows its provider");
  }

  @Test
  void sidesMustBePositive() {
    assertThrows(IllegalArgumentException.class, () -> ImageTokenRule.CLAUDE.estimate(0, 10, ImageDetail.AUTO));
    assertThrows(IllegalArgumentException.class, () -> ImageTokenRule.GEMINI_TILES.estimate(10, -1, ImageDetail.AUTO));
  }

  @Test
  void estimatesAreBoundedAndGrowWithTheImage() {
    qt().withExamples(500).forAll(integers().between(1, 20_000), integers().between(1, 20_000))
        .checkAssert((w, h) -> {
          int claude = ImageTokenRule.CLAUDE.estimate(w, h, ImageDetail.AUTO).getAsInt();
          assertTrue(claude >= 1 && claude <= ImageTokenRule.CLAUDE_MAX_TOKENS, w + "x" + h + ": " + claude);
          int openAi = ImageTokenRule.OPENAI_TILES.estimate(w, h, ImageDetail.HIGH).getAsInt();
          assertTrue(openAi >= 255 && openAi <= 85 + 170 * 8, w + "x" + h + ": " + openAi); // at most 2048x768: 4 x 2 tiles
          assertTrue(ImageTokenRule.GEMINI_TILES.estimate(w + 768, h, ImageDetail.AUTO).getAsInt()
              > ImageTokenRule.GEMINI_TILES.estimate(w, h, ImageDetail.AUTO).getAsInt());
        });
  }
}
