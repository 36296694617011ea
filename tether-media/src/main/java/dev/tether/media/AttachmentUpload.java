package dev.tether.media;

import java.util.Objects;

/**
 * A file a client dropped into a conversation, as it arrives: {@code {filename, contentBase64,
 * mimeType}}. Nothing is checked here; {@link AttachmentCatalog#save} checks and sanitises.
 *
 * @param filename the client's file name, possibly hostile ({@code ../../etc/passwd})
 * @param contentBase64 the content in standard base64; a {@code data:...;base64,} prefix is tolerated
 * @param mimeType the client's MIME type (the browser's {@code file.type}), kept verbatim; null or
 *     blank means {@code application/octet-stream}
 */
public record AttachmentUpload(String filename, String contentBase64, String mimeType) {
  public AttachmentUpload {
    Objects.requireNonNull(filename, "filename");
    Objects.requireNonNull(contentBase64, "contentBase64");
  }

  @Override
  public String toString() {
    return "AttachmentUpload[" + filename + ", " + contentBase64.length() + " base64 chars, " + mimeType + "]";
  }
}
