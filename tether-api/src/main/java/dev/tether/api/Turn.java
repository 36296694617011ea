package dev.tether.api;

import java.util.List;
import java.util.Objects;

/**
 * One turn of a conversation: a role and its parts, in order. Immutable.
 *
 * @param role who speaks
 * @param parts at least one part
 */
public record Turn(Role role, List<Part> parts) {
  public Turn {
    Objects.requireNonNull(role, "role");
    parts = List.copyOf(parts);
    if (parts.isEmpty()) {
      throw new IllegalArgumentException("a turn needs at least one part");
    }
  }

  public static Turn user(Part... parts) {
    return new Turn(Role.USER, List.of(parts));
  }

  public static Turn assistant(Part... parts) {
    return new Turn(Role.ASSISTANT, List.of(parts));
  }

  /** The concatenated text parts, without tool or image parts. */
  public String text() {
    StringBuilder sb = new StringBuilder();
    for (Part part : parts) {
      if (part instanceof Part.Text t) {
        sb.append(t.text());
      }
    }
    return sb.toString();
  }
}
