package dev.tether.media;

import dev.tether.media.internal.MediaFiles;
import dev.tether.media.internal.MediaText;
import java.time.Instant;
import java.util.Objects;

/**
 * One saved attachment as the catalog's manifest records it. Immutable.
 *
 * @param fileName the sanitised name it is stored and looked up under
 * @param mimeType the MIME type the client declared, verbatim
 * @param size its size in bytes
 * @param addedAt when it was saved
 */
public record Attachment(String fileName, String mimeType, long size, Instant addedAt) {
  public Attachment {
    Objects.requireNonNull(fileName, "fileName");
    if (!MediaFiles.sanitise(fileName).equals(fileName)) {
      throw new IllegalArgumentException("fileName must be a plain sanitised file name but was '"
          + MediaText.excerpt(fileName) + "'");
    }
    Objects.requireNonNull(mimeType, "mimeType");
    if (!MediaText.isMimeType(mimeType)) {
      throw new IllegalArgumentException("mimeType must look like type/subtype but was '"
          + MediaText.excerpt(mimeType) + "'");
    }
    if (size < 0) {
      throw new IllegalArgumentException("size must be >= 0 but was " + size);
    }
    Objects.requireNonNull(addedAt, "addedAt");
  }

  /** The {@code list_attachments} line: {@code - screenshot.png (480103 bytes, image/png)}. */
  public String listLine() {
    return "- " + fileName + " (" + size + " bytes, " + mimeType + ")";
  }
}
