package dev.tether.chat;

import dev.tether.api.SessionKey;
import java.util.Optional;

/**
 * How a channel's chats map to tether sessions: the session channel every chat of the platform
 * uses ({@code telegram}, {@code slack}, {@code whatsapp}), and the allowed chat a session names.
 * The core asks it before every delivery and every {@code media.fetch}, so a chat that is not
 * allowed can neither be written to nor read from. Implementations are immutable and thread-safe.
 *
 * @param <C> the channel's chat (a Telegram chat or topic, a Slack channel thread, a WhatsApp number)
 */
public interface ChatSessions<C> {
  /** The tether session channel of every conversation of the platform, such as {@code telegram}. */
  String channel();

  /** The platform's name for people, such as {@code Telegram}. */
  String displayName();

  /**
   * The allowed chat a session id names (on {@link #channel()}), or empty when the id is not the
   * canonical spelling of a chat or the chat is not allowed.
   */
  Optional<C> allowedChat(String sessionId);

  /**
   * The chat id media references of {@code chat} are registered under ({@code MediaReference.chat()}),
   * so that a chat can fetch only its own media.
   */
  String mediaOwner(C chat);

  /** The allowed chat of a session on any channel, or empty. */
  default Optional<C> allowedChat(SessionKey session) {
    return channel().equals(session.channel()) ? allowedChat(session.id()) : Optional.empty();
  }
}
