package dev.tether.telegram;

/**
 * What a {@link TelegramBridge} counts as it talks to the Bot API, for a metrics binder (the
 * {@code tether-micrometer} module) or a readiness check. Every method has an empty default;
 * {@link #NONE} is the builder's default.
 *
 * <p>Called on the bridge's ingress, egress and typing threads after each Bot API answer, never
 * under a lock. Calls must be quick and must not throw. Method names are the Bot API's
 * ({@code getUpdates}, {@code sendMessage}, {@code sendPhoto}, ...), a small fixed set.
 */
public interface TelegramListener {
  /** Records nothing. */
  TelegramListener NONE = new TelegramListener() {
    @Override
    public String toString() {
      return "TelegramListener.NONE";
    }
  };

  /** {@code getUpdates} answered {@code count} updates (before the allowed-chats filter). */
  default void updatesReceived(int count) {}

  /** A {@code send*} or {@code edit*} call succeeded: one message (or edit) went out. */
  default void sent(String method) {}

  /** Telegram answered 429 to {@code method} and asked the bridge to wait {@code retryAfterSeconds}. */
  default void rateLimited(String method, int retryAfterSeconds) {}

  /**
   * A Bot API call ended: {@code ok} when Telegram answered it successfully, false for an error
   * answer or a network failure. The last outcome is what a readiness check reports.
   */
  default void answered(String method, boolean ok) {}
}
