package dev.tether.telegram;

import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Where a conversation lives in Telegram: a chat, and in forum supergroups a topic.
 *
 * <p>Its tether session id on channel {@value #CHANNEL} is the chat id ({@code 42},
 * {@code -1001234567890}) or {@code chat:thread} for a forum topic, so each topic is its own
 * session and answers go back to the same topic. Chat ids are 64-bit and negative for groups.
 * Immutable.
 *
 * @param chatId the Telegram chat id
 * @param threadId the forum topic ({@code message_thread_id}), or empty
 */
public record TelegramChat(long chatId, OptionalLong threadId) {
  /** The tether session channel of every Telegram conversation. */
  public static final String CHANNEL = "telegram";

  public TelegramChat {
    Objects.requireNonNull(threadId, "threadId");
  }

  public static TelegramChat of(long chatId) {
    return new TelegramChat(chatId, OptionalLong.empty());
  }

  public static TelegramChat topic(long chatId, long threadId) {
    return new TelegramChat(chatId, OptionalLong.of(threadId));
  }

  /** The tether session id: {@code chat} or {@code chat:thread}. */
  public String sessionId() {
    return threadId.isPresent() ? chatId + ":" + threadId.getAsLong() : Long.toString(chatId);
  }

  /** The chat a session id names, or empty when it is not {@code chat} or {@code chat:thread}. */
  public static Optional<TelegramChat> parse(String sessionId) {
    if (sessionId == null) {
      return Optional.empty();
    }
    try {
      int colon = sessionId.indexOf(':');
      TelegramChat chat = colon < 0
          ? of(Long.parseLong(sessionId))
          : topic(Long.parseLong(sessionId.substring(0, colon)), Long.parseLong(sessionId.substring(colon + 1)));
      // Only the canonical spelling names a chat: "+42" or "042" would be a second session for it.
      return chat.sessionId().equals(sessionId) ? Optional.of(chat) : Optional.empty();
    } catch (NumberFormatException e) {
      return Optional.empty();
    }
  }

  @Override
  public String toString() {
    return "telegram:" + sessionId();
  }
}
