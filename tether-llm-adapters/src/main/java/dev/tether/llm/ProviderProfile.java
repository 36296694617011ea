package dev.tether.llm;

import dev.tether.api.Base64Lengths;
import dev.tether.api.MediaType;
import java.util.EnumSet;
import java.util.Objects;
import java.util.OptionalInt;
import java.util.Set;

/**
 * What one provider (or one deployment of it) takes: image formats, per-image size, images per
 * request, the total of all images, and pixel dimensions. Requests are checked against a profile
 * before anything is written.
 *
 * <p>The built-in profiles state the providers' published limits as of this release; where a
 * provider publishes none (Ollama) they use tether's own. Immutable and thread-safe; derive
 * variants with {@link #toBuilder()}.
 */
public final class ProviderProfile {
  /** 5 MiB: Anthropic's portable per-image limit, counted on the base64 text. */
  public static final long ANTHROPIC_PORTABLE_IMAGE_BYTES = 5L << 20;
  /** 10 MiB: the per-image limit of Anthropic's direct API, counted on the base64 text. */
  public static final long ANTHROPIC_DIRECT_IMAGE_BYTES = 10L << 20;

  /** How a profile measures an image's size. */
  public enum SizeMeasure {
    /** The decoded image bytes. */
    DECODED_BYTES,
    /** The length of the padded base64 text, as Anthropic and Gemini count it. */
    BASE64_CHARS
  }

  private final String name;
  private final Provider provider;
  private final Set<MediaType> formats;
  private final SizeMeasure sizeMeasure;
  private final long maxImageSize;
  private final long maxTotalImageSize;
  private final int maxImagesPerRequest;
  private final int maxDimension;
  private final int manyImagesThreshold;
  private final int manyImagesMaxDimension;
  private final boolean assistantImages;
  private final ImageTokenRule imageTokenRule; // null: the provider's

  private ProviderProfile(Builder b) {
    this.name = b.name;
    this.provider = b.provider;
    this.formats = Set.copyOf(b.formats);
    this.sizeMeasure = b.sizeMeasure;
    this.maxImageSize = b.maxImageSize;
    this.maxTotalImageSize = b.maxTotalImageSize;
    this.maxImagesPerRequest = b.maxImagesPerRequest;
    this.maxDimension = b.maxDimension;
    this.manyImagesThreshold = b.manyImagesThreshold;
    this.manyImagesMaxDimension = b.manyImagesMaxDimension;
    this.assistantImages = b.assistantImages;
    this.imageTokenRule = b.imageTokenRule;
  }

  /**
   * Claude through any Anthropic route (API, Bedrock, Vertex): all four formats, 5 MiB of base64
   * per image, 100 images, 8000 px per side, 2000 px when a request has more than 20 images.
   */
  public static ProviderProfile anthropic() {
    return builder("anthropic", Provider.CLAUDE)
        .formats(EnumSet.allOf(MediaType.class))
        .maxImageSize(SizeMeasure.BASE64_CHARS, ANTHROPIC_PORTABLE_IMAGE_BYTES)
        .maxImagesPerRequest(100)
        .maxDimension(8000)
        .manyImages(20, 2000)
        .build();
  }

  /** Claude through Anthropic's own API, which takes 10 MiB of base64 per image. */
  public static ProviderProfile anthropicDirectApi() {
    return anthropic().toBuilder().name("anthropic-direct")
        .maxImageSize(SizeMeasure.BASE64_CHARS, ANTHROPIC_DIRECT_IMAGE_BYTES).build();
  }

  /**
   * OpenAI Chat Completions: PNG, JPEG, WebP and GIF, 20 MiB per image, 500 images and 50 MiB of
   * images per request.
   */
  public static ProviderProfile openAiChat() {
    return builder("openai-chat", Provider.OPENAI_CHAT)
        .formats(EnumSet.allOf(MediaType.class))
        .maxImageSize(SizeMeasure.DECODED_BYTES, 20L << 20)
        .maxTotalImageSize(50L << 20)
        .maxImagesPerRequest(500)
        .build();
  }

  /** OpenAI Responses: the same limits as {@link #openAiChat()}. */
  public static ProviderProfile openAiResponses() {
    return openAiChat().toBuilder().name("openai-responses").provider(Provider.OPENAI_RESPONSES).build();
  }

  /** Ollama: PNG and JPEG only, tether's 10 MiB per image. */
  public static ProviderProfile ollama() {
    return builder("ollama", Provider.OLLAMA)
        .formats(EnumSet.of(MediaType.PNG, MediaType.JPEG))
        .maxImageSize(SizeMeasure.DECODED_BYTES, 10L << 20)
        .assistantImages(true)
        .build();
  }

  /** Ollama with a server and model known to take WebP as well. */
  public static ProviderProfile ollamaWithWebp() {
    return ollama().toBuilder().name("ollama-webp")
        .formats(EnumSet.of(MediaType.PNG, MediaType.JPEG, MediaType.WEBP)).build();
  }

  /**
   * Gemini with inline data: PNG, JPEG and WebP (no GIF), and the whole request's inline data
   * within 20 MiB of base64.
   */
  public static ProviderProfile gemini() {
    return builder("gemini", Provider.GEMINI)
        .formats(EnumSet.of(MediaType.PNG, MediaType.JPEG, MediaType.WEBP))
        .maxImageSize(SizeMeasure.BASE64_CHARS, 20L << 20)
        .maxTotalImageSize(20L << 20)
        .maxImagesPerRequest(3000)
        .assistantImages(true)
        .build();
  }

  public static Builder builder(String name, Provider provider) {
    return new Builder(name, provider);
  }

  public Builder toBuilder() {
    Builder b = new Builder(name, provider);
    b.formats = EnumSet.copyOf(formats);
    b.sizeMeasure = sizeMeasure;
    b.maxImageSize = maxImageSize;
    b.maxTotalImageSize = maxTotalImageSize;
    b.maxImagesPerRequest = maxImagesPerRequest;
    b.maxDimension = maxDimension;
    b.manyImagesThreshold = manyImagesThreshold;
    b.manyImagesMaxDimension = manyImagesMaxDimension;
    b.assistantImages = assistantImages;
    b.imageTokenRule = imageTokenRule;
    return b;
  }

  public String name() {
    return name;
  }

  public Provider provider() {
    return provider;
  }

  /** The formats the provider takes. */
  public Set<MediaType> formats() {
    return formats;
  }

  public SizeMeasure sizeMeasure() {
    return sizeMeasure;
  }

  /** The largest image, in {@link #sizeMeasure()} units. */
  public long maxImageSize() {
    return maxImageSize;
  }

  /** The largest total of all images in a request, in {@link #sizeMeasure()} units; 0 for no limit. */
  public long maxTotalImageSize() {
    return maxTotalImageSize;
  }

  public int maxImagesPerRequest() {
    return maxImagesPerRequest;
  }

  /** The longest side in pixels; 0 when the provider does not limit it (it may still resize). */
  public int maxDimension() {
    return maxDimension;
  }

  /** The longest side allowed in a request with {@code imageCount} images. */
  public int maxDimension(int imageCount) {
    return manyImagesThreshold > 0 && imageCount > manyImagesThreshold ? manyImagesMaxDimension : maxDimension;
  }

  /** Whether assistant turns may carry images (Ollama and Gemini yes; Claude and OpenAI no). */
  public boolean assistantImages() {
    return assistantImages;
  }

  /** How this profile estimates an image's tokens; by default the provider's published rule. */
  public ImageTokenRule imageTokenRule() {
    return imageTokenRule != null ? imageTokenRule : ImageTokenRule.of(provider);
  }

  /**
   * The estimated input tokens of a {@code width} x {@code height} image sent with {@code detail}
   * (read by OpenAI only), by {@link #imageTokenRule()}; empty when the provider publishes no
   * formula (Ollama).
   *
   * @throws IllegalArgumentException when a side is not positive
   */
  public OptionalInt imageTokens(int width, int height, ImageDetail detail) {
    return imageTokenRule().estimate(width, height, detail);
  }

  /** {@link #imageTokens(int, int, ImageDetail)} with detail {@code auto}. */
  public OptionalInt imageTokens(int width, int height) {
    return imageTokens(width, height, ImageDetail.AUTO);
  }

  /** An image's size in this profile's measure, from its decoded size. */
  public long measure(long decodedBytes) {
    return sizeMeasure == SizeMeasure.BASE64_CHARS ? Base64Lengths.encodedLength(decodedBytes) : decodedBytes;
  }

  @Override
  public String toString() {
    return "ProviderProfile{" + name + ", " + provider + ", formats=" + formats + ", maxImageSize="
        + maxImageSize + " " + sizeMeasure + ", maxTotalImageSize=" + maxTotalImageSize
        + ", maxImagesPerRequest=" + maxImagesPerRequest + ", maxDimension=" + maxDimension
        + (manyImagesThreshold > 0 ? ", over " + manyImagesThreshold + " images " + manyImagesMaxDimension : "") + "}";
  }

  /** Builds a {@link ProviderProfile}; setters fail fast on values that can never be right. */
  public static final class Builder {
    private String name;
    private Provider provider;
    private EnumSet<MediaType> formats = EnumSet.allOf(MediaType.class);
    private SizeMeasure sizeMeasure = SizeMeasure.DECODED_BYTES;
    private long maxImageSize = 10L << 20;
    private long maxTotalImageSize;
    private int maxImagesPerRequest = 100;
    private int maxDimension;
    private int manyImagesThreshold;
    private int manyImagesMaxDimension;
    private boolean assistantImages;
    private ImageTokenRule imageTokenRule;

    private Builder(String name, Provider provider) {
      name(name);
      provider(provider);
    }

    public Builder name(String name) {
      Objects.requireNonNull(name, "name");
      if (name.isBlank()) {
        throw new IllegalArgumentException("name must not be blank but was '" + name + "'");
      }
      this.name = name;
      return this;
    }

    /** The provider; also the default {@link #imageTokenRule} when none is set. */
    public Builder provider(Provider provider) {
      this.provider = Objects.requireNonNull(provider, "provider");
      return this;
    }

    /** How images are counted in tokens. Default: the provider's rule ({@link ImageTokenRule}). */
    public Builder imageTokenRule(ImageTokenRule rule) {
      this.imageTokenRule = Objects.requireNonNull(rule, "rule");
      return this;
    }

    public Builder formats(Set<MediaType> formats) {
      if (formats.isEmpty()) {
        throw new IllegalArgumentException("formats must not be empty; use maxImagesPerRequest(0) for text only");
      }
      this.formats = EnumSet.copyOf(formats);
      return this;
    }

    public Builder maxImageSize(SizeMeasure measure, long maxImageSize) {
      Objects.requireNonNull(measure, "measure");
      if (maxImageSize <= 0) {
        throw new IllegalArgumentException("maxImageSize must be > 0 but was " + maxImageSize);
      }
      this.sizeMeasure = measure;
      this.maxImageSize = maxImageSize;
      return this;
    }

    /** 0 for no limit on the total. */
    public Builder maxTotalImageSize(long maxTotalImageSize) {
      if (maxTotalImageSize < 0) {
        throw new IllegalArgumentException("maxTotalImageSize must be >= 0 but was " + maxTotalImageSize);
      }
      this.maxTotalImageSize = maxTotalImageSize;
      return this;
    }

    /** 0 for a text-only model. */
    public Builder maxImagesPerRequest(int maxImagesPerRequest) {
      if (maxImagesPerRequest < 0) {
        throw new IllegalArgumentException("maxImagesPerRequest must be >= 0 but was " + maxImagesPerRequest);
      }
      this.maxImagesPerRequest = maxImagesPerRequest;
      return this;
    }

    /** 0 for no limit. */
    public Builder maxDimension(int maxDimension) {
      if (maxDimension < 0) {
        throw new IllegalArgumentException("maxDimension must be >= 0 but was " + maxDimension);
      }
      this.maxDimension = maxDimension;
      return this;
    }

    /** Above {@code threshold} images in one request, sides are limited to {@code maxDimension}. */
    public Builder manyImages(int threshold, int maxDimension) {
      if (threshold <= 0) {
        throw new IllegalArgumentException("threshold must be > 0 but was " + threshold);
      }
      if (maxDimension <= 0) {
        throw new IllegalArgumentException("maxDimension must be > 0 but was " + maxDimension);
      }
      this.manyImagesThreshold = threshold;
      this.manyImagesMaxDimension = maxDimension;
      return this;
    }

    public Builder assistantImages(boolean assistantImages) {
      this.assistantImages = assistantImages;
      return this;
    }

    public ProviderProfile build() {
      return new ProviderProfile(this);
    }
  }
}
