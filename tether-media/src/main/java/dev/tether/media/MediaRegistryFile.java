package dev.tether.media;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.tether.api.files.AtomicFiles;
import dev.tether.media.internal.MediaJson;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The registry file that another process (the agent's container) reads:
 *
 * <pre>{@code
 * {"version": 1, "refs": [{"id": "wa_3EB0A1B2", "channel": "whatsapp", "chat": "...",
 *   "message_id": "...", "kind": "image", "mime_type": "image/jpeg", "file_name": "sunset.jpg",
 *   "size": 2400000, "caption": "...", "download_info": {"k": "v"},
 *   "created_at": "2026-01-01T00:00:00Z", "ttl_ms": 1800000, "expires_at": "..."}]}
 * }</pre>
 *
 * <p>{@code file_name} and {@code size} are left out when unknown; {@code expires_at} is written
 * for readers' convenience and ignored on reading; unknown fields are ignored. The TTL is kept to
 * the millisecond. Stateless and thread-safe.
 */
final class MediaRegistryFile {
  static final int VERSION = 1;

  private MediaRegistryFile() {}

  static void write(Path path, Set<PosixFilePermission> permissions, List<MediaReference> refs) throws IOException {
    byte[] json = toJson(refs);
    AtomicFiles.write(path, permissions, out -> out.write(json));
  }

  /** The file's bytes for {@code refs}, in order. */
  static byte[] toJson(List<MediaReference> refs) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (JsonGenerator g = MediaJson.generator(out)) {
      g.writeStartObject();
      g.writeNumberField("version", VERSION);
      g.writeArrayFieldStart("refs");
      for (MediaReference ref : refs) {
        writeRef(g, ref);
      }
      g.writeEndArray();
      g.writeEndObject();
    } catch (IOException e) {
      throw new UncheckedIOException("writing to memory failed", e);
    }
    return out.toByteArray();
  }

  private static void writeRef(JsonGenerator g, MediaReference ref) throws IOException {
    g.writeStartObject();
    g.writeStringField("id", ref.id());
    g.writeStringField("channel", ref.channel());
    g.writeStringField("chat", ref.chat());
    g.writeStringField("message_id", ref.messageId());
    g.writeStringField("kind", ref.kind().wireName());
    g.writeStringField("mime_type", ref.mimeType());
    if (ref.fileName() != null) {
      g.writeStringField("file_name", ref.fileName());
    }
    if (ref.size() >= 0) {
      g.writeNumberField("size", ref.size());
    }
    g.writeStringField("caption", ref.caption());
    g.writeObjectFieldStart("download_info");
    for (Map.Entry<String, String> e : new TreeMap<>(ref.downloadInfo()).entrySet()) {
      g.writeStringField(e.getKey(), e.getValue());
    }
    g.writeEndObject();
    g.writeStringField("created_at", ref.createdAt().toString());
    g.writeNumberField("ttl_ms", ref.ttl().toMillis());
    g.writeStringField("expires_at", ref.expiresAt().toString());
    g.writeEndObject();
  }

  /**
   * Every reference in the file at {@code path}, in file order.
   *
   * @throws MediaFormatException when the file is larger than {@code maxBytes}, holds more than
   *     {@code maxEntries} references, or is not a valid registry file
   */
  static List<MediaReference> read(Path path, long maxBytes, int maxEntries) throws IOException {
    byte[] bytes = MediaFileFields.readFile(path, "media registry file", maxBytes);
    return parse(bytes, "media registry file " + path, maxEntries);
  }

  static List<MediaReference> parse(byte[] bytes, String name, int maxEntries) throws MediaFormatException {
    MediaFileFields root = MediaFileFields.versionedRoot(bytes, name, VERSION);
    List<?> entries = root.list("refs");
    if (entries.size() > maxEntries) {
      throw new MediaFormatException(name + " holds " + entries.size() + " references; the limit is " + maxEntries);
    }
    List<MediaReference> refs = new ArrayList<>(entries.size());
    for (int i = 0; i < entries.size(); i++) {
      refs.add(readRef(MediaFileFields.of(name + ", reference " + i, entries.get(i))));
    }
    return refs;
  }

  private static MediaReference readRef(MediaFileFields f) throws MediaFormatException {
    String kindName = f.string("kind");
    MediaKind kind = MediaKind.parse(kindName).orElseThrow(() -> new MediaFormatException(f.where()
        + ": kind must be one of image, video, audio, document, sticker, voice"));
    long ttlMs = f.number("ttl_ms");
    try {
      return new MediaReference(f.string("id"), f.string("channel"), f.optionalString("chat", ""),
          f.optionalString("message_id", ""), kind, f.string("mime_type"), f.optionalString("file_name", null),
          f.optionalNumber("size", -1), f.optionalString("caption", ""), f.stringMap("download_info"),
          f.instant("created_at"), Duration.ofMillis(ttlMs));
    } catch (IllegalArgumentException | NullPointerException e) {
      throw f.invalid(new IllegalArgumentException(e.getMessage(), e));
    }
  }
}
