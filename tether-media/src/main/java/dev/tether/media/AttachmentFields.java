package dev.tether.media;

import dev.tether.api.ErrorCode;
import dev.tether.api.TetherException;
import dev.tether.media.internal.MediaFiles;
import dev.tether.media.internal.MediaText;
import java.util.Objects;

/**
 * The rules {@link AttachmentCatalog} applies to an upload's name and MIME type, for stores of
 * attachments that are not a catalog on disk (a server whose attachments live in shared storage):
 * the same sanitised names, the same suffixes for a name already taken, the same MIME check.
 * Stateless and thread-safe.
 */
public final class AttachmentFields {
  private AttachmentFields() {}

  /**
   * The name an upload named {@code raw} (possibly hostile: a path, NUL, {@code %2e%2e}, 10,000
   * characters) is stored under when that name is free: one plain file name of at most 200 UTF-8
   * bytes, as {@link AttachmentCatalog} stores it.
   */
  public static String name(String raw) {
    return MediaFiles.sanitise(Objects.requireNonNull(raw, "raw"));
  }

  /**
   * The {@code n}-th name tried for {@code name} (from {@link #name}) while names are taken:
   * {@code name} itself for 0, then {@code shot-1.png}, {@code shot-2.png}...
   */
  public static String candidate(String name, int n) {
    if (n < 0) {
      throw new IllegalArgumentException("n must be >= 0 but was " + n);
    }
    return n == 0 ? name : MediaFiles.sanitise(MediaFiles.withSuffix(name, n));
  }

  /**
   * The MIME type recorded for a declared one: verbatim, {@code application/octet-stream} when
   * null or blank.
   *
   * @throws TetherException {@link ErrorCode#INVALID_UPLOAD} when it is not {@code type/subtype}
   */
  public static String mimeType(String declared) {
    return AttachmentUploads.mimeType(new AttachmentUpload("file", "", declared));
  }
}
