package dev.tether.server.internal;

import dev.tether.api.SessionKey;
import dev.tether.media.Attachment;
import java.io.IOException;
import dev.tether.server.SharedAttachments;
import java.nio.channels.ReadableByteChannel;
import java.nio.file.Path;
import java.util.List;

/**
 * Where the attachment routes keep session attachments: a host-only directory on one server
 * ({@link AttachmentStore}), or storage every server shares ({@link SharedAttachmentStore} over a
 * {@link dev.tether.server.SharedAttachments}). Both keep them per registration of the instance
 * (its {@code createdAt}), sanitise names and record the declared MIME type as
 * {@link dev.tether.media.AttachmentCatalog} does, and answer with the same codes. Implementations
 * are thread-safe.
 */
interface Attachments {
  /** The largest attachment accepted, in bytes. */
  long maxBytes();

  /** Saves an upload under a sanitised, unused name; see {@link dev.tether.media.AttachmentCatalog#save(String, String, byte[])}. */
  Attachment save(InstanceRegistry.Entry entry, SessionKey session, String fileName, String mimeType, byte[] bytes)
      throws IOException;

  /** Removes the attachment listed under exactly {@code name} and its bytes; {@code UNKNOWN_ATTACHMENT} when there is none. */
  Attachment delete(InstanceRegistry.Entry entry, SessionKey session, String name) throws IOException;

  /** The attachments of a session in the order they were saved; none when it has none. */
  List<Attachment> list(InstanceRegistry.Entry entry, SessionKey session) throws IOException;

  /** The attachment listed under exactly {@code name}; {@code UNKNOWN_ATTACHMENT} when there is none. */
  Attachment find(InstanceRegistry.Entry entry, SessionKey session, String name) throws IOException;

  /**
   * Opens the attachment listed under exactly {@code name} for a download: exactly {@code size}
   * bytes follow on {@code channel}, read as they are sent; the caller closes it.
   * {@code UNKNOWN_ATTACHMENT} when there is none.
   */
  Opened open(InstanceRegistry.Entry entry, SessionKey session, String name) throws IOException;

  /** The bytes the instance's attachments take (with what is kept beside them), for the disk budget. */
  long bytesStored(InstanceRegistry.Entry entry) throws IOException;

  /**
   * Removes the attachments of {@code entry}'s registration (on DELETE of the instance). Best
   * effort: a failure is logged, not thrown (they stay fenced by their generation).
   */
  void removeInstance(InstanceRegistry.Entry entry);

  /**
   * The attachments of a server: in {@code shared} when it is given; refused with 501 when the
   * server shares its blobs (and so its instances) but no attachments; else below {@code dir}
   * (null: a private temporary directory).
   *
   * @param budgetBytes the disk budget of one instance, 0 for none
   */
  static Attachments of(SharedAttachments shared, boolean sharedBlobs, Path dir, long budgetBytes) {
    if (shared != null) {
      return new SharedAttachmentStore(shared, AttachmentStore.DEFAULT_MAX_BYTES, budgetBytes);
    }
    return sharedBlobs
        ? AttachmentStore.refusing("this server shares its instances with other hosts, and its shared storage keeps no"
            + " attachments, which would be kept on one host the others cannot read; attach files on a server that"
            + " keeps them (serve --nats does)")
        : AttachmentStore.inDirectory(dir, AttachmentStore.DEFAULT_MAX_BYTES);
  }

  /** An attachment opened for a download. */
  record Opened(Attachment attachment, ReadableByteChannel channel, long size) {}
}
