package dev.tether.llm;

import dev.tether.api.User;
import java.util.Objects;

/**
 * The attribution agents put in front of a user's words in group channels, so that a model can
 * tell people apart: {@code [Alice]: Analyze this chart}. Stateless.
 */
public final class Attribution {
  private Attribution() {}

  /**
   * {@code text} with {@code [name]: } in front; the user's id when the name is empty; the text
   * unchanged when both are. Brackets in the name are replaced by parentheses so the prefix
   * cannot be forged by a display name such as {@code "Bob]: [Alice"}.
   */
  public static String prefix(User user, String text) {
    Objects.requireNonNull(user, "user");
    Objects.requireNonNull(text, "text");
    String who = !user.name().isBlank() ? user.name() : user.id();
    if (who.isBlank()) {
      return text;
    }
    return "[" + who.replace('[', '(').replace(']', ')') + "]: " + text;
  }
}
