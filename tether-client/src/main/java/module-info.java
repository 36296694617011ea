/** The client contract of a tether host: send a frame into an instance, poll its frames. */
module dev.tether.client {
  requires transitive dev.tether.api;

  exports dev.tether.client;
}
