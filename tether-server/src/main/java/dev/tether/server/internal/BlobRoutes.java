package dev.tether.server.internal;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tether.api.ErrorCode;
import dev.tether.api.ImageRefs;
import dev.tether.api.MediaType;
import dev.tether.api.TetherException;
import dev.tether.sessions.BlobKey;
import java.io.IOException;

/**
 * {@code POST /v1/instances/{id}/blob} and {@code GET /v1/instances/{id}/blob/{key}}: images in an
 * instance's content-addressed blob store, {@code {workspace}/.aegis/blobs/{sha256}.{ext}}, the
 * layout the reference system's clients read and write directly.
 *
 * <p>An upload is the raw bytes with {@code Content-Type} naming the media type (none: image/png,
 * as the reference); it is checked like any image (size, signature) and answered
 * {@code {"blob","media_type","size"}}. A download parses the key before any path is built and
 * reads through {@link BlobFiles}, which refuses links and verifies the hash. Stateless.
 */
final class BlobRoutes {
  private BlobRoutes() {}

  /** The media type of an upload from its {@code Content-Type} (parameters ignored). */
  static MediaType uploadType(String contentType) {
    if (contentType == null || contentType.isBlank()) {
      return MediaType.PNG;
    }
    String bare = contentType.split(";", 2)[0].strip().toLowerCase(java.util.Locale.ROOT);
    return MediaType.parse(bare).orElseThrow(() -> TetherException.of(ErrorCode.UNSUPPORTED_MEDIA_TYPE,
        "Content-Type '" + bare + "' is not an image type this server stores; send image/png, image/jpeg, image/gif or image/webp"));
  }

  static Reply upload(Blobs blobs, InstanceRegistry.Entry instance, MediaType type, byte[] buffer, int length) throws IOException {
    BlobKey key = blobs.put(instance, type, buffer, length);
    ObjectNode n = Json.MAPPER.createObjectNode();
    n.put("blob", key.fileName());
    n.put("media_type", type.mimeType());
    n.put("size", length);
    return Reply.json(200, n);
  }

  static Reply download(Blobs blobs, InstanceRegistry.Entry instance, String key) throws IOException {
    MediaType type = key.contains(".") ? MediaType.forExtension(key.substring(key.lastIndexOf('.') + 1)).orElse(null) : null;
    if (type == null || !ImageRefs.isKeyFor(key, type)) {
      return Reply.json(404, ErrorBody.of(ErrorCode.NOT_FOUND, "no blob named '" + shorten(key)
          + "': a blob key is 64 lowercase hex digits of the SHA-256, then .png, .jpg, .gif or .webp"));
    }
    byte[] bytes;
    try {
      bytes = blobs.read(instance, new ImageRefs.Ref(0, type, key, -1));
    } catch (TetherException e) {
      if (e.code() == ErrorCode.BLOB_NOT_FOUND) {
        return Reply.json(404, ErrorBody.of(ErrorCode.NOT_FOUND, "instance '" + instance.id() + "' has no blob " + key));
      }
      throw e;
    }
    return new Reply(200, bytes, type.mimeType());
  }

  private static String shorten(String s) {
    return s.length() > 80 ? s.substring(0, 80) + "..." : s;
  }
}
