package dev.tether.server.internal;

import dev.tether.api.ErrorCode;
import dev.tether.api.SessionKey;
import dev.tether.api.TetherException;
import dev.tether.media.Attachment;
import dev.tether.media.AttachmentCatalog;
import dev.tether.media.MediaFormatException;
import dev.tether.sessions.ConfinedDirectory;
import dev.tether.sessions.SessionNames;
import dev.tether.sessions.UnsafeFileException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The session attachments of every instance: one {@link AttachmentCatalog} per (instance,
 * session), kept OUT of the guest's reach in a host-only directory:
 * {@code {attachments root}/{instance id}/{generation}/{session name}/} (see {@link SessionNames}).
 * The guest never reads attachments from disk (it gets them through the host's routes and MCP
 * tools), so nothing of them lives in the workspace it shares and could race.
 *
 * <p><b>Generations.</b> The generation is the instance's registration (its {@code created_at},
 * unique per registration), so an instance deleted and registered again under the same id starts
 * with no attachments, even when removing the old directory failed. {@link #removeInstance} (on
 * DELETE of the instance) removes the generation's directory; a save prunes older generations of
 * the same id left behind by a crash.
 *
 * <p><b>Files.</b> The root is trusted (the host configures it; created 0700 when missing, a fresh
 * private temporary directory when none is given). Below it every directory and file is opened
 * through one {@link ConfinedDirectory} (relative to an opened directory, never following a link,
 * regular files only), so even a root shared by mistake cannot be raced. A planted link, FIFO or
 * directory where a file belongs answers {@code INVALID_ARGUMENT} (400); a manifest that is damaged
 * makes that session's attachments unavailable ({@code INVALID_UPLOAD}), nothing else.
 *
 * <p><b>Concurrency.</b> Nothing is cached: every call opens the session's catalog from its
 * manifest (a few hundred bytes per attachment), so an evicted cache can never lose an entry.
 * Saves to one session are serialised by one of {@value #STRIPES} striped locks held across open
 * and save; reads take no lock and see the last manifest written (it is replaced atomically).
 * Thread-safe.
 *
 * <p><b>Many hosts.</b> Servers that share their instances keep attachments in the shared
 * storage ({@link SharedAttachmentStore}). With {@link #refusing(String)} (a server given shared
 * blobs but no shared attachments), every call fails with {@code NOT_IMPLEMENTED} and that
 * sentence: a file kept on one host would be missing on the others.
 */
final class AttachmentStore implements Attachments {
  private static final System.Logger LOG = System.getLogger(AttachmentStore.class.getName());
  static final int STRIPES = 64;
  /** The largest attachment: as much as the images of one frame may hold (20 MiB). */
  static final long DEFAULT_MAX_BYTES = 20L << 20;

  private final long maxBytes;
  private final String refusal; // null: attachments are kept
  private final Path configuredRoot; // null: a private temporary directory, made on first use
  private volatile Path root;
  private final ReentrantLock rootLock = new ReentrantLock();
  private final ReentrantLock[] locks = new ReentrantLock[STRIPES];

  private AttachmentStore(long maxBytes, Path root, String refusal) {
    if (maxBytes < 1 || maxBytes > Integer.MAX_VALUE - 8) {
      throw new IllegalArgumentException("maxBytes must be in 1.." + (Integer.MAX_VALUE - 8) + " but was " + maxBytes);
    }
    this.maxBytes = maxBytes;
    this.configuredRoot = root == null ? null : root.toAbsolutePath().normalize();
    this.refusal = refusal;
    for (int i = 0; i < STRIPES; i++) {
      locks[i] = new ReentrantLock();
    }
  }

  /**
   * Attachments of at most {@code maxBytes} each, kept below {@code root} (host-only; created 0700
   * when missing), or, when {@code root} is null, in a private temporary directory made on first use.
   */
  static AttachmentStore inDirectory(Path root, long maxBytes) {
    return new AttachmentStore(maxBytes, root, null);
  }

  /** A store that refuses every call with {@code NOT_IMPLEMENTED} and {@code why}. */
  static AttachmentStore refusing(String why) {
    return new AttachmentStore(DEFAULT_MAX_BYTES, null, why);
  }

  @Override
  public long maxBytes() {
    return maxBytes;
  }

  /** Saves an upload; see {@link AttachmentCatalog#save(String, String, byte[])}. */
  @Override
  public Attachment save(InstanceRegistry.Entry entry, SessionKey session, String fileName, String mimeType, byte[] bytes)
      throws IOException {
    refuseIfShared();
    String generation = generation(entry);
    String sessionName = SessionNames.of(session);
    ReentrantLock lock = lockFor(entry, session);
    lock.lock();
    try (ConfinedDirectory root = ConfinedDirectory.openOrCreate(root());
        ConfinedDirectory instance = root.createDirectory(entry.id())) {
      pruneOtherGenerations(instance, generation);
      try (ConfinedDirectory gen = instance.createDirectory(generation);
          ConfinedDirectory dir = gen.createDirectory(sessionName)) {
        return open(dir).save(fileName, mimeType, bytes);
      }
    } catch (UnsafeFileException e) {
      throw planted(entry, e);
    } finally {
      lock.unlock();
    }
  }

  /**
   * Removes the attachment listed under exactly {@code name} and its file; see
   * {@link AttachmentCatalog#remove}. {@code UNKNOWN_ATTACHMENT} when there is none.
   */
  @Override
  public Attachment delete(InstanceRegistry.Entry entry, SessionKey session, String name) throws IOException {
    refuseIfShared();
    ReentrantLock lock = lockFor(entry, session);
    lock.lock();
    try (ConfinedDirectory dir = sessionDirectory(entry, session)) {
      return open(dir).remove(name);
    } catch (NoSuchFileException e) {
      return find(entry, session, name); // no directory: none listed, UNKNOWN_ATTACHMENT, and nothing is created
    } catch (TetherException e) {
      if (e.code() == ErrorCode.UNKNOWN_ATTACHMENT) {
        return find(entry, session, name); // the same message as a download of that name
      }
      throw e;
    } catch (UnsafeFileException e) {
      throw planted(entry, e);
    } finally {
      lock.unlock();
    }
  }

  /** The attachments of a session in the order they were saved; none when it has no directory. */
  @Override
  public List<Attachment> list(InstanceRegistry.Entry entry, SessionKey session) throws IOException {
    refuseIfShared();
    try (ConfinedDirectory dir = sessionDirectory(entry, session)) {
      return open(dir).list();
    } catch (NoSuchFileException e) {
      return List.of();
    } catch (UnsafeFileException e) {
      throw planted(entry, e);
    }
  }

  /** The attachment listed under exactly {@code name}; {@code UNKNOWN_ATTACHMENT} when there is none. */
  @Override
  public Attachment find(InstanceRegistry.Entry entry, SessionKey session, String name) throws IOException {
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
    refuseIfShared();
    try (ConfinedDirectory dir = sessionDirectory(entry, session)) {
      return open(dir).bytes(attachment.fileName());
    } catch (NoSuchFileException e) {
      throw gone(session, attachment);
    } catch (UnsafeFileException e) {
      throw planted(entry, e);
    }
  }

  /**
   * Opens the file of {@code attachment} (from {@link #find}) for streaming it to a client: the one
   * place a download opens an attachment file, through the same {@link ConfinedDirectory} chain as
   * every other access. It must be a regular file directly in the session's directory, of at most
   * the larger of its listed size and {@link #maxBytes()}; {@code INVALID_ARGUMENT} otherwise. The
   * caller closes it.
   */
  ConfinedDirectory.OpenFile openForRead(InstanceRegistry.Entry entry, SessionKey session, Attachment attachment)
      throws IOException {
    refuseIfShared();
    if (!ConfinedDirectory.isComponent(attachment.fileName())) {
      throw TetherException.of(ErrorCode.INVALID_ARGUMENT, "the attachment manifest of instance '" + entry.id()
          + "' names '" + shorten(attachment.fileName()) + "', which is not a plain file name");
    }
    try (ConfinedDirectory dir = sessionDirectory(entry, session)) {
      ConfinedDirectory.OpenFile file = dir.openFile(attachment.fileName());
      if (file.size() > Math.max(attachment.size(), maxBytes)) {
        file.close();
        throw TetherException.of(ErrorCode.INVALID_ARGUMENT, "attachment '" + shorten(attachment.fileName()) + "' of instance '"
            + entry.id() + "' is " + file.size() + " bytes on disk, more than it was stored with");
      }
      return file;
    } catch (NoSuchFileException e) {
      throw gone(session, attachment);
    } catch (UnsafeFileException e) {
      throw planted(entry, e);
    }
  }

  /** Opens the file of the attachment listed under {@code name} ({@link #find}, then {@link #openForRead}). */
  @Override
  public Opened open(InstanceRegistry.Entry entry, SessionKey session, String name) throws IOException {
    Attachment a = find(entry, session, name);
    ConfinedDirectory.OpenFile file = openForRead(entry, session, a);
    return new Opened(a, file.channel(), file.size());
  }

  /** {@link #bytesOnDisk}. */
  @Override
  public long bytesStored(InstanceRegistry.Entry entry) throws IOException {
    return bytesOnDisk(entry);
  }

  /**
   * The bytes of every regular file kept for {@code entry}'s registration (attachments and
   * manifests of all its sessions), for the disk budget; 0 when it has none or is shared.
   */
  long bytesOnDisk(InstanceRegistry.Entry entry) throws IOException {
    if (refusal != null) {
      return 0;
    }
    try (ConfinedDirectory root = ConfinedDirectory.openOrCreate(root());
        ConfinedDirectory instance = root.directory(entry.id());
        ConfinedDirectory gen = instance.directory(generation(entry))) {
      long total = 0;
      for (String session : gen.list()) {
        try (ConfinedDirectory dir = gen.directory(session)) {
          total += dir.regularFileBytes();
        } catch (NoSuchFileException | UnsafeFileException e) {
          // gone since listed, or not a directory: holds nothing of ours
        }
      }
      return total;
    } catch (NoSuchFileException e) {
      return 0;
    }
  }

  /** The session's directory, opened component by component; {@link NoSuchFileException} when any is missing. */
  private ConfinedDirectory sessionDirectory(InstanceRegistry.Entry entry, SessionKey session) throws IOException {
    try (ConfinedDirectory root = ConfinedDirectory.openOrCreate(root());
        ConfinedDirectory instance = root.directory(entry.id());
        ConfinedDirectory gen = instance.directory(generation(entry))) {
      return gen.directory(SessionNames.of(session));
    }
  }

  /** One lock of the stripes for a session's directory: saves and deletes there are serialised. */
  private ReentrantLock lockFor(InstanceRegistry.Entry entry, SessionKey session) {
    return locks[Math.floorMod((entry.id() + "/" + generation(entry) + "/" + SessionNames.of(session)).hashCode(), STRIPES)];
  }

  private static TetherException gone(SessionKey session, Attachment attachment) {
    return TetherException.of(ErrorCode.UNKNOWN_ATTACHMENT, "attachment '" + shorten(attachment.fileName())
        + "' of session " + session + " is gone; GET .../attachments lists the names");
  }

  /**
   * Removes the attachments of {@code entry}'s registration (on DELETE of the instance), and the
   * instance's directory when nothing else is left in it. Nothing happens when there are none. Best
   * effort: a failure is logged, not thrown, since the instance is already gone and its attachments
   * stay fenced by their generation (a re-created id never sees them; its first save prunes them).
   */
  @Override
  public void removeInstance(InstanceRegistry.Entry entry) {
    if (refusal != null) {
      return;
    }
    try {
      remove(entry);
    } catch (IOException | RuntimeException e) {
      LOG.log(System.Logger.Level.WARNING, "removing the attachments of deleted instance {0} failed (they stay fenced"
          + " by generation): {1}", entry.id(), e.toString());
    }
  }

  private void remove(InstanceRegistry.Entry entry) throws IOException {
    try (ConfinedDirectory root = ConfinedDirectory.openOrCreate(root())) {
      Optional<ConfinedDirectory> instance = root.findDirectory(entry.id());
      if (instance.isEmpty()) {
        return;
      }
      try (ConfinedDirectory dir = instance.get()) {
        dir.deleteTree(generation(entry));
      }
      boolean empty;
      try (ConfinedDirectory dir = root.directory(entry.id())) {
        empty = dir.list().isEmpty();
      }
      if (empty) {
        root.deleteTree(entry.id());
      }
    }
  }

  /** The directory name of {@code entry}'s registration: its creation instant, unique per registration. */
  static String generation(InstanceRegistry.Entry entry) {
    return "g" + entry.createdAt().getEpochSecond() + "." + String.format(Locale.ROOT, "%09d", entry.createdAt().getNano());
  }

  private static void pruneOtherGenerations(ConfinedDirectory instance, String current) throws IOException {
    for (String name : instance.list()) {
      if (!name.equals(current) && name.startsWith("g")) {
        instance.deleteTree(name);
      }
    }
  }

  private Path root() throws IOException {
    Path r = root;
    if (r != null) {
      return r;
    }
    rootLock.lock();
    try {
      if (root == null) {
        root = configuredRoot != null ? configuredRoot : Files.createTempDirectory("tether-attachments-");
      }
      return root;
    } finally {
      rootLock.unlock();
    }
  }

  private void refuseIfShared() {
    if (refusal != null) {
      throw TetherException.of(ErrorCode.NOT_IMPLEMENTED, refusal);
    }
  }

  private AttachmentCatalog open(ConfinedDirectory dir) throws IOException {
    try {
      return AttachmentCatalog.builder(dir).maxUploadBytes(maxBytes).open();
    } catch (MediaFormatException e) {
      throw TetherException.of(ErrorCode.INVALID_UPLOAD, "the attachment manifest of this session is damaged, so its"
          + " attachments cannot be used: " + e.getMessage());
    }
  }

  private static TetherException planted(InstanceRegistry.Entry entry, UnsafeFileException e) {
    return TetherException.of(ErrorCode.INVALID_ARGUMENT, "the attachments of instance '" + entry.id()
        + "' cannot be used: " + shorten(e.getFile()) + " " + e.getReason() + "; attachments must be plain files in plain directories");
  }

  private static String shorten(String s) {
    return s.length() > 80 ? s.substring(0, 80) + "..." : s;
  }
}
