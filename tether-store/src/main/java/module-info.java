/**
 * The {@code TetherStore} contract and its in-memory ring: seq per instance, queries, long-poll
 * waits, subscriptions and byte budgets.
 */
module dev.tether.store {
  requires transitive dev.tether.api;
  requires dev.tether.images;
  requires transitive dev.tether.client;

  exports dev.tether.store;
  // The memory ring as a store with its own writer keeps it in step (durable, JetStream), and the
  // ring fed with frames sequenced elsewhere (SequencedFrameIndex, JetStream).
  exports dev.tether.store.internal to dev.tether.store.sqlite, dev.tether.store.jetstream;
}
