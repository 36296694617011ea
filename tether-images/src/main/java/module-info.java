/** Frame and image validation, image metadata from headers, and producer helpers. */
module dev.tether.images {
  requires transitive dev.tether.api;

  exports dev.tether.images;
}
