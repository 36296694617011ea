package dev.tether.slack.internal;

import dev.tether.chat.ChannelException;

/**
 * A Web API call Slack refused: {@code {"ok":false,"error":"..."}} (code 400, or 429 for
 * {@code ratelimited}, 503 for Slack's own failures) or a non-2xx status with its
 * {@code Retry-After}. The message holds the method and Slack's error code, never a token.
 */
public final class SlackApiException extends ChannelException {
  private static final long serialVersionUID = 1L;

  SlackApiException(String method, int code, String error, int retryAfter) {
    super(method, code, error, retryAfter);
  }
}
