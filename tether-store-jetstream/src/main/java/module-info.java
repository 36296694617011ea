/** A {@code TetherStore} on NATS JetStream, shared by many hosts; image bytes in the Object Store. */
module dev.tether.store.jetstream {
  requires transitive dev.tether.store;
  requires transitive dev.tether.sessions;
  requires dev.tether.images;
  requires com.fasterxml.jackson.databind;
  requires transitive io.nats.jnats; // Connection is part of the builder and accessor API

  exports dev.tether.store.jetstream;
}
