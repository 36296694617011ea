package dev.tether.llm;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.tether.api.ErrorCode;
import dev.tether.api.Frame;
import dev.tether.api.FrameCodec;
import dev.tether.api.RawJson;
import dev.tether.api.TetherException;
import dev.tether.api.json.TetherJson;
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
 * {@code {frames, next_seq, timed_out}}, plus {@code "gap":true,"oldest_seq":N} only when
 * {@code gap} is true (the same fields, written under the same rule, as tether-cli's HTTP poll
 * response), with every image of every frame's {@code payload.images}
 * replaced by {@code {"_mcp_index": N}}, followed by one image item per image in frame order; N
 * counts image items only, across all frames of the poll. {@link #fromContent(List)} is the
 * inverse for clients: it puts each image back into its frame.
 *
 * @param frames oldest first
 * @param nextSeq the cursor for the next poll
 * @param timedOut whether the long-poll ended without new frames
 * @param gap frames after the poll's cursor were already evicted, so some may have been missed
 * @param oldestSeq when {@code gap}, the oldest seq the store still held in scope (0 when it held
 *     none); otherwise 0; the constructor throws {@link IllegalArgumentException} when it is
 *     negative, or non-zero without {@code gap}
 */
public record McpReadResult(List<Frame> frames, long nextSeq, boolean timedOut, boolean gap, long oldestSeq) {
  public McpReadResult {
    frames = List.copyOf(frames);
    if (oldestSeq < 0) {
      throw new IllegalArgumentException("oldestSeq must be >= 0 but was " + oldestSeq);
    }
    if (!gap && oldestSeq != 0) {
      throw new IllegalArgumentException("oldestSeq is only set with gap but was " + oldestSeq);
    }
  }

  /** A result with no eviction gap ({@code gap} false, {@code oldestSeq} 0). */
  public McpReadResult(List<Frame> frames, long nextSeq, boolean timedOut) {
    this(frames, nextSeq, timedOut, false, 0);
  }

  /**
   * The MCP content items; thread-safe, copies nothing it is given.
   *
   * <p>Each frame's payload is read in place, from the bytes it already is: the images array is
   * rewritten into a small stubbed payload, and each image's base64 becomes its item's String in
   * one Latin-1 copy from those bytes (no parser buffer, no char array in between) once a
   * word-at-a-time scan has found its end and that it holds no escape. The JSON text is then
   * the frame with that small payload, so the megabytes of base64 are never written out and
   * parsed again.
   */
  public List<McpContent> toContent() {
    List<McpContent> content = new ArrayList<>();
    content.add(null);
    ByteArrayOutputStream json = new ByteArrayOutputStream();
    try (JsonGenerator g = McpFrameJson.FACTORY.createGenerator(json)) {
      g.writeStartObject();
      g.writeArrayFieldStart("frames");
      for (Frame frame : frames) {
        Frame small = frame;
        if (frame.hasPayload()) {
          small = frame.toBuilder().payload(stubPayload(frame.payload(), content)).build();
        }
        try (JsonParser p = McpFrameJson.FACTORY.createParser(FrameCodec.standard().write(small))) {
          p.nextToken();
          McpFrameJson.copyFrame(p, g, (parser, gen) -> gen.copyCurrentStructure(parser));
        }
      }
      g.writeEndArray();
      g.writeNumberField("next_seq", nextSeq);
      g.writeBooleanField("timed_out", timedOut);
      if (gap) {
        g.writeBooleanField("gap", true);
        g.writeNumberField("oldest_seq", oldestSeq);
      }
      g.writeEndObject();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    content.set(0, new McpContent.Text(json.toString(StandardCharsets.UTF_8)));
    return List.copyOf(content);
  }

  /** Writes {@code payload} with each image of {@code images} replaced by its stub, adding the image items to {@code content}. */
  private static RawJson stubPayload(RawJson payload, List<McpContent> content) throws IOException {
    try (JsonParser p = TetherJson.parser(payload)) {
      p.nextToken();
      // our generator's output: one object, not parsed again
      return TetherJson.write(g -> McpFrameJson.copyPayload(p, g, (parser, gen) -> stubImage(parser, gen, content)));
    }
  }

  /**
   * Replaces one image object with its stub and moves its data to an image item. A blob ref whose
   * bytes the reader could not fetch ({@code {"media_type","blob","size"}}) stays as it is, so the
   * model sees which blob is missing instead of the whole read failing.
   */
  private static void stubImage(JsonParser p, JsonGenerator g, List<McpContent> content)
      throws IOException {
    if (p.currentToken() != JsonToken.START_OBJECT) {
      g.copyCurrentStructure(p);
      return;
    }
    String mediaType = null;
    String data = null;
    String blob = null;
    Long size = null;
    JsonToken token = p.nextToken();
    while (token == JsonToken.FIELD_NAME) {
      String name = p.currentName();
      JsonToken value = p.nextToken();
      if ("data".equals(name) && value == JsonToken.VALUE_STRING) {
        data = TetherJson.readString(p);
        token = p.currentToken(); // readString moved on to the token after the string
        continue;
      }
      if ("media_type".equals(name) && value == JsonToken.VALUE_STRING) {
        mediaType = p.getText();
      } else if ("blob".equals(name) && value == JsonToken.VALUE_STRING) {
        blob = p.getText();
      } else if ("size".equals(name) && value == JsonToken.VALUE_NUMBER_INT) {
        size = p.getLongValue();
      } else {
        p.skipChildren();
      }
      token = p.nextToken();
    }
    if (mediaType != null && data == null && blob != null) {
      McpFrameJson.writeBlobRef(g, mediaType, blob, size);
      return;
    }
    if (mediaType == null || data == null) {
      throw TetherException.of(ErrorCode.MALFORMED_FRAME,
          "an image in payload.images lacks media_type or data; validate frames before reading them out");
    }
    g.writeStartObject();
    g.writeNumberField(McpFrameJson.STUB_FIELD, content.size() - 1);
    g.writeEndObject();
    content.add(new McpContent.Image(data, mediaType));
  }

  /**
   * Rebuilds the result from MCP content: the first item's JSON, with each stub replaced by the
   * image item it points to. Items other than the first text item and the image items are ignored.
   * {@code gap} and {@code oldest_seq} are optional and go together: an absent {@code gap} (or
   * {@code "gap":false} without {@code oldest_seq}) means no gap.
   *
   * @throws TetherException {@link ErrorCode#MALFORMED_FRAME} when the first item is not text, its
   *     JSON is not a {@code tether_read} result (including {@code gap} that is not a boolean,
   *     {@code oldest_seq} that is not a non-negative integer, {@code "gap":true} without
   *     {@code oldest_seq}, or {@code oldest_seq} without {@code "gap":true}), a stub points at no image or at one already used,
   *     or an image is pointed at by no stub; {@link ErrorCode#UNSUPPORTED_MEDIA_TYPE} for an image
   *     item whose mimeType is not one of the four; and whatever {@link FrameCodec#read(byte[])}
   *     rejects in a rebuilt frame
   */
  public static McpReadResult fromContent(List<McpContent> content) {
    Objects.requireNonNull(content, "content");
    return McpResultParser.parse(content);
  }
}
