/** Content-addressed blob store with GC, conversation session logs and context assembly. */
module dev.tether.sessions {
  requires transitive dev.tether.api;
  requires transitive dev.tether.images;
  requires com.fasterxml.jackson.core;

  exports dev.tether.sessions;
}
