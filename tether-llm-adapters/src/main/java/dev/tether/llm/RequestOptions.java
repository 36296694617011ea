package dev.tether.llm;

import java.util.HashMap;
import java.util.Map;
import java.util.Objects;

/**
 * Settings of a request beyond the conversation. Immutable; change one setting with the
 * {@code with*} methods.
 *
 * @param model the model name, or null to leave {@code model} out (the caller adds it); Gemini
 *     names the model in the URL, so its body never has one
 * @param maxTokens Claude's required {@code max_tokens}; the other formats do not write it
 * @param detail OpenAI's image {@code detail} for every image without one of its own
 * @param fitImages when true, images that break a size, dimension or format rule are re-encoded,
 *     downscaled or converted (see {@link LlmRequest}); when false they are rejected
 * @param imageDetails the detail of single images, by index in {@code Conversation.images()}
 *     order (tool-result images included); the OpenAI Chat and Responses writers write it as the
 *     image's {@code detail}, the Claude, Gemini and Ollama writers ignore it (their APIs have no
 *     such setting), and it chooses OpenAI's token estimate in {@link FitReport#imageTokens()}
 */
public record RequestOptions(String model, int maxTokens, ImageDetail detail, boolean fitImages,
    Map<Integer, ImageDetail> imageDetails) {
  private static final RequestOptions DEFAULTS = new RequestOptions(null, 1024, ImageDetail.AUTO, false);

  /** Options with no detail of single images. */
  public RequestOptions(String model, int maxTokens, ImageDetail detail, boolean fitImages) {
    this(model, maxTokens, detail, fitImages, Map.of());
  }

  public RequestOptions {
    Objects.requireNonNull(detail, "detail");
    imageDetails = Map.copyOf(imageDetails);
    for (Integer index : imageDetails.keySet()) {
      if (index < 0) {
        throw new IllegalArgumentException("an image index must be >= 0 but was " + index);
      }
    }
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
    return new RequestOptions(model, maxTokens, detail, fitImages, imageDetails);
  }

  public RequestOptions withMaxTokens(int maxTokens) {
    return new RequestOptions(model, maxTokens, detail, fitImages, imageDetails);
  }

  public RequestOptions withDetail(ImageDetail detail) {
    return new RequestOptions(model, maxTokens, detail, fitImages, imageDetails);
  }

  public RequestOptions withFitImages(boolean fitImages) {
    return new RequestOptions(model, maxTokens, detail, fitImages, imageDetails);
  }

  /**
   * These options with image {@code imageIndex} (in {@code Conversation.images()} order) sent with
   * {@code detail}; see {@link #imageDetails()}.
   *
   * @throws IllegalArgumentException when {@code imageIndex} is negative
   */
  public RequestOptions withImageDetail(int imageIndex, ImageDetail detail) {
    Objects.requireNonNull(detail, "detail");
    if (imageIndex < 0) {
      throw new IllegalArgumentException("imageIndex must be >= 0 but was " + imageIndex);
    }
    Map<Integer, ImageDetail> details = new HashMap<>(imageDetails);
    details.put(imageIndex, detail);
    return new RequestOptions(model, maxTokens, detail(), fitImages, details);
  }

  /** The detail image {@code imageIndex} is sent with: its own, else {@link #detail()}. */
  public ImageDetail detailOf(int imageIndex) {
    return imageDetails.getOrDefault(imageIndex, detail);
  }
}
