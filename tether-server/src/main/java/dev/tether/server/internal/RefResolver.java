package dev.tether.server.internal;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tether.api.Frame;
import dev.tether.api.ImageRefs;
import dev.tether.api.MediaType;
import dev.tether.api.RawJson;
import dev.tether.api.TetherException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Iterator;
import java.util.Map;

/** Turns blob refs into inline images for readers that want the bytes in the frame. Stateless. */
final class RefResolver {
  /**
   * The field a store that moves inline images out of large frames (the JetStream store) sets on
   * the ref it leaves: {@code "offloaded": true}. Such a ref was sent inline.
   */
  static final String OFFLOADED = "offloaded";

  private static final byte[] OFFLOADED_KEY = ("\"" + OFFLOADED + "\"").getBytes(StandardCharsets.US_ASCII);

  private RefResolver() {}

  /**
   * {@code frame} with its refs inline, or as stored when it has none, the instance is unknown, or
   * a blob cannot be read (gone since, say): a stream reader then sees the ref it can fetch itself.
   */
  static Frame inlineOrAsStored(Frame frame, InstanceRegistry.Entry instance, Blobs blobs) {
    if (instance == null) {
      return frame;
    }
    try {
      return ImageRefs.inline(frame, ref -> blobs.read(instance, ref));
    } catch (TetherException | IOException e) {
      return frame;
    }
  }

  /**
   * {@code frame} as its sender sent it: the refs the store made of inline images ({@link #OFFLOADED})
   * inline again, with their other fields; refs the sender sent stay refs. The frame itself when it
   * has no such ref, the instance is unknown, or a blob cannot be read (the reader then sees a ref
   * it can fetch). Only frames the store offloaded are parsed; their stored form is small.
   */
  static Frame asSent(Frame frame, InstanceRegistry.Entry instance, Blobs blobs) {
    if (instance == null || !frame.hasPayload() || !contains(frame.payload().asReadOnlyByteBuffer(), OFFLOADED_KEY)) {
      return frame;
    }
    try {
      JsonNode tree = Json.MAPPER.reader().with(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
          .readTree(frame.payload().openStream());
      if (!(tree instanceof ObjectNode payload) || !(payload.get("images") instanceof ArrayNode images)) {
        return frame;
      }
      boolean changed = false;
      for (int i = 0; i < images.size(); i++) {
        ObjectNode inline = inlineIfOffloaded(images.get(i), i, instance, blobs);
        if (inline != null) {
          images.set(i, inline);
          changed = true;
        }
      }
      return changed ? frame.toBuilder().payload(RawJson.ofUtf8(Json.MAPPER.writeValueAsBytes(payload))).build() : frame;
    } catch (IOException | RuntimeException e) {
      return frame;
    }
  }

  /** The inline form of image {@code index} when it is an offloaded ref, else null. */
  private static ObjectNode inlineIfOffloaded(JsonNode image, int index, InstanceRegistry.Entry instance, Blobs blobs)
      throws IOException {
    if (!(image instanceof ObjectNode ref) || !ref.path(OFFLOADED).asBoolean(false) || !ref.path("blob").isTextual()) {
      return null;
    }
    MediaType type = MediaType.parse(ref.path("media_type").asText("")).orElse(null);
    String key = ref.get("blob").asText();
    if (type == null || !ImageRefs.isKeyFor(key, type)) {
      return null;
    }
    byte[] bytes = blobs.read(instance, new ImageRefs.Ref(index, type, key, ref.path("size").asLong(-1)));
    ObjectNode inline = Json.MAPPER.createObjectNode();
    inline.put("media_type", type.mimeType());
    inline.put("data", Base64.getEncoder().encodeToString(bytes));
    for (Iterator<Map.Entry<String, JsonNode>> it = ref.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> field = it.next();
      switch (field.getKey()) {
        case "media_type", "blob", "size", OFFLOADED -> { }
        default -> inline.set(field.getKey(), field.getValue());
      }
    }
    return inline;
  }

  private static boolean contains(ByteBuffer b, byte[] needle) {
    int end = b.limit() - needle.length;
    outer:
    for (int i = b.position(); i <= end; i++) {
      for (int j = 0; j < needle.length; j++) {
        if (b.get(i + j) != needle[j]) {
          continue outer;
        }
      }
      return true;
    }
    return false;
  }
}
