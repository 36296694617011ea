package dev.tether.cli;

import com.fasterxml.jackson.databind.ObjectMapper;

/** The one ObjectMapper of the application, for the small JSON documents it reads and writes. */
final class Json {
  static final ObjectMapper MAPPER = new ObjectMapper();

  private Json() {}
}
