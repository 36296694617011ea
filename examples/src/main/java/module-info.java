/** Two programs that use tether-java as any other service would: as named modules. */
module dev.tether.examples {
  requires dev.tether.store;
  requires dev.tether.llm;
  requires dev.tether.images;
}
