package dev.tether.llm;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import dev.tether.api.ErrorCode;
import dev.tether.api.Frame;
import dev.tether.api.FrameCodec;
import dev.tether.api.MediaType;
import dev.tether.api.TetherException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads a {@code tether_read} MCP result back into frames: the inverse of
 * {@link McpReadResult#toContent()}. Treats its input as hostile: every malformed shape is a
 * {@link TetherException}, never another exception. Each rebuilt frame goes through
 * {@link FrameCodec#read(byte[])}, so the wire size limit and envelope checks apply.
 */
final class McpResultParser {
  private final List<McpContent.Image> images = new ArrayList<>();
  private boolean[] used;

  private McpResultParser() {}

  static McpReadResult parse(List<McpContent> content) {
    if (content.isEmpty() || !(content.get(0) instanceof McpContent.Text text)) {
      throw McpFrameJson.malformed("the first content item must be the text item holding the JSON");
    }
    McpResultParser parser = new McpResultParser();
    for (McpContent item : content) {
      if (item instanceof McpContent.Image image) {
        parser.images.add(image);
      }
    }
    parser.used = new boolean[parser.images.size()];
    try {
      return parser.read(text.text());
    } catch (JsonProcessingException e) {
      throw TetherException.of(ErrorCode.MALFORMED_FRAME, "tether_read result: the text item is not valid JSON", e);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private McpReadResult read(String json) throws IOException {
    List<Frame> frames = null;
    Long nextSeq = null;
    boolean timedOut = false;
    boolean gap = false;
    Long oldestSeq = null;
    try (JsonParser p = McpFrameJson.FACTORY.createParser(json)) {
      if (p.nextToken() != JsonToken.START_OBJECT) {
        throw McpFrameJson.malformed("the JSON must be an object with frames and next_seq");
      }
      while (p.nextToken() == JsonToken.FIELD_NAME) {
        String name = p.currentName();
        JsonToken value = p.nextToken();
        switch (name) {
          case "frames" -> {
            if (value != JsonToken.START_ARRAY) {
              throw McpFrameJson.malformed("frames must be an array");
            }
            frames = new ArrayList<>();
            while (p.nextToken() != JsonToken.END_ARRAY) {
              frames.add(frame(p));
            }
          }
          case "next_seq" -> nextSeq = nonNegativeLong(p, value, "next_seq");
          case "timed_out" -> {
            if (!value.isBoolean()) {
              throw McpFrameJson.malformed("timed_out must be true or false");
            }
            timedOut = p.getBooleanValue();
          }
          case "gap" -> {
            if (!value.isBoolean()) {
              throw McpFrameJson.malformed("gap must be true or false");
            }
            gap = p.getBooleanValue();
          }
          case "oldest_seq" -> oldestSeq = nonNegativeLong(p, value, "oldest_seq");
          default -> p.skipChildren();
        }
      }
      if (p.nextToken() != null) {
        throw McpFrameJson.malformed("the text item holds more than one JSON value");
      }
    }
    if (frames == null || nextSeq == null) {
      throw McpFrameJson.malformed("frames and next_seq are required");
    }
    if (gap != (oldestSeq != null)) {
      throw McpFrameJson.malformed("gap:true and oldest_seq go together, but only " + (gap ? "gap" : "oldest_seq") + " is present");
    }
    for (int i = 0; i < used.length; i++) {
      if (!used[i]) {
        throw McpFrameJson.malformed("image item " + i + " is not referenced by any {\"_mcp_index\": " + i + "} stub");
      }
    }
    return new McpReadResult(frames, nextSeq, timedOut, gap, gap ? oldestSeq : 0);
  }

  private static long nonNegativeLong(JsonParser p, JsonToken value, String field) throws IOException {
    if (value != JsonToken.VALUE_NUMBER_INT || p.getNumberType() != JsonParser.NumberType.INT
        && p.getNumberType() != JsonParser.NumberType.LONG || p.getLongValue() < 0) {
      throw McpFrameJson.malformed(field + " must be a non-negative integer");
    }
    return p.getLongValue();
  }

  private Frame frame(JsonParser p) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (JsonGenerator g = McpFrameJson.FACTORY.createGenerator(bytes)) {
      McpFrameJson.copyFrame(p, g, this::restoreImage);
    }
    return FrameCodec.standard().read(bytes.toByteArray());
  }

  /**
   * Replaces a stub {@code {"_mcp_index": N}} with image item N; a blob ref the reader could not
   * fetch ({@code {"media_type","blob","size"}}) is copied as it is (the codec checks its key).
   */
  private void restoreImage(JsonParser p, JsonGenerator g) throws IOException {
    if (p.currentToken() != JsonToken.START_OBJECT) {
      throw McpFrameJson.malformed("payload.images must hold {\"_mcp_index\": N} stubs");
    }
    Integer index = null;
    String mediaType = null;
    String blob = null;
    Long size = null;
    boolean refField = false;
    while (p.nextToken() == JsonToken.FIELD_NAME) {
      String name = p.currentName();
      JsonToken value = p.nextToken();
      if (McpFrameJson.STUB_FIELD.equals(name) && value == JsonToken.VALUE_NUMBER_INT
          && p.getNumberType() == JsonParser.NumberType.INT && index == null) {
        index = p.getIntValue();
      } else if ("media_type".equals(name) && value == JsonToken.VALUE_STRING && mediaType == null) {
        mediaType = p.getText();
        refField = true;
      } else if ("blob".equals(name) && value == JsonToken.VALUE_STRING && blob == null) {
        blob = p.getText();
        refField = true;
      } else if ("size".equals(name) && value == JsonToken.VALUE_NUMBER_INT && size == null) {
        size = p.getLongValue();
        refField = true;
      } else {
        throw McpFrameJson.malformed("an image stub must be exactly {\"_mcp_index\": N}, but it has '" + name + "'");
      }
    }
    if (index == null && mediaType != null && blob != null) {
      McpFrameJson.writeBlobRef(g, mediaType, blob, size);
      return;
    }
    if (index == null || refField) {
      throw McpFrameJson.malformed("an image stub must be exactly {\"_mcp_index\": N}");
    }
    if (index < 0 || index >= images.size()) {
      throw McpFrameJson.malformed("_mcp_index " + index + " points past the " + images.size() + " image items");
    }
    if (used[index]) {
      throw McpFrameJson.malformed("_mcp_index " + index + " is used by two images");
    }
    used[index] = true;
    McpContent.Image image = images.get(index);
    if (MediaType.parse(image.mimeType()).isEmpty()) {
      throw TetherException.forImage(ErrorCode.UNSUPPORTED_MEDIA_TYPE, index,
          "image item " + index + ": mimeType '" + image.mimeType() + "' is not image/png, image/jpeg, image/gif or image/webp");
    }
    g.writeStartObject();
    g.writeStringField("media_type", image.mimeType());
    g.writeStringField("data", image.data());
    g.writeEndObject();
  }
}
