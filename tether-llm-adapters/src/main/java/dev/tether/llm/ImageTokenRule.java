package dev.tether.llm;

import java.util.Objects;
import java.util.OptionalInt;

/**
 * How a provider counts an image's input tokens from its pixel dimensions, as each provider
 * publishes it. An estimate: the providers may round differently by a token or two, and some
 * models (OpenAI's mini and o-series) scale the tile counts; it is meant for budgets, not billing.
 *
 * <ul>
 *   <li>{@link #CLAUDE}: an image whose long edge is over 1568 px, or that would count over 1600
 *       tokens, is first scaled down (aspect kept) until it is within both; then
 *       {@code ceil(width * height / 750)}.
 *   <li>{@link #OPENAI_TILES}: detail {@code low} is 85 tokens whatever the size. Otherwise the
 *       image is scaled down to fit 2048 x 2048, then down so its shortest side is 768 px (never
 *       up), and counts {@code 85 + 170} per 512 px tile ({@code ceil(w/512) * ceil(h/512)} tiles).
 *       {@code auto} is counted as {@code high}, the upper bound.
 *   <li>{@link #GEMINI_TILES}: 258 tokens for an image of at most 384 px on both sides; a larger
 *       one is cut into 768 x 768 tiles, 258 tokens each.
 *   <li>{@link #NONE}: no published formula (Ollama: it depends on the model).
 * </ul>
 *
 * Only OpenAI reads the detail; the other rules ignore it.
 */
public enum ImageTokenRule {
  CLAUDE,
  OPENAI_TILES,
  GEMINI_TILES,
  NONE;

  /** Claude's longest side before it downscales. */
  static final int CLAUDE_MAX_EDGE = 1568;
  /** Claude's token ceiling per image before it downscales. */
  static final int CLAUDE_MAX_TOKENS = 1600;

  /**
   * The estimated input tokens of one image; empty for {@link #NONE}.
   *
   * @throws IllegalArgumentException when a side is not positive
   */
  public OptionalInt estimate(int width, int height, ImageDetail detail) {
    Objects.requireNonNull(detail, "detail");
    if (width <= 0 || height <= 0) {
      throw new IllegalArgumentException("width and height must be > 0 but were " + width + "x" + height);
    }
    return switch (this) {
      case CLAUDE -> OptionalInt.of(claude(width, height));
      case OPENAI_TILES -> OptionalInt.of(detail == ImageDetail.LOW ? 85 : openAiHigh(width, height));
      case GEMINI_TILES -> OptionalInt.of(gemini(width, height));
      case NONE -> OptionalInt.empty();
    };
  }

  /** The rule of a provider's published formula. */
  static ImageTokenRule of(Provider provider) {
    return switch (provider) {
      case CLAUDE -> CLAUDE;
      case OPENAI_CHAT, OPENAI_RESPONSES -> OPENAI_TILES;
      case GEMINI -> GEMINI_TILES;
      case OLLAMA -> NONE;
    };
  }

  private static int claude(int width, int height) {
    long w = width;
    long h = height;
    long maxArea = (long) CLAUDE_MAX_TOKENS * 750;
    if (Math.max(w, h) > CLAUDE_MAX_EDGE || w * h > maxArea) {
      double scale = Math.min((double) CLAUDE_MAX_EDGE / Math.max(w, h), Math.sqrt((double) maxArea / (w * h)));
      w = Math.max(1, (long) Math.floor(w * scale));
      h = Math.max(1, (long) Math.floor(h * scale));
    }
    return (int) ((w * h + 749) / 750);
  }

  /** In whole pixels, as the guide's examples: the scaled side is exact, the other rounded down. */
  private static int openAiHigh(int width, int height) {
    long w = width;
    long h = height;
    if (Math.max(w, h) > 2048) {
      long longSide = Math.max(w, h);
      w = Math.max(1, w * 2048 / longSide);
      h = Math.max(1, h * 2048 / longSide);
    }
    if (Math.min(w, h) > 768) {
      long shortSide = Math.min(w, h);
      w = w * 768 / shortSide;
      h = h * 768 / shortSide;
    }
    long tiles = ((w + 511) / 512) * ((h + 511) / 512);
    return (int) (85 + 170 * tiles);
  }

  private static int gemini(int width, int height) {
    if (width <= 384 && height <= 384) {
      return 258;
    }
    long tiles = (long) Math.ceil(width / 768.0) * (long) Math.ceil(height / 768.0);
    return (int) Math.min(Integer.MAX_VALUE, 258 * tiles);
  }
}
