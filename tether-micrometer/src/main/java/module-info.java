/**
 * Optional Micrometer binding: maps the listener and stats interfaces of tether's stores, server,
 * bridges and media registry to meters in a {@code MeterRegistry} the embedder passes. The core
 * modules do not depend on Micrometer; a user adds this module and the ones it binds.
 */
module dev.tether.micrometer {
  requires transitive micrometer.core;
  requires transitive dev.tether.store;
  requires static transitive dev.tether.server;
  requires static transitive dev.tether.telegram;
  requires static transitive dev.tether.chat;
  requires static transitive dev.tether.coven;
  requires static transitive dev.tether.media;

  exports dev.tether.micrometer;
}
