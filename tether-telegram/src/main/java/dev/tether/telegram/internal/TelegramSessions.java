package dev.tether.telegram.internal;

import dev.tether.chat.ChatSessions;
import dev.tether.telegram.TelegramChat;
import java.util.Objects;
import java.util.Optional;

/**
 * Telegram's chats as tether sessions: channel {@code telegram}, id {@code chat} or
 * {@code chat:thread} ({@link TelegramChat#parse}), allowed by chat id; media references belong to
 * the chat id (a forum's topics share their chat's media). Immutable.
 */
final class TelegramSessions implements ChatSessions<TelegramChat> {
  private final BridgeConfig config;

  TelegramSessions(BridgeConfig config) {
    this.config = Objects.requireNonNull(config, "config");
  }

  @Override
  public String channel() {
    return TelegramChat.CHANNEL;
  }

  @Override
  public String displayName() {
    return "Telegram";
  }

  @Override
  public Optional<TelegramChat> allowedChat(String sessionId) {
    return TelegramChat.parse(sessionId).filter(chat -> config.allowed(chat.chatId()));
  }

  @Override
  public String mediaOwner(TelegramChat chat) {
    return Long.toString(chat.chatId());
  }
}
