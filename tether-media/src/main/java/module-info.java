/** Lazy media (registry, placeholders, fetcher) and the attachment catalog. */
module dev.tether.media {
  requires transitive dev.tether.api;
  requires dev.tether.images;
  requires dev.tether.sessions;
  requires com.fasterxml.jackson.core;
  requires com.github.benmanes.caffeine;

  exports dev.tether.media;
}
