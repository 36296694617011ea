/** A WhatsApp Business Cloud API number bridged to a tether instance, over the chat-bridge core. */
module dev.tether.whatsapp {
  requires transitive dev.tether.client;
  requires transitive dev.tether.chat;
  requires dev.tether.images;
  requires dev.tether.media;
  requires com.fasterxml.jackson.databind;
  requires java.net.http;
  requires jdk.httpserver;

  exports dev.tether.whatsapp;
}
