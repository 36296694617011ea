/**
 * The {@code TetherStore} contract and its in-memory ring: seq per instance, queries, long-poll
 * waits and subscriptions; and the durable SQLite journal.
 */
module dev.tether.store {
  requires transitive dev.tether.api;
  requires dev.tether.images;
  requires java.sql;

  exports dev.tether.store;
}
