package dev.tether.whatsapp.internal;

import dev.tether.chat.ChannelException;

/**
 * A Graph API call WhatsApp refused: its {@code error.code} mapped to a status the core's retrier
 * understands (429 for the rate limits 4, 80007, 130429 and 131056; 503 for 1, 2 and 131000; else
 * the HTTP status), with a description that names the platform's code and says what to do, such as
 * the 24-hour customer service window ({@code 131047}).
 */
public final class GraphApiException extends ChannelException {
  private static final long serialVersionUID = 1L;

  private final int platformCode;

  GraphApiException(String call, int status, int platformCode, String description, int retryAfter) {
    super(call, status, description, retryAfter);
    this.platformCode = platformCode;
  }

  /** WhatsApp's {@code error.code}, or 0 when the answer had none. */
  public int platformCode() {
    return platformCode;
  }
}
