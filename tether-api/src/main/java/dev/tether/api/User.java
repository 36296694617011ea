package dev.tether.api;

import java.util.Objects;

/**
 * The person behind a {@code user.message}, as the channel knows them.
 *
 * @param id the channel's user id, never null (may be empty)
 * @param name a display name, never null (may be empty)
 */
public record User(String id, String name) {
  public User {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(name, "name");
  }
}
