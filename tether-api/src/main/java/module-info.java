/**
 * The tether wire: frames, typed payloads, images, limits, the conversation model, the JSON codec
 * and the one error model ({@link dev.tether.api.TetherException} with {@link dev.tether.api.ErrorCode}).
 */
module dev.tether.api {
  requires transitive com.fasterxml.jackson.core;

  exports dev.tether.api;
  exports dev.tether.api.blobs;
  exports dev.tether.api.files;
  exports dev.tether.api.json;
  // Raw access to payload bytes, for the three modules that must share them without a copy: the
  // validator (scans and reads whole frames), the HTTP server (reads validated bodies, answers
  // with payload views) and the Coven bridge (builds and decodes attachments in place).
  // Everyone else reads and writes RawJson through dev.tether.api.json.TetherJson.
  exports dev.tether.api.internal to dev.tether.images, dev.tether.server, dev.tether.coven;
}
