/** Six programs that use tether-java as any other service would: as named modules. */
module dev.tether.examples {
  requires dev.tether.store;
  requires dev.tether.llm;
  requires dev.tether.images;
  requires dev.tether.server;
  requires dev.tether.client.http;
  requires dev.tether.telegram;
  requires dev.tether.slack;
  requires dev.tether.whatsapp;
  requires java.net.http;
  requires jdk.httpserver;
}
