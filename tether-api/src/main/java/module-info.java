/**
 * The tether wire: frames, typed payloads, images, limits, the conversation model, the JSON codec
 * and the one error model ({@link dev.tether.api.TetherException} with {@link dev.tether.api.ErrorCode}).
 */
module dev.tether.api {
  requires com.fasterxml.jackson.core;

  exports dev.tether.api;
  // Zero-copy access to payload bytes and the one Jackson configuration, for the tether modules.
  exports dev.tether.api.internal to
      dev.tether.images, dev.tether.sessions, dev.tether.media, dev.tether.store, dev.tether.store.sqlite,
      dev.tether.store.jetstream, dev.tether.llm, dev.tether.server, dev.tether.client.http, dev.tether.chat, dev.tether.telegram, dev.tether.slack, dev.tether.whatsapp,
      dev.tether.coven, dev.tether.mcp;
}
