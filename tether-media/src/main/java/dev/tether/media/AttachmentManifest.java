package dev.tether.media;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.tether.sessions.ConfinedDirectory;
import dev.tether.media.internal.MediaJson;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The catalog's manifest, {@code .manifest.json} in the attachment directory:
 *
 * <pre>{@code
 * {"version": 1, "attachments": [
 *   {"file_name": "screenshot.png", "mime_type": "image/png", "size": 480103,
 *    "added_at": "2026-04-15T10:00:00Z"}]}
 * }</pre>
 *
 * <p>Reading checks every entry: a file name that is not plain (traversal, separators, NUL, a
 * leading dot), a name listed twice (ignoring case), a MIME type that is not {@code type/subtype},
 * a negative size or a wrong type makes the whole manifest invalid. Unknown fields are ignored.
 * Stateless and thread-safe.
 */
final class AttachmentManifest {
  static final String FILE_NAME = ".manifest.json";
  static final int VERSION = 1;

  private AttachmentManifest() {}

  /** The manifest's bytes for {@code attachments}, in order. */
  static byte[] toJson(List<Attachment> attachments) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (JsonGenerator g = MediaJson.generator(out)) {
      g.writeStartObject();
      g.writeNumberField("version", VERSION);
      g.writeArrayFieldStart("attachments");
      for (Attachment a : attachments) {
        g.writeStartObject();
        g.writeStringField("file_name", a.fileName());
        g.writeStringField("mime_type", a.mimeType());
        g.writeNumberField("size", a.size());
        g.writeStringField("added_at", a.addedAt().toString());
        g.writeEndObject();
      }
      g.writeEndArray();
      g.writeEndObject();
    } catch (IOException e) {
      throw new UncheckedIOException("writing to memory failed", e);
    }
    return out.toByteArray();
  }

  /** The manifest in the opened attachment directory {@code dir}, read through it (see {@link ConfinedDirectory}). */
  static List<Attachment> read(ConfinedDirectory dir, long maxBytes, int maxEntries) throws IOException {
    String where = dir.where().isEmpty() ? FILE_NAME : dir.where() + "/" + FILE_NAME;
    byte[] bytes;
    try (ConfinedDirectory.OpenFile f = dir.openFile(FILE_NAME)) {
      if (f.size() > maxBytes) {
        throw new MediaFormatException("attachment manifest " + where + " is larger than " + maxBytes + " bytes");
      }
      bytes = f.readAll();
    }
    return parse(bytes, "attachment manifest " + where, maxEntries);
  }

  static List<Attachment> parse(byte[] bytes, String name, int maxEntries) throws MediaFormatException {
    MediaFileFields root = MediaFileFields.versionedRoot(bytes, name, VERSION);
    List<?> entries = root.list("attachments");
    if (entries.size() > maxEntries) {
      throw new MediaFormatException(name + " lists " + entries.size() + " attachments; the limit is " + maxEntries);
    }
    List<Attachment> out = new ArrayList<>(entries.size());
    Set<String> seen = new HashSet<>();
    for (int i = 0; i < entries.size(); i++) {
      MediaFileFields f = MediaFileFields.of(name + ", attachment " + i, entries.get(i));
      Attachment a;
      try {
        a = new Attachment(f.string("file_name"), f.string("mime_type"), f.number("size"), f.instant("added_at"));
      } catch (IllegalArgumentException e) {
        throw f.invalid(e);
      }
      if (!seen.add(a.fileName().toLowerCase(Locale.ROOT))) {
        throw new MediaFormatException(f.where() + ": file_name '" + a.fileName() + "' is listed twice");
      }
      out.add(a);
    }
    return out;
  }
}
