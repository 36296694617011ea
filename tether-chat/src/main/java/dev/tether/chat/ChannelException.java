package dev.tether.chat;

import java.io.IOException;
import java.util.OptionalInt;

/**
 * A chat platform's refusal of one call: its error code (the HTTP status when the answer had
 * none), its description and, for a rate limit, how long it asked to wait.
 *
 * <p>{@link ChatRetrier} retries what {@link #isTransient()} (429 and 5xx), after
 * {@link #retryAfter()} when the platform said, and throws the rest at once. The message must
 * never contain a secret: subclasses build it from redacted text.
 */
public class ChannelException extends IOException {
  private static final long serialVersionUID = 1L;

  private final int errorCode;
  private final String description;
  private final int retryAfter;

  /**
   * @param call the platform method, for the message ({@code sendMessage}, {@code chat.postMessage})
   * @param errorCode the platform's code, or the HTTP status
   * @param description the platform's reason, already redacted
   * @param retryAfter seconds to wait before the call may succeed; 0 when not said
   */
  public ChannelException(String call, int errorCode, String description, int retryAfter) {
    super(call + " failed: " + errorCode + " " + description + (retryAfter > 0 ? " (retry after " + retryAfter + " s)" : ""));
    this.errorCode = errorCode;
    this.description = description;
    this.retryAfter = retryAfter;
  }

  public int errorCode() {
    return errorCode;
  }

  public String description() {
    return description;
  }

  /** Seconds to wait before the same call may succeed (429's {@code Retry-After}, Telegram's {@code retry_after}). */
  public OptionalInt retryAfter() {
    return retryAfter > 0 ? OptionalInt.of(retryAfter) : OptionalInt.empty();
  }

  /** Whether the same call may succeed later: 429 (rate limit) and 5xx. */
  public boolean isTransient() {
    return errorCode == 429 || errorCode >= 500;
  }
}
