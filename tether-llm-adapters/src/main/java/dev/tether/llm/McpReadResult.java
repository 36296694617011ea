package dev.tether.llm;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.tether.api.ErrorCode;
import dev.tether.api.Frame;
import dev.tether.api.FrameCodec;
import dev.tether.api.TetherException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The result of {@code tether_read} and its MCP form (tether-image-support.md §3.2).
 *
 * <p>{@link #toContent()} gives the first content item as the JSON text of
 * {@code {frames, next_seq, timed_out}} with every image of every frame's {@code payload.images}
 * replaced by {@code {"_mcp_index": N}}, followed by one image item per image in frame order; N
 * counts image items only, across all frames of the poll. {@link #fromContent(List)} is the
 * inverse for clients: it puts each image back into its frame.
 *
 * @param frames oldest first
 * @param nextSeq the cursor for the next poll
 * @param timedOut whether the long-poll ended without new frames
 */
public record McpReadResult(List<Frame> frames, long nextSeq, boolean timedOut) {
  public McpReadResult {
    frames = List.copyOf(frames);
  }

  /** The MCP content items; thread-safe, copies nothing it is given. */
  public List<McpContent> toContent() {
    List<McpContent> content = new ArrayList<>();
    content.add(null);
    ByteArrayOutputStream json = new ByteArrayOutputStream();
    try (JsonGenerator g = McpJson.FACTORY.createGenerator(json)) {
      g.writeStartObject();
      g.writeArrayFieldStart("frames");
      ByteArrayOutputStream frameBytes = new ByteArrayOutputStream();
      for (Frame frame : frames) {
        frameBytes.reset();
        FrameCodec.standard().write(frame, frameBytes);
        try (JsonParser p = McpJson.FACTORY.createParser(frameBytes.toByteArray())) {
          p.nextToken();
          McpJson.copyFrame(p, g, (parser, gen) -> stubImage(parser, gen, content));
        }
      }
      g.writeEndArray();
      g.writeNumberField("next_seq", nextSeq);
      g.writeBooleanField("timed_out", timedOut);
      g.writeEndObject();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    content.set(0, new McpContent.Text(json.toString(StandardCharsets.UTF_8)));
    return List.copyOf(content);
  }

  /** Replaces one image object with its stub and moves its data to an image item. */
  private static void stubImage(JsonParser p, JsonGenerator g, List<McpContent> content) throws IOException {
    if (p.currentToken() != JsonToken.START_OBJECT) {
      g.copyCurrentStructure(p);
      return;
    }
    String mediaType = null;
    String data = null;
    while (p.nextToken() == JsonToken.FIELD_NAME) {
      String name = p.currentName();
      JsonToken value = p.nextToken();
      if ("media_type".equals(name) && value == JsonToken.VALUE_STRING) {
        mediaType = p.getText();
      } else if ("data".equals(name) && value == JsonToken.VALUE_STRING) {
        data = p.getText();
      } else {
        p.skipChildren();
      }
    }
    if (mediaType == null || data == null) {
      throw TetherException.of(ErrorCode.MALFORMED_FRAME,
          "an image in payload.images lacks media_type or data; validate frames before reading them out");
    }
    g.writeStartObject();
    g.writeNumberField(McpJson.STUB_FIELD, content.size() - 1);
    g.writeEndObject();
    content.add(new McpContent.Image(data, mediaType));
  }

  /**
   * Rebuilds the result from MCP content: the first item's JSON, with each stub replaced by the
   * image item it points to. Items other than the first text item and the image items are ignored.
   *
   * @throws TetherException {@link ErrorCode#MALFORMED_FRAME} when the first item is not text, its
   *     JSON is not a {@code tether_read} result, a stub points at no image or at one already used,
   *     or an image is pointed at by no stub; {@link ErrorCode#UNSUPPORTED_MEDIA_TYPE} for an image
   *     item whose mimeType is not one of the four; and whatever {@link FrameCodec#read(byte[])}
   *     rejects in a rebuilt frame
   */
  public static McpReadResult fromContent(List<McpContent> content) {
    Objects.requireNonNull(content, "content");
    return McpResultParser.parse(content);
  }
}
