package dev.tether.whatsapp.internal;

import dev.tether.chat.ChatSessions;
import dev.tether.whatsapp.WhatsAppChat;
import java.util.Objects;
import java.util.Optional;

/** WhatsApp conversations as tether sessions ({@link WhatsAppChat}), allowed by number; media belongs to the number. */
final class WhatsAppSessions implements ChatSessions<WhatsAppChat> {
  private final WhatsAppConfig config;

  WhatsAppSessions(WhatsAppConfig config) {
    this.config = Objects.requireNonNull(config, "config");
  }

  @Override
  public String channel() {
    return WhatsAppChat.CHANNEL;
  }

  @Override
  public String displayName() {
    return "WhatsApp";
  }

  @Override
  public Optional<WhatsAppChat> allowedChat(String sessionId) {
    return WhatsAppChat.parse(sessionId).filter(chat -> config.allowed(chat.waId()));
  }

  @Override
  public String mediaOwner(WhatsAppChat chat) {
    return chat.waId();
  }
}
