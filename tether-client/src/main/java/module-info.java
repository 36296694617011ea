/**
 * The client contract of a tether host (send a frame into an instance, poll its frames), the
 * host address that servers listen on and clients reach, and the token file of its TCP listener.
 */
module dev.tether.client {
  requires transitive dev.tether.api;

  exports dev.tether.client;
}
