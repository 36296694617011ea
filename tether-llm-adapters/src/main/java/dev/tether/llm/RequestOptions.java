package dev.tether.llm;

import java.util.Objects;

/**
 * Settings of a request beyond the conversation. Immutable; change one setting with the
 * {@code with*} methods.
 *
 * @param model the model name, or null to leave {@code model} out (the caller adds it); Gemini
 *     names the model in the URL, so its body never has one
 * @param maxTokens Claude's required {@code max_tokens}; the other formats do not write it
 * @param detail OpenAI's image {@code detail}
 * @param fitImages when true, images that break a size, dimension or format rule are re-encoded,
 *     downscaled or converted (see {@link LlmRequest}); when false they are rejected
 */
public record RequestOptions(String model, int maxTokens, ImageDetail detail, boolean fitImages) {
  private static final RequestOptions DEFAULTS = new RequestOptions(null, 1024, ImageDetail.AUTO, false);

  public RequestOptions {
    Objects.requireNonNull(detail, "detail");
    if (maxTokens < 0) {
      throw new IllegalArgumentException("maxTokens must be >= 0 but was " + maxTokens);
    }
    if (model != null && model.isBlank()) {
      throw new IllegalArgumentException("model must not be blank but was '" + model + "'");
    }
  }

  /** No model, 1024 max tokens, detail auto, no fitting. */
  public static RequestOptions defaults() {
    return DEFAULTS;
  }

  public RequestOptions withModel(String model) {
    return new RequestOptions(model, maxTokens, detail, fitImages);
  }

  public RequestOptions withMaxTokens(int maxTokens) {
    return new RequestOptions(model, maxTokens, detail, fitImages);
  }

  public RequestOptions withDetail(ImageDetail detail) {
    return new RequestOptions(model, maxTokens, detail, fitImages);
  }

  public RequestOptions withFitImages(boolean fitImages) {
    return new RequestOptions(model, maxTokens, detail, fitImages);
  }
}
