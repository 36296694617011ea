package dev.tether.chat;

/**
 * What a chat bridge counts as it talks to its platform and to the host, for a metrics binder (the
 * {@code tether-micrometer} module's {@code ChatMeters}). Every method has an empty default;
 * {@link #NONE} is the default of every bridge.
 *
 * <p>Called on the bridge's own threads after the event, never under a lock. Calls must be quick
 * and must not throw. Method names are the names the bridge gives its platform calls (Slack's
 * {@code chat.postMessage}, WhatsApp's {@code send text message}, ...), a small fixed set.
 */
public interface ChatListener {
  /** Records nothing. */
  ChatListener NONE = new ChatListener() {
    @Override
    public String toString() {
      return "ChatListener.NONE";
    }
  };

  /** The platform delivered {@code count} events or messages (before the allowed-chats filter). */
  default void received(int count) {}

  /** One chat message was forwarded to the host. */
  default void forwarded() {}

  /** A platform call ({@code method}) succeeded. */
  default void answered(String method) {}

  /** The platform answered 429 to {@code method} and asked the bridge to wait {@code retryAfterSeconds}. */
  default void rateLimited(String method, int retryAfterSeconds) {}

  /** A platform call ({@code method}) failed for good: a permanent refusal, not retried. */
  default void failed(String method) {}
}
