package dev.tether.telegram.internal;

import dev.tether.chat.ChannelException;

/**
 * A Bot API call that the server answered with {@code {"ok":false,...}} or a non-2xx status: the
 * core's {@link ChannelException} with the API's {@code error_code} (the HTTP status when the body
 * had none) and its {@code parameters.retry_after}. The message never contains the bot token: it is
 * built from the method name and the API's description, both passed through
 * {@link dev.tether.telegram.BotToken#redact}.
 */
public final class BotApiException extends ChannelException {
  private static final long serialVersionUID = 1L;

  BotApiException(String method, int errorCode, String description, int retryAfter) {
    super(method, errorCode, description, retryAfter);
  }
}
