package dev.tether.server.internal;

import dev.tether.api.ErrorCode;
import dev.tether.api.SessionKey;
import dev.tether.api.TetherException;
import dev.tether.media.Attachment;
import dev.tether.media.AttachmentCatalog;
import dev.tether.sessions.SessionNames;
import java.io.IOException;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The session attachments of every instance: one {@link AttachmentCatalog} per (instance,
 * session) in {@code {workspace}/.aegis/attachments/{session name}/} (see {@link SessionNames}),
 * beside the instance's blobs and under the same rules: the workspace is already confined to the
 * configured roots, names are sanitised by the catalog, files are written atomically and owner-only.
 *
 * <p><b>Untrusted workspace.</b> The guest shares the workspace, so it may have put a symbolic
 * link where a directory is expected: {@code .aegis}, {@code attachments} and the session directory
 * are each refused when they are links ({@code INVALID_ARGUMENT}), and the catalog reads files
 * without following links. A manifest the guest broke makes that session's attachments
 * unavailable ({@code INVALID_UPLOAD}), nothing else.
 *
 * <p><b>Concurrency.</b> Nothing is cached: every call opens the session's catalog from its
 * manifest (a few hundred bytes per attachment), so two servers or an evicted cache can never
 * lose an entry. Saves to one directory are serialised by one of {@value #STRIPES} striped locks
 * held across open and save; reads take no lock and see the last manifest written (it is
 * replaced atomically). Thread-safe.
 *
 * <p><b>Many hosts.</b> With {@link #refusing(String)} (a server whose instances are shared
 * through NATS), every call fails with {@code NOT_IMPLEMENTED} and that sentence: attachments
 * live in one host's workspace, which the other hosts cannot read, so they are refused rather
 * than stored where half the hosts would not find them.
 */
final class AttachmentStore {
  static final int STRIPES = 64;
  /** The largest attachment: as much as the images of one frame may hold (20 MiB). */
  static final long DEFAULT_MAX_BYTES = 20L << 20;

  private final long maxBytes;
  private final String refusal; // null: attachments are kept
  private final ReentrantLock[] locks = new ReentrantLock[STRIPES];

  private AttachmentStore(long maxBytes, String refusal) {
    if (maxBytes < 1 || maxBytes > Integer.MAX_VALUE - 8) {
      throw new IllegalArgumentException("maxBytes must be in 1.." + (Integer.MAX_VALUE - 8) + " but was " + maxBytes);
    }
    this.maxBytes = maxBytes;
    this.refusal = refusal;
    for (int i = 0; i < STRIPES; i++) {
      locks[i] = new ReentrantLock();
    }
  }

  /** Attachments of at most {@code maxBytes} each, kept in the instances' workspaces. */
  static AttachmentStore inWorkspaces(long maxBytes) {
    return new AttachmentStore(maxBytes, null);
  }

  /** A store that refuses every call with {@code NOT_IMPLEMENTED} and {@code why}. */
  static AttachmentStore refusing(String why) {
    return new AttachmentStore(DEFAULT_MAX_BYTES, why);
  }

  /** The largest attachment accepted, in bytes. */
  long maxBytes() {
    return maxBytes;
  }

  /** Saves an upload; see {@link AttachmentCatalog#save(String, String, byte[])}. */
  Attachment save(InstanceRegistry.Entry entry, SessionKey session, String fileName, String mimeType, byte[] bytes)
      throws IOException {
    Path dir = directory(entry, session);
    ReentrantLock lock = locks[Math.floorMod(dir.hashCode(), STRIPES)];
    lock.lock();
    try {
      return open(dir).save(fileName, mimeType, bytes);
    } finally {
      lock.unlock();
    }
  }

  /**
   * Removes the attachment listed under exactly {@code name} and its file; see
   * {@link AttachmentCatalog#remove}. {@code UNKNOWN_ATTACHMENT} when there is none.
   */
  Attachment delete(InstanceRegistry.Entry entry, SessionKey session, String name) throws IOException {
    Path dir = directory(entry, session);
    if (!Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
      return find(entry, session, name); // none listed: UNKNOWN_ATTACHMENT, and no directory is created
    }
    ReentrantLock lock = locks[Math.floorMod(dir.hashCode(), STRIPES)];
    lock.lock();
    try {
      return open(dir).remove(name);
    } catch (TetherException e) {
      if (e.code() == ErrorCode.UNKNOWN_ATTACHMENT) {
        return find(entry, session, name); // the same message as a download of that name
      }
      throw e;
    } finally {
      lock.unlock();
    }
  }

  /** The attachments of a session in the order they were saved; none when it has no directory. */
  List<Attachment> list(InstanceRegistry.Entry entry, SessionKey session) throws IOException {
    Path dir = directory(entry, session);
    return Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS) ? open(dir).list() : List.of();
  }

  /** The attachment listed under exactly {@code name}; {@code UNKNOWN_ATTACHMENT} when there is none. */
  Attachment find(InstanceRegistry.Entry entry, SessionKey session, String name) throws IOException {
    for (Attachment a : list(entry, session)) {
      if (a.fileName().equals(name)) {
        return a;
      }
    }
    throw TetherException.of(ErrorCode.UNKNOWN_ATTACHMENT, "session " + session + " of instance '" + entry.id()
        + "' has no attachment named '" + shorten(name) + "'; GET .../attachments lists the names");
  }

  /** The bytes of {@code attachment} (from {@link #find}). */
  byte[] read(InstanceRegistry.Entry entry, SessionKey session, Attachment attachment) throws IOException {
    return open(directory(entry, session)).bytes(attachment.fileName());
  }

  private AttachmentCatalog open(Path dir) throws IOException {
    try {
      return AttachmentCatalog.builder(dir).maxUploadBytes(maxBytes).open();
    } catch (dev.tether.media.MediaFormatException e) {
      throw TetherException.of(ErrorCode.INVALID_UPLOAD, "the attachment manifest of this session is damaged, so its"
          + " attachments cannot be used: " + e.getMessage());
    }
  }

  private Path directory(InstanceRegistry.Entry entry, SessionKey session) {
    if (refusal != null) {
      throw TetherException.of(ErrorCode.NOT_IMPLEMENTED, refusal);
    }
    Path aegis = entry.workspace().resolve(".aegis");
    Path root = aegis.resolve("attachments");
    Path dir = root.resolve(SessionNames.of(session));
    for (Path p : new Path[] {aegis, root, dir}) {
      if (Files.isSymbolicLink(p)) {
        throw TetherException.of(ErrorCode.INVALID_ARGUMENT, "the attachment directory of instance '" + entry.id()
            + "' contains a symbolic link (" + entry.workspace().relativize(p) + "); it must be a plain directory");
      }
    }
    return dir;
  }

  private static String shorten(String s) {
    return s.length() > 80 ? s.substring(0, 80) + "..." : s;
  }

  /**
   * An attachment file opened for reading, positioned at its start; its size is the open file's.
   * The caller closes the channel.
   */
  record Opened(SeekableByteChannel channel, long size) {}

  /**
   * Opens the file of {@code attachment} (from {@link #find}) for streaming it to a client: the one
   * place a download opens an attachment file. It must be a regular file (not a link, FIFO, device
   * or socket) directly in the session's directory, of at most the larger of its listed size and
   * {@link #maxBytes()} (a guest may have replaced it); {@code INVALID_ARGUMENT} otherwise.
   */
  Opened openForRead(InstanceRegistry.Entry entry, SessionKey session, Attachment attachment) throws IOException {
    Path dir = directory(entry, session).toAbsolutePath().normalize();
    Path path = dir.resolve(attachment.fileName()).normalize();
    if (!dir.equals(path.getParent())) {
      throw TetherException.of(ErrorCode.INVALID_ARGUMENT, "the attachment manifest of instance '" + entry.id()
          + "' names '" + shorten(attachment.fileName()) + "', which is not a plain file name");
    }
    // Checked before opening, since opening a FIFO blocks; the open itself refuses a link.
    if (!Files.isRegularFile(path, LinkOption.NOFOLLOW_LINKS)) {
      throw TetherException.of(ErrorCode.INVALID_ARGUMENT, "attachment '" + shorten(attachment.fileName()) + "' of instance '"
          + entry.id() + "' is not a regular file; attachments must be plain files");
    }
    SeekableByteChannel channel = Files.newByteChannel(path, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS);
    long size = channel.size();
    if (size > Math.max(attachment.size(), maxBytes)) {
      channel.close();
      throw TetherException.of(ErrorCode.INVALID_ARGUMENT, "attachment '" + shorten(attachment.fileName()) + "' of instance '"
          + entry.id() + "' is " + size + " bytes on disk, more than it was stored with");
    }
    return new Opened(channel, size);
  }
}
