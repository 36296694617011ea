package dev.tether.store;

import java.util.Objects;

/**
 * Whether a store can serve now, and why not: what a daemon's readiness probe ({@code /v1/ready})
 * answers. Immutable.
 *
 * @param ready true when the store is open and its storage reachable
 * @param reason a sentence an operator can act on when not ready; empty when ready
 */
public record Readiness(boolean ready, String reason) {
  private static final Readiness READY = new Readiness(true, "");

  public Readiness {
    Objects.requireNonNull(reason, "reason");
    if (!ready && reason.isBlank()) {
      throw new IllegalArgumentException("a store that is not ready must say why");
    }
  }

  /** Ready: what an open store with reachable storage answers. */
  public static Readiness yes() {
    return READY;
  }

  /** Not ready, because of {@code reason} (a non-blank sentence). */
  public static Readiness notReady(String reason) {
    return new Readiness(false, reason);
  }
}
