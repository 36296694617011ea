package dev.tether.telegram.internal;

import java.io.IOException;
import java.util.OptionalInt;

/**
 * A Bot API call that the server answered with {@code {"ok":false,...}} or a non-2xx status.
 *
 * <p>{@link #errorCode()} is the API's {@code error_code} (the HTTP status when the body had
 * none), {@link #retryAfter()} its {@code parameters.retry_after} in seconds. The message never
 * contains the bot token: it is built from the method name and the API's description, both
 * passed through {@link dev.tether.telegram.BotToken#redact}.
 */
public final class BotApiException extends IOException {
  private static final long serialVersionUID = 1L;

  private final int errorCode;
  private final String description;
  private final int retryAfter;

  BotApiException(String method, int errorCode, String description, int retryAfter) {
    super(method + " failed: " + errorCode + " " + description
        + (retryAfter > 0 ? " (retry after " + retryAfter + " s)" : ""));
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

  /** {@code parameters.retry_after}: seconds to wait before the same call may succeed. */
  public OptionalInt retryAfter() {
    return retryAfter > 0 ? OptionalInt.of(retryAfter) : OptionalInt.empty();
  }

  /** Whether the same call may succeed later: 429 (flood control) and 5xx. */
  public boolean isTransient() {
    return errorCode == 429 || errorCode >= 500;
  }
}
