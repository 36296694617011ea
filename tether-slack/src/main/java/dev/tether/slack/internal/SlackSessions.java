package dev.tether.slack.internal;

import dev.tether.chat.ChatSessions;
import dev.tether.slack.SlackChat;
import java.util.Objects;
import java.util.Optional;

/** Slack threads as tether sessions ({@link SlackChat}), allowed by conversation id; media belongs to the conversation. */
final class SlackSessions implements ChatSessions<SlackChat> {
  private final SlackConfig config;

  SlackSessions(SlackConfig config) {
    this.config = Objects.requireNonNull(config, "config");
  }

  @Override
  public String channel() {
    return SlackChat.CHANNEL;
  }

  @Override
  public String displayName() {
    return "Slack";
  }

  @Override
  public Optional<SlackChat> allowedChat(String sessionId) {
    return SlackChat.parse(sessionId).filter(chat -> config.allowed(chat.channel()));
  }

  @Override
  public String mediaOwner(SlackChat chat) {
    return chat.channel();
  }
}
