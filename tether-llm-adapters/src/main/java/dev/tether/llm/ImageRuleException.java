package dev.tether.llm;

import dev.tether.api.ErrorCode;
import java.util.Objects;

/**
 * An image in a conversation breaks a rule of the provider a request is for. Thrown before any
 * of the request is written, so nothing a provider would refuse is ever sent.
 *
 * <p>It names the image by its zero-based index in {@link dev.tether.api.Conversation#images()}
 * order (images inside tool results included), the profile's name and the rule, and its message
 * says what to change.
 */
public final class ImageRuleException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final int imageIndex;
  private final String profileName;
  private final ImageRule rule;

  ImageRuleException(int imageIndex, String profileName, ImageRule rule, String message, Throwable cause) {
    super(message, cause);
    this.imageIndex = imageIndex;
    this.profileName = Objects.requireNonNull(profileName, "profileName");
    this.rule = Objects.requireNonNull(rule, "rule");
  }

  static ImageRuleException of(int imageIndex, ProviderProfile profile, ImageRule rule, String problem) {
    return new ImageRuleException(imageIndex, profile.name(), rule,
        "image " + imageIndex + " cannot go to " + profile.name() + ": " + problem, null);
  }

  static ImageRuleException of(int imageIndex, ProviderProfile profile, ImageRule rule, String problem, Throwable cause) {
    return new ImageRuleException(imageIndex, profile.name(), rule,
        "image " + imageIndex + " cannot go to " + profile.name() + ": " + problem, cause);
  }

  /** The zero-based index of the image, in {@code Conversation.images()} order. */
  public int imageIndex() {
    return imageIndex;
  }

  /** The name of the provider profile, for example {@code anthropic}. */
  public String profileName() {
    return profileName;
  }

  public ImageRule rule() {
    return rule;
  }

  /** The wire error code for the rule, for HTTP and MCP error bodies. */
  public ErrorCode errorCode() {
    return rule.errorCode();
  }
}
