package dev.tether.server.internal;

import dev.tether.api.ErrorCode;
import dev.tether.api.SessionKey;
import dev.tether.api.TetherException;
import dev.tether.media.Attachment;
import dev.tether.media.AttachmentFields;
import dev.tether.server.SharedAttachments;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The attachments of a server that shares its instances with other servers: kept in a
 * {@link SharedAttachments} (with {@code serve --nats}, JetStream), so every server lists, reads
 * and deletes what any of them stored. Names are sanitised and MIME types checked here, with the
 * rules of {@link dev.tether.media.AttachmentCatalog} ({@link AttachmentFields}), so the answers
 * are those of a single server's {@link AttachmentStore}.
 *
 * <p><b>Budget.</b> The instance's disk budget ({@code instanceDiskBytes}) bounds the bytes of its
 * attachments in the shared storage (one total for all servers, reserved atomically there by
 * {@link SharedAttachments#save}) plus the blobs in this server's copy of its workspace: an upload
 * is admitted when both fit, whichever server takes it. The {@link DiskBudget} in front makes the
 * same check first, under its per-instance lock, for the message a single server gives.
 *
 * <p>No state of its own; thread-safe.
 */
final class SharedAttachmentStore implements Attachments {
  private static final System.Logger LOG = System.getLogger(SharedAttachmentStore.class.getName());

  private final SharedAttachments shared;
  private final long maxBytes;
  private final long budgetBytes;

  /**
   * @param maxBytes the largest attachment
   * @param budgetBytes the disk budget of one instance, 0 for none
   */
  SharedAttachmentStore(SharedAttachments shared, long maxBytes, long budgetBytes) {
    this.shared = Objects.requireNonNull(shared, "shared");
    if (maxBytes < 1) {
      throw new IllegalArgumentException("maxBytes must be >= 1 but was " + maxBytes);
    }
    if (budgetBytes < 0) {
      throw new IllegalArgumentException("budgetBytes must be >= 0 (0: no budget) but was " + budgetBytes);
    }
    this.maxBytes = maxBytes;
    this.budgetBytes = budgetBytes;
  }

  @Override
  public long maxBytes() {
    return maxBytes;
  }

  @Override
  public Attachment save(InstanceRegistry.Entry entry, SessionKey session, String fileName, String mimeType, byte[] bytes)
      throws IOException {
    String name = AttachmentFields.name(fileName);
    String type = AttachmentFields.mimeType(mimeType);
    if (bytes.length > maxBytes) {
      throw TetherException.of(ErrorCode.UPLOAD_TOO_LARGE, "the upload is " + bytes.length + " bytes; the limit is "
          + maxBytes + " bytes");
    }
    long room = budgetBytes == 0 ? Long.MAX_VALUE : budgetBytes - InstanceFilesUsage.blobBytes(entry);
    return attachment(entry, shared.save(place(entry, session), n -> AttachmentFields.candidate(name, n), type, bytes, room));
  }

  @Override
  public Attachment delete(InstanceRegistry.Entry entry, SessionKey session, String name) throws IOException {
    return attachment(entry, shared.remove(place(entry, session), name).orElseThrow(() -> unknown(entry, session, name)));
  }

  @Override
  public List<Attachment> list(InstanceRegistry.Entry entry, SessionKey session) throws IOException {
    List<Attachment> all = new ArrayList<>();
    for (SharedAttachments.Stored s : shared.list(place(entry, session))) {
      all.add(attachment(entry, s));
    }
    return all;
  }

  @Override
  public Attachment find(InstanceRegistry.Entry entry, SessionKey session, String name) throws IOException {
    for (Attachment a : list(entry, session)) {
      if (a.fileName().equals(name)) {
        return a;
      }
    }
    throw unknown(entry, session, name);
  }

  @Override
  public Opened open(InstanceRegistry.Entry entry, SessionKey session, String name) throws IOException {
    SharedAttachments.Download d = shared.open(place(entry, session), name).orElseThrow(() -> unknown(entry, session, name));
    Attachment a;
    try {
      a = attachment(entry, d.attachment());
    } catch (RuntimeException e) {
      d.bytes().close();
      throw e;
    }
    return new Opened(a, d.bytes(), a.size());
  }

  @Override
  public long bytesStored(InstanceRegistry.Entry entry) throws IOException {
    return shared.bytes(entry.id(), entry.createdAt());
  }

  @Override
  public void removeInstance(InstanceRegistry.Entry entry) {
    try {
      shared.removeInstance(entry.id(), entry.createdAt());
    } catch (IOException | RuntimeException e) {
      LOG.log(System.Logger.Level.WARNING, "removing the shared attachments of deleted instance {0} failed (they stay"
          + " fenced by generation): {1}", entry.id(), e.toString());
    }
  }

  private static SharedAttachments.Place place(InstanceRegistry.Entry entry, SessionKey session) {
    return new SharedAttachments.Place(entry.id(), entry.createdAt(), session);
  }

  /** What the shared storage listed, checked as a manifest entry is: a damaged one is {@code INVALID_UPLOAD}. */
  private static Attachment attachment(InstanceRegistry.Entry entry, SharedAttachments.Stored s) {
    try {
      return new Attachment(s.name(), s.mimeType(), s.size(), s.addedAt());
    } catch (IllegalArgumentException e) {
      throw TetherException.of(ErrorCode.INVALID_UPLOAD, "the shared attachment manifest of instance '" + entry.id()
          + "' is damaged, so its attachments cannot be used: " + e.getMessage());
    }
  }

  private static TetherException unknown(InstanceRegistry.Entry entry, SessionKey session, String name) {
    return TetherException.of(ErrorCode.UNKNOWN_ATTACHMENT, "session " + session + " of instance '" + entry.id()
        + "' has no attachment named '" + (name.length() > 80 ? name.substring(0, 80) + "..." : name)
        + "'; GET .../attachments lists the names");
  }
}
