package dev.tether.store.jetstream.internal;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tether.api.ErrorCode;
import dev.tether.api.Frame;
import dev.tether.api.MediaType;
import dev.tether.api.RawJson;
import dev.tether.api.TetherException;
import dev.tether.api.internal.TetherJson;
import dev.tether.sessions.BlobKey;
import dev.tether.sessions.BlobStore;
import java.io.IOException;
import java.util.Base64;
import java.util.Iterator;
import java.util.Map;

/**
 * Moves a frame's inline images to a {@link BlobStore} and back, rewriting the payload's
 * {@code images} array between the two wire forms: inline {@code {media_type, data}} and blob ref
 * {@code {media_type, blob, size}}. Other payload fields and other fields of an image object are
 * kept; a payload without images is returned unchanged (the same frame). Stateless and
 * thread-safe.
 */
public final class ImageOffload {
  private static final ObjectMapper JSON = new ObjectMapper(TetherJson.newFactory());

  private ImageOffload() {}

  /**
   * {@code frame} with each inline image stored in {@code blobs} and replaced by its ref.
   *
   * @throws TetherException when an image's base64 or media type is bad or the store rejects it
   * @throws IOException when the blob store fails
   */
  public static Frame toRefs(Frame frame, BlobStore blobs) throws IOException {
    ObjectNode payload = parse(frame);
    ArrayNode images = payload == null ? null : images(payload);
    if (images == null) {
      return frame;
    }
    boolean changed = false;
    for (int i = 0; i < images.size(); i++) {
      JsonNode image = images.get(i);
      if (!(image instanceof ObjectNode o) || !o.path("data").isTextual()) {
        continue;
      }
      MediaType type = mediaType(o, i);
      byte[] bytes;
      try {
        bytes = Base64.getDecoder().decode(o.get("data").textValue());
      } catch (IllegalArgumentException e) {
        throw TetherException.forImage(ErrorCode.INVALID_BASE64, i, "image " + i + " is not standard base64: " + e.getMessage());
      }
      BlobKey key = blobs.put(bytes, type);
      ObjectNode ref = JSON.createObjectNode();
      ref.put("media_type", type.mimeType());
      ref.put("blob", key.fileName());
      ref.put("size", bytes.length);
      copyOthers(o, ref);
      images.set(i, ref);
      changed = true;
    }
    return changed ? withPayload(frame, payload) : frame;
  }

  /**
   * {@code frame} with each blob ref replaced by the inline bytes read from {@code blobs}.
   *
   * @throws java.nio.file.NoSuchFileException when a referenced blob is missing
   * @throws IOException when the blob store fails or a blob is corrupt
   */
  public static Frame toInline(Frame frame, BlobStore blobs) throws IOException {
    ObjectNode payload = parse(frame);
    ArrayNode images = payload == null ? null : images(payload);
    if (images == null) {
      return frame;
    }
    boolean changed = false;
    for (int i = 0; i < images.size(); i++) {
      JsonNode image = images.get(i);
      if (!(image instanceof ObjectNode o) || !o.path("blob").isTextual() || o.has("data")) {
        continue;
      }
      BlobKey key = BlobKey.parse(o.get("blob").textValue()).orElseThrow(() -> TetherException.forImage(
          ErrorCode.MALFORMED_FRAME, 0, "blob ref '" + o.get("blob").textValue() + "' is not {sha256-hex}.{ext}"));
      byte[] bytes = blobs.get(key);
      ObjectNode inline = JSON.createObjectNode();
      inline.put("media_type", mediaType(o, i).mimeType());
      inline.put("data", Base64.getEncoder().encodeToString(bytes));
      copyOthers(o, inline);
      inline.remove("size");
      images.set(i, inline);
      changed = true;
    }
    return changed ? withPayload(frame, payload) : frame;
  }

  private static final byte[] IMAGES_KEY = "\"images\"".getBytes(java.nio.charset.StandardCharsets.US_ASCII);

  /** Whether the payload may carry an {@code images} array: a byte scan, no parse. */
  public static boolean mayHaveImages(Frame frame) {
    java.nio.ByteBuffer b = frame.payload().asReadOnlyByteBuffer();
    int end = b.limit() - IMAGES_KEY.length;
    outer:
    for (int i = b.position(); i <= end; i++) {
      for (int j = 0; j < IMAGES_KEY.length; j++) {
        if (b.get(i + j) != IMAGES_KEY[j]) {
          continue outer;
        }
      }
      return true;
    }
    return false;
  }

  private static ObjectNode parse(Frame frame) {
    if (!mayHaveImages(frame)) {
      return null;
    }
    try {
      JsonNode n = JSON.readTree(frame.payload().toByteArray());
      return n instanceof ObjectNode o ? o : null;
    } catch (IOException e) {
      throw TetherException.of(ErrorCode.MALFORMED_FRAME, "the payload is not JSON: " + e.getMessage());
    }
  }

  private static ArrayNode images(ObjectNode payload) {
    return payload.get("images") instanceof ArrayNode a && !a.isEmpty() ? a : null;
  }

  private static MediaType mediaType(ObjectNode image, int index) {
    String mt = image.path("media_type").asText(null);
    return MediaType.parse(mt == null ? "" : mt).orElseThrow(() -> TetherException.forImage(
        ErrorCode.UNSUPPORTED_MEDIA_TYPE, index, "image " + index + " has media_type '" + mt
            + "'; use image/png, image/jpeg, image/gif or image/webp"));
  }

  private static void copyOthers(ObjectNode from, ObjectNode to) {
    for (Iterator<Map.Entry<String, JsonNode>> it = from.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> e = it.next();
      String k = e.getKey();
      if (!k.equals("media_type") && !k.equals("data") && !k.equals("blob") && !k.equals("size")) {
        to.set(k, e.getValue());
      }
    }
  }

  private static Frame withPayload(Frame frame, ObjectNode payload) {
    try {
      return frame.toBuilder().payload(RawJson.ofUtf8(JSON.writeValueAsBytes(payload))).build();
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }
}
