package dev.tether.llm;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tether.api.Conversation;
import dev.tether.api.json.TetherJson;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.Objects;

/**
 * A provider request body, checked against its profile and ready to write.
 *
 * <pre>{@code
 * LlmRequest request = LlmRequest.prepare(ProviderProfile.anthropic(), conversation,
 *     RequestOptions.defaults().withModel("claude-sonnet-4-5"));
 * request.writeTo(httpBody);
 * }</pre>
 *
 * <p>{@link #prepare} checks every image (well-formed base64 without a {@code data:} prefix,
 * declared type matching the bytes, format, placement, count, size, pixel dimensions, total) and
 * throws {@link ImageRuleException} for the first image, in {@link Conversation#images()} order,
 * that breaks a rule. With {@link RequestOptions#fitImages()} on, size, dimension and format
 * problems of PNG, JPEG and GIF images are fixed instead (see {@link #fitReport()}).
 *
 * <p>Writing encodes each image's base64 once, straight into the output, whatever form the
 * {@link dev.tether.api.ImageData} holds; no String ever holds the request. Immutable and
 * thread-safe: it can be written any number of times, from any thread. A tool use or tool
 * result in the wrong kind of turn is a caller mistake: IllegalArgumentException.
 *
 * <p><b>Empty text.</b> Beside other content, empty text parts are dropped: a turn with an
 * image (or a tool part) and text {@code ""} is written as just the image, never with an empty
 * text block. A message of nothing but empty text is another matter: Claude and Gemini reject it
 * (Claude: "text content blocks must be non-empty"), so for them {@link #prepare} throws
 * IllegalArgumentException naming the turn. The check runs after consecutive same-role turns are
 * merged, so an empty turn beside a non-empty one of the same role is fine. It never drops such
 * a turn itself: that would silently change who spoke last or what was asked. The OpenAI and
 * Ollama formats are not refused here; for them such a turn is written with one empty text.
 */
public final class LlmRequest {
  private static final ObjectMapper MAPPER = new ObjectMapper(TetherJson.newFactory());

  private final ProviderProfile profile;
  private final Conversation conversation;
  private final RequestOptions options;
  private final FitReport fitReport;

  private LlmRequest(ProviderProfile profile, Conversation conversation, RequestOptions options, FitReport fitReport) {
    this.profile = profile;
    this.conversation = conversation;
    this.options = options;
    this.fitReport = fitReport;
  }

  /** Checks {@code conversation} against {@code profile} with the default options (no fitting). */
  public static LlmRequest prepare(ProviderProfile profile, Conversation conversation) {
    return prepare(profile, conversation, RequestOptions.defaults());
  }

  /**
   * Checks (and, when the options say so, fits) the conversation's images.
   *
   * @throws ImageRuleException naming the first image that breaks a rule of the profile
   * @throws IllegalArgumentException for Claude with {@code maxTokens} 0, or for Claude and Gemini
   *     when a turn holds only empty text (see the class comment)
   */
  public static LlmRequest prepare(ProviderProfile profile, Conversation conversation, RequestOptions options) {
    Objects.requireNonNull(profile, "profile");
    Objects.requireNonNull(conversation, "conversation");
    Objects.requireNonNull(options, "options");
    if (profile.provider() == Provider.CLAUDE && options.maxTokens() == 0) {
      throw new IllegalArgumentException("maxTokens must be > 0 for " + profile.provider().displayName()
          + ", which requires max_tokens, but was 0");
    }
    if (profile.provider() == Provider.CLAUDE || profile.provider() == Provider.GEMINI) {
      Messages.requireContent(conversation.turns(), profile.provider());
    }
    ProfileCheck.Result result = ProfileCheck.check(profile, conversation, options);
    return new LlmRequest(profile, result.conversation(), options, result.report());
  }

  public ProviderProfile profile() {
    return profile;
  }

  /** The conversation as it will be written: fitted images replace the originals. */
  public Conversation conversation() {
    return conversation;
  }

  public RequestOptions options() {
    return options;
  }

  /** What fitting changed (empty when nothing was) and each image's estimated tokens. */
  public FitReport fitReport() {
    return fitReport;
  }

  /** Writes the body as compact UTF-8 JSON; {@code out} is neither flushed nor closed. */
  public void writeTo(OutputStream out) throws IOException {
    Objects.requireNonNull(out, "out");
    try (JsonOut json = new JsonOut(out)) {
      RequestWriter.of(profile.provider()).write(conversation, options, json);
    }
  }

  /** The body as compact UTF-8 JSON bytes. */
  public byte[] toByteArray() {
    ByteArrayOutputStream out = new ByteArrayOutputStream(estimatedSize());
    try {
      writeTo(out);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toByteArray();
  }

  /** The body as a Jackson tree (each image's base64 becomes one string node). */
  public JsonNode toTree() {
    try {
      return MAPPER.readTree(toByteArray());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private int estimatedSize() {
    long images = 0;
    for (var image : conversation.images()) {
      images += image.data().size() / 3 * 4 + 64;
    }
    return (int) Math.min(Integer.MAX_VALUE - 8, images + 4096);
  }
}
