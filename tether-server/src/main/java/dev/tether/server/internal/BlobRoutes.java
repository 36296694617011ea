package dev.tether.server.internal;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tether.api.ErrorCode;
import dev.tether.api.ImageRefs;
import dev.tether.api.MediaType;
import dev.tether.api.TetherException;
import dev.tether.api.blobs.BlobKey;
import dev.tether.sessions.ConfinedDirectory;
import java.io.IOException;
import java.nio.file.FileSystemException;
import java.util.Locale;

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
    String bare = contentType.split(";", 2)[0].strip().toLowerCase(Locale.ROOT);
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

  /**
   * A blob download's answer and the egress bytes reserved for it, which the caller gives back
   * when the answer is written ({@link EgressWrite#holding}).
   */
  record Download(Reply reply, long reserved) {}

  /**
   * The verified bytes of blob {@code key}, reserved whole from {@code egress} before they are
   * read: a blob is at most one image (10 MiB by default), and its SHA-256 must be checked before
   * any byte is served, so it is read once into a reserved array rather than streamed (streaming
   * would need a second pass over a file the guest can change in between). The size comes from the
   * open file. Past the budget: 503, nothing read.
   */
  static Download download(Blobs blobs, InstanceRegistry.Entry instance, String key, ByteBudget egress) throws IOException {
    MediaType type = key.contains(".") ? MediaType.forExtension(key.substring(key.lastIndexOf('.') + 1)).orElse(null) : null;
    if (type == null || !ImageRefs.isKeyFor(key, type)) {
      return new Download(Reply.json(404, ErrorBody.of(ErrorCode.NOT_FOUND, "no blob named '" + shorten(key)
          + "': a blob key is 64 lowercase hex digits of the SHA-256, then .png, .jpg, .gif or .webp")), 0);
    }
    ImageRefs.Ref ref = new ImageRefs.Ref(0, type, key, -1);
    try {
      byte[] bytes;
      long reserved;
      ConfinedDirectory.OpenFile file = openLocal(blobs, instance, ref);
      if (file != null) {
        try (file) {
          reserved = cost(file.size());
          if (reserved > 0 && !egress.tryReserve(reserved)) {
            return new Download(busy(), 0);
          }
          try {
            bytes = readAll(file, key);
            blobs.verify(ref, bytes);
          } catch (IOException | RuntimeException | Error e) {
            egress.release(reserved);
            throw e;
          }
        }
      } else {
        bytes = blobs.read(instance, ref); // from the shared blobs: already in memory, reserved now
        reserved = cost(bytes.length);
        if (reserved > 0 && !egress.tryReserve(reserved)) {
          return new Download(busy(), 0);
        }
      }
      return new Download(new Reply(200, bytes, type.mimeType()), reserved);
    } catch (TetherException e) {
      if (e.code() == ErrorCode.BLOB_NOT_FOUND) {
        return new Download(Reply.json(404, ErrorBody.of(ErrorCode.NOT_FOUND, "instance '" + instance.id() + "' has no blob " + key)), 0);
      }
      throw e;
    }
  }

  /** The blob in the workspace, opened; null when it is not there but the shared blobs may have it. */
  private static ConfinedDirectory.OpenFile openLocal(Blobs blobs, InstanceRegistry.Entry instance, ImageRefs.Ref ref)
      throws IOException {
    try {
      return blobs.openLocal(instance, ref);
    } catch (TetherException e) {
      if (e.code() != ErrorCode.BLOB_NOT_FOUND || !blobs.shared()) {
        throw e;
      }
      return null;
    }
  }

  /** Small answers reserve nothing, as {@link EgressWrite}: the connection cap bounds them. */
  private static long cost(long bytes) {
    return bytes <= EgressWrite.SMALL_ANSWER_BYTES ? 0 : bytes;
  }

  private static Reply busy() {
    return Reply.json(503, ErrorBody.of(ErrorCode.UNAVAILABLE, "the server is writing too many large answers at once; retry shortly"));
  }

  private static byte[] readAll(ConfinedDirectory.OpenFile file, String key) throws IOException {
    try {
      return file.readAll();
    } catch (FileSystemException e) {
      throw TetherException.of(ErrorCode.BLOB_CORRUPTED, "blob " + key + " changed size while being read");
    }
  }

  private static String shorten(String s) {
    return s.length() > 80 ? s.substring(0, 80) + "..." : s;
  }
}
