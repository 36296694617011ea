/**
 * The embeddable tether host daemon: {@link dev.tether.server.TetherServer}, built by its builder,
 * serves the HTTP API over a Unix domain socket or loopback TCP in front of a
 * {@link dev.tether.store.TetherStore}, with the instance registry, the memory budgets, bearer
 * auth and the web console. Routes, registry and console are internal.
 */
module dev.tether.server {
  requires transitive dev.tether.api;
  requires transitive dev.tether.client;
  requires transitive dev.tether.store;
  requires transitive dev.tether.images;
  requires dev.tether.sessions;
  requires dev.tether.media;
  requires com.fasterxml.jackson.databind;
  requires transitive org.eclipse.jetty.server; // TetherServer.Builder.mount takes a Jetty Handler
  requires org.eclipse.jetty.unixdomain.server;

  exports dev.tether.server;
}
