/**
 * The chat-bridge core: what every chat bridge (Telegram, Slack, WhatsApp) needs between a chat
 * platform and a tether instance, with the platform behind {@link dev.tether.chat.ChatSender} and
 * {@link dev.tether.chat.ChatSessions}.
 */
module dev.tether.chat {
  requires transitive dev.tether.client;
  requires transitive dev.tether.media;
  requires dev.tether.images;
  requires com.fasterxml.jackson.databind;

  exports dev.tether.chat;
}
