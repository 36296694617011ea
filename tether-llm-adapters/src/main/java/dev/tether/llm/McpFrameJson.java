package dev.tether.llm;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.tether.api.ErrorCode;
import dev.tether.api.TetherException;
import dev.tether.api.json.TetherJson;
import java.io.IOException;

/** Streaming JSON shared by both directions of the MCP conversion. Stateless. */
final class McpFrameJson {
  static final String STUB_FIELD = "_mcp_index";

  static final JsonFactory FACTORY = TetherJson.factory();

  /** Called with the parser on each element of a frame's {@code payload.images}; writes its replacement. */
  interface ImageHandler {
    void handle(JsonParser p, JsonGenerator g) throws IOException;
  }

  private McpFrameJson() {}

  /**
   * Copies the frame object at the parser's current START_OBJECT to {@code g}, handing each element
   * of {@code payload.images} to {@code images}; everything else is copied token for token.
   */
  static void copyFrame(JsonParser p, JsonGenerator g, ImageHandler images) throws IOException {
    if (p.currentToken() != JsonToken.START_OBJECT) {
      throw malformed("each frame must be a JSON object");
    }
    g.writeStartObject();
    while (p.nextToken() == JsonToken.FIELD_NAME) {
      String name = p.currentName();
      JsonToken value = p.nextToken();
      g.writeFieldName(name);
      if ("payload".equals(name) && value == JsonToken.START_OBJECT) {
        copyPayload(p, g, images);
      } else {
        g.copyCurrentStructure(p);
      }
    }
    g.writeEndObject();
  }

  /**
   * Copies the payload object at the parser's current START_OBJECT to {@code g}, handing each
   * element of its {@code images} array to {@code images}.
   */
  static void copyPayload(JsonParser p, JsonGenerator g, ImageHandler images) throws IOException {
    g.writeStartObject();
    while (p.nextToken() == JsonToken.FIELD_NAME) {
      String name = p.currentName();
      JsonToken value = p.nextToken();
      g.writeFieldName(name);
      if ("images".equals(name) && value == JsonToken.START_ARRAY) {
        g.writeStartArray();
        while (p.nextToken() != JsonToken.END_ARRAY) {
          images.handle(p, g);
        }
        g.writeEndArray();
      } else {
        g.copyCurrentStructure(p);
      }
    }
    g.writeEndObject();
  }

  static TetherException malformed(String message) {
    return TetherException.of(ErrorCode.MALFORMED_FRAME, "tether_read result: " + message);
  }

  /** Writes an image that stays a blob ref: {@code {"media_type", "blob", "size"?}}. */
  static void writeBlobRef(JsonGenerator g, String mediaType, String blob, Long size) throws IOException {
    g.writeStartObject();
    g.writeStringField("media_type", mediaType);
    g.writeStringField("blob", blob);
    if (size != null) {
      g.writeNumberField("size", size);
    }
    g.writeEndObject();
  }
}
