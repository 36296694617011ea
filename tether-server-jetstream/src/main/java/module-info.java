/**
 * Several {@link dev.tether.server.TetherServer}s on one NATS JetStream:
 * {@code TetherServer.builder().shared(JetStreamShared.on(servers))} shares the frames, the
 * instance registry and watermarks, and the blobs with every server given the same servers; what
 * {@code tether serve --nats} runs.
 */
module dev.tether.server.jetstream {
  requires transitive dev.tether.server;
  requires transitive dev.tether.store.jetstream;
  requires com.fasterxml.jackson.databind;

  exports dev.tether.server.jetstream;
}
