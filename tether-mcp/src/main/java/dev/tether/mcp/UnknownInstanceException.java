package dev.tether.mcp;

import java.util.Objects;

/**
 * The host does not know the instance a tool call named. Tools report it as the tool error
 * {@code UNKNOWN_INSTANCE}; the server keeps serving.
 */
public final class UnknownInstanceException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final String instance;

  public UnknownInstanceException(String instance) {
    super("no instance named '" + Objects.requireNonNull(instance, "instance") + "'");
    this.instance = instance;
  }

  /** The name the caller used. */
  public String instance() {
    return instance;
  }
}
