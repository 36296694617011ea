package dev.tether.client;

import dev.tether.api.ErrorCode;
import dev.tether.api.SessionKey;
import dev.tether.api.TetherException;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Session attachments on a host: files (any type) a user dropped into a conversation, stored per
 * instance and session with the MIME type the client declared ({@code POST|GET
 * /v1/instances/{id}/attachments}, {@code GET|DELETE .../attachments/{name}} on a tether server).
 *
 * <p>The host sanitises names (no path survives; a name already taken gets {@code -1},
 * {@code -2}... before its extension), caps sizes and what an instance keeps ({@code INSUFFICIENT_STORAGE} past it), and keeps the files in the instance's
 * workspace. Failures complete the future exceptionally as for {@link TetherClient}: a
 * {@link dev.tether.api.TetherException} with the host's code ({@code UPLOAD_TOO_LARGE},
 * {@code INVALID_UPLOAD}, {@code UNKNOWN_ATTACHMENT}, {@code INSTANCE_NOT_FOUND},
 * {@code NOT_IMPLEMENTED} where the host keeps no attachments...) or an
 * {@link java.io.IOException} when the host cannot be reached. Implementations are thread-safe.
 */
public interface AttachmentClient {
  /**
   * Stores {@code bytes} as an attachment of {@code session} in {@code instance}.
   *
   * @param fileName the client's file name; the host sanitises it
   * @param mimeType the client's MIME type, kept verbatim; null for none ({@code application/octet-stream})
   * @return the attachment as stored (its name may differ from {@code fileName})
   */
  CompletableFuture<AttachmentInfo> putAttachment(String instance, SessionKey session, String fileName, String mimeType,
      byte[] bytes);

  /** The attachments of {@code session}, in the order they were stored. */
  CompletableFuture<List<AttachmentInfo>> attachments(String instance, SessionKey session);

  /** The bytes of the attachment stored as {@code name}; {@code UNKNOWN_ATTACHMENT} when there is none. */
  CompletableFuture<byte[]> attachment(String instance, SessionKey session, String name);

  /**
   * Removes the attachment stored as {@code name} (its bytes no longer count against the
   * instance's disk budget on the host); {@code UNKNOWN_ATTACHMENT} when there is none. The default
   * fails with {@code NOT_IMPLEMENTED}, for implementations written before this method.
   */
  default CompletableFuture<Void> deleteAttachment(String instance, SessionKey session, String name) {
    return CompletableFuture.failedFuture(TetherException.of(ErrorCode.NOT_IMPLEMENTED,
        getClass().getSimpleName() + " cannot delete attachments"));
  }
}
