package dev.tether.server.internal;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.charset.StandardCharsets;

/**
 * A whole HTTP answer of the API: status, body and its content type.
 *
 * @param status the HTTP status
 * @param body the body bytes (not copied)
 * @param contentType the body's media type
 */
record Reply(int status, byte[] body, String contentType) {
  static Reply json(int status, byte[] body) {
    return new Reply(status, body, "application/json");
  }

  static Reply json(int status, JsonNode node) {
    return json(status, (node.toString() + "\n").getBytes(StandardCharsets.UTF_8));
  }
}
