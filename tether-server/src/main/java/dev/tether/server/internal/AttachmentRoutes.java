package dev.tether.server.internal;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tether.api.ErrorCode;
import dev.tether.api.SessionKey;
import dev.tether.api.TetherException;
import dev.tether.media.Attachment;
import java.io.IOException;
import java.util.Arrays;
import java.util.List;

/**
 * The attachment routes of an instance, in front of {@link Attachments} (a host-only directory, or storage
 * servers share):
 *
 * <ul>
 *   <li>{@code POST /v1/instances/{id}/attachments?session_id=S&channel=C&name=N}: the body is the
 *       file's raw bytes and {@code Content-Type} the client's MIME type, stored verbatim (none:
 *       {@code application/octet-stream}); never guessed from the name or the bytes. Answers 201
 *       {@code {"name","mime_type","size","added_at"}}; {@code name} is the sanitised, unused name
 *       it was stored under.
 *   <li>{@code GET /v1/instances/{id}/attachments?session_id=S&channel=C}:
 *       {@code {"attachments":[{"name","mime_type","size","added_at"}, ...]}} in the order stored.
 *   <li>{@code GET /v1/instances/{id}/attachments/{name}?session_id=S&channel=C}: the bytes, sent
 *       as {@code application/octet-stream} with the declared type in {@value #MIME_HEADER} (a
 *       declared {@code text/html} is never served as HTML), {@code Content-Disposition:
 *       attachment}; streamed from the open file (or the shared storage, a window at a time) under
 *       the egress budget ({@link FileAnswer}).
 *   <li>{@code DELETE /v1/instances/{id}/attachments/{name}?session_id=S&channel=C}: removes it
 *       (manifest first, then the file, which frees its bytes of the instance's disk budget);
 *       answers 200 {@code {"name","deleted":true}}.
 * </ul>
 *
 * {@code session_id} is required; {@code channel} defaults to {@code host}. Each is 1 to
 * {@value #MAX_PARAM_CHARS} characters, as is {@code name}. Errors are the API's JSON body:
 * {@code INVALID_ARGUMENT}, {@code UPLOAD_TOO_LARGE} (413), {@code INVALID_UPLOAD},
 * {@code UNKNOWN_ATTACHMENT} (404), {@code INSUFFICIENT_STORAGE} (507, past the instance's disk
 * budget), {@code NOT_IMPLEMENTED} (501, see {@link AttachmentStore}).
 * Stateless and thread-safe.
 */
final class AttachmentRoutes {
  static final String MIME_HEADER = "X-Tether-Mime-Type";
  static final int MAX_PARAM_CHARS = 1024;

  private AttachmentRoutes() {}

  /** The session the query names. */
  static SessionKey session(String channel, String sessionId) {
    String id = param("session_id", sessionId, null);
    return new SessionKey(param("channel", channel, SessionKey.HOST_CHANNEL), id);
  }

  /** The file name of an upload, from the query. */
  static String uploadName(String name) {
    return param("name", name, null);
  }

  static Reply upload(Attachments store, InstanceRegistry.Entry entry, SessionKey session, String name,
      String contentType, byte[] buffer, int length) throws IOException {
    byte[] bytes = buffer.length == length ? buffer : Arrays.copyOf(buffer, length);
    Attachment saved = store.save(entry, session, name, contentType, bytes);
    return Reply.json(201, json(saved));
  }

  /**
   * At most what an upload named {@code name} of {@code mimeType} adds to its session's manifest
   * beside its bytes, for the disk budget: every character escaped as six bytes, a suffix
   * for a taken name, the fields' names, size and time.
   */
  static long manifestEntryBytes(String name, String mimeType) {
    return 6L * (name.length() + 16) + 6L * (mimeType == null ? 24 : mimeType.length()) + 256;
  }

  static Reply list(Attachments store, InstanceRegistry.Entry entry, SessionKey session) throws IOException {
    List<Attachment> all = store.list(entry, session);
    ObjectNode n = Json.MAPPER.createObjectNode();
    ArrayNode items = n.putArray("attachments");
    all.forEach(a -> items.add(json(a)));
    return Reply.json(200, n);
  }

  /** Removes one attachment: 200 {@code {"name","deleted":true}}, as the API's other DELETEs answer. */
  static Reply delete(Attachments store, InstanceRegistry.Entry entry, SessionKey session, String name) throws IOException {
    Attachment gone = store.delete(entry, session, name);
    ObjectNode n = Json.MAPPER.createObjectNode();
    n.put("name", gone.fileName());
    n.put("deleted", true);
    return Reply.json(200, n);
  }

  /** One attachment opened for a download, with its declared MIME type; the caller closes the channel. */
  static Attachments.Opened download(Attachments store, InstanceRegistry.Entry entry, SessionKey session, String name)
      throws IOException {
    return store.open(entry, session, name);
  }

  private static ObjectNode json(Attachment a) {
    ObjectNode n = Json.MAPPER.createObjectNode();
    n.put("name", a.fileName());
    n.put("mime_type", a.mimeType());
    n.put("size", a.size());
    n.put("added_at", a.addedAt().toString());
    return n;
  }

  private static String param(String name, String value, String fallback) {
    if (value == null) {
      if (fallback != null) {
        return fallback;
      }
      throw TetherException.of(ErrorCode.INVALID_ARGUMENT, "the query parameter " + name + " is required");
    }
    if (value.isEmpty() || value.length() > MAX_PARAM_CHARS) {
      throw TetherException.of(ErrorCode.INVALID_ARGUMENT, name + " must be 1 to " + MAX_PARAM_CHARS
          + " characters but was " + value.length());
    }
    return value;
  }
}
