package dev.tether.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tether.api.json.TetherJson;

/** The one ObjectMapper of the application, for the small JSON documents it reads and writes. */
final class Json {
  static final ObjectMapper MAPPER = new ObjectMapper(TetherJson.newFactory());

  private Json() {}
}
