package dev.tether.media;

import dev.tether.api.ErrorCode;
import dev.tether.images.Images;
import dev.tether.api.Image;
import dev.tether.api.Limits;
import dev.tether.api.MediaType;
import dev.tether.api.TetherException;
import dev.tether.sessions.ConfinedDirectory;
import dev.tether.media.internal.MediaFiles;
import dev.tether.media.internal.MediaText;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The files dropped into one run or session, kept in one directory with a manifest, and read by
 * the agent through {@code list_attachments}, {@code read_attachment} and {@code view_attachment}.
 *
 * <p><b>Types.</b> The MIME type the client declared is stored in the manifest verbatim. The
 * catalog never guesses a type (no sniffing, no extension table). Viewing an image only
 * <em>verifies</em> the declared type against the four image signatures, as tether images do.
 *
 * <p><b>Names.</b> Client file names are sanitised (see {@link MediaFiles#sanitise}): no path
 * survives, so {@code ../x}, absolute paths, backslashes, NUL and {@code %2e%2e} all end up as
 * plain names inside the directory. A name already taken (ignoring case) gets {@code -1},
 * {@code -2}... before its extension instead of overwriting.
 *
 * <p><b>Text and binary.</b> {@link #read} decodes UTF-8, replacing invalid sequences with
 * U+FFFD, and windows by code points. A file counts as binary, and is refused, when its first
 * 8 KiB hold a NUL byte; that is the whole rule.
 *
 * <p><b>Files.</b> Every file is read and written through a {@link ConfinedDirectory}: opened
 * relative to the catalog's opened directory without following links, regular files only, sizes
 * from the open file, written atomically and owner-only. A catalog built on a path opens that
 * directory (trusted, created 0700 when missing) for each call; one built on a
 * {@link ConfinedDirectory} uses that handle, which the caller keeps open while using the catalog
 * and closes afterwards. A planted link, FIFO or directory where a file belongs is an
 * {@link dev.tether.sessions.UnsafeFileException}.
 *
 * <p><b>Concurrency and durability.</b> Thread-safe. Saves are serialised by a lock: the file
 * is written atomically, then the manifest is rewritten atomically, then a new immutable snapshot
 * is published for readers, who never lock.
 */
public final class AttachmentCatalog {
  /** Bytes at the start of a file searched for NUL to call it binary. */
  public static final int BINARY_PROBE_BYTES = 8192;

  private static final System.Logger LOG = System.getLogger(AttachmentCatalog.class.getName());

  private final Path dir; // null when built on a handle
  private final ConfinedDirectory handle; // null when built on a path
  private final long maxUploadBytes;
  private final int maxReadChars;
  private final int maxAttachments;
  private final Limits limits;
  private final Clock clock;
  private final ReentrantLock saveLock = new ReentrantLock();
  private volatile List<Attachment> attachments;

  private AttachmentCatalog(Builder b, List<Attachment> loaded) {
    this.dir = b.dir;
    this.handle = b.handle;
    this.maxUploadBytes = b.maxUploadBytes;
    this.maxReadChars = b.maxReadChars;
    this.maxAttachments = b.maxAttachments;
    this.limits = b.limits;
    this.clock = b.clock;
    this.attachments = List.copyOf(loaded);
  }

  /** Opens the catalog in {@code dir} with the defaults, reading its manifest if there is one. */
  public static AttachmentCatalog open(Path dir) throws IOException {
    return builder(dir).open();
  }

  public static Builder builder(Path dir) {
    return new Builder(Objects.requireNonNull(dir, "dir").toAbsolutePath().normalize(), null);
  }

  /**
   * A catalog whose files are in the opened directory {@code dir} (see the class comment); the
   * caller keeps it open while using the catalog.
   */
  public static Builder builder(ConfinedDirectory dir) {
    return new Builder(null, Objects.requireNonNull(dir, "dir"));
  }

  /**
   * The directory the attachments live in; for a catalog built on a {@link ConfinedDirectory},
   * that directory's path relative to its root.
   */
  public Path directory() {
    return dir != null ? dir : Path.of(handle.where().isEmpty() ? "." : handle.where());
  }

  /**
   * Saves an upload under a sanitised, unused name and records it in the manifest.
   *
   * @throws TetherException {@link ErrorCode#UPLOAD_TOO_LARGE} over the size limit
   *     (checked before decoding), {@link ErrorCode#INVALID_UPLOAD} for bad base64,
   *     an unusable MIME type or a full catalog
   * @throws IOException when the file or manifest cannot be written
   */
  public Attachment save(AttachmentUpload upload) throws IOException {
    Objects.requireNonNull(upload, "upload");
    String mimeType = AttachmentUploads.mimeType(upload);
    byte[] bytes = AttachmentUploads.decode(upload, maxUploadBytes);
    return store(upload.filename(), mimeType, bytes);
  }

  /**
   * Saves raw bytes (an HTTP upload, a bridge's download) under a sanitised, unused name and
   * records it in the manifest. {@code bytes} is not copied and must not change during the call.
   *
   * @param fileName the client's file name, possibly hostile
   * @param mimeType the client's MIME type, kept verbatim; null or blank means
   *     {@code application/octet-stream}
   * @throws TetherException {@link ErrorCode#UPLOAD_TOO_LARGE} over the size limit,
   *     {@link ErrorCode#INVALID_UPLOAD} for an unusable MIME type or a full catalog
   * @throws IOException when the file or manifest cannot be written
   */
  public Attachment save(String fileName, String mimeType, byte[] bytes) throws IOException {
    Objects.requireNonNull(fileName, "fileName");
    Objects.requireNonNull(bytes, "bytes");
    if (bytes.length > maxUploadBytes) {
      throw TetherException.of(ErrorCode.UPLOAD_TOO_LARGE, "the upload is " + bytes.length
          + " bytes; the limit is " + maxUploadBytes + " bytes");
    }
    return store(fileName, AttachmentUploads.mimeType(new AttachmentUpload(fileName, "", mimeType)), bytes);
  }

  /** The largest upload {@link #save} accepts, in bytes. */
  public long maxUploadBytes() {
    return maxUploadBytes;
  }

  private Attachment store(String fileName, String mimeType, byte[] bytes) throws IOException {
    saveLock.lock();
    try {
      List<Attachment> current = attachments;
      if (current.size() >= maxAttachments) {
        throw TetherException.of(ErrorCode.INVALID_UPLOAD, "the catalog already holds " + current.size() + " attachments, its limit");
      }
      Attachment added = inDirectory(d -> {
        String name = freeName(d, MediaFiles.sanitise(fileName), current);
        d.write(name, bytes);
        Attachment a = new Attachment(name, mimeType, bytes.length, clock.instant());
        List<Attachment> next = new ArrayList<>(current);
        next.add(a);
        d.write(AttachmentManifest.FILE_NAME, AttachmentManifest.toJson(next));
        attachments = List.copyOf(next);
        return a;
      });
      return added;
    } finally {
      saveLock.unlock();
    }
  }

  /**
   * Removes the attachment listed under exactly {@code fileName}: the manifest without it is
   * written atomically first (so no reader is ever shown a file that is gone), then its file is
   * deleted (a symbolic link in its place is removed, never followed). Serialised with saves.
   *
   * @return the attachment removed
   * @throws TetherException {@link ErrorCode#UNKNOWN_ATTACHMENT} for an unknown name
   * @throws IOException when the manifest cannot be written (nothing changed then) or the file
   *     cannot be deleted (it is no longer listed then)
   */
  public Attachment remove(String fileName) throws IOException {
    saveLock.lock();
    try {
      Attachment gone = require(fileName);
      List<Attachment> next = new ArrayList<>(attachments);
      next.remove(gone);
      inDirectory(d -> {
        d.write(AttachmentManifest.FILE_NAME, AttachmentManifest.toJson(next));
        attachments = List.copyOf(next);
        d.delete(MediaFiles.requirePlain(gone.fileName())); // false when already gone: not listed either way
        return gone;
      });
      return gone;
    } finally {
      saveLock.unlock();
    }
  }

  /**
   * The bytes of the attachment listed under exactly {@code fileName}, read without following a
   * symbolic link and at most the larger of its listed size and the upload limit.
   *
   * @throws TetherException {@link ErrorCode#UNKNOWN_ATTACHMENT} for an unknown name
   */
  public byte[] bytes(String fileName) throws IOException {
    return readFile(require(fileName));
  }

  /** The attachments in the order they were saved. A snapshot. */
  public List<Attachment> list() {
    return attachments;
  }

  /** The {@code list_attachments} text: one {@link Attachment#listLine()} per line, or {@code No attachments.} */
  public String listText() {
    List<Attachment> all = attachments;
    if (all.isEmpty()) {
      return "No attachments.";
    }
    StringBuilder sb = new StringBuilder();
    for (Attachment a : all) {
      sb.append(sb.length() == 0 ? "" : "\n").append(a.listLine());
    }
    return sb.toString();
  }

  /** The attachment listed under exactly this name. */
  public Attachment require(String fileName) {
    Objects.requireNonNull(fileName, "fileName");
    for (Attachment a : attachments) {
      if (a.fileName().equals(fileName)) {
        return a;
      }
    }
    throw TetherException.of(ErrorCode.UNKNOWN_ATTACHMENT, "no attachment is named '"
        + MediaText.excerpt(fileName) + "'; use list_attachments to see the names");
  }

  /** {@code read_attachment(filename)}: the first window of text, up to the default limit. */
  public AttachmentText read(String fileName) throws IOException {
    return read(fileName, 0, maxReadChars);
  }

  /**
   * {@code read_attachment(filename, offset, limit)}: up to {@code limit} characters (clamped to
   * the configured maximum) from code-point {@code offset}; past the end gives empty text.
   *
   * @throws TetherException {@link ErrorCode#BINARY_ATTACHMENT} for a binary file,
   *     {@link ErrorCode#UNKNOWN_ATTACHMENT} for an unknown name
   * @throws IllegalArgumentException for a negative offset or a limit below 1
   */
  public AttachmentText read(String fileName, long offset, int limit) throws IOException {
    if (offset < 0) {
      throw new IllegalArgumentException("offset must be >= 0 but was " + offset);
    }
    if (limit < 1) {
      throw new IllegalArgumentException("limit must be >= 1 but was " + limit);
    }
    Attachment a = require(fileName);
    return AttachmentReads.text(a, readFile(a), offset, Math.min(limit, maxReadChars));
  }

  /**
   * {@code view_attachment(filename)}: the attachment as an image for a vision-capable model.
   *
   * @param visionCapable whether the target model accepts image input
   * @throws TetherException {@link ErrorCode#VISION_UNSUPPORTED} when it does not,
   *     {@link ErrorCode#NOT_AN_IMAGE} when the declared type is not image/png,
   *     image/jpeg, image/gif or image/webp
   * @throws TetherException {@code MEDIA_TYPE_MISMATCH} when the bytes do not match the declared
   *     type, {@code IMAGE_TOO_LARGE} over the image limit
   */
  public Image view(String fileName, boolean visionCapable) throws IOException {
    Attachment a = require(fileName);
    AttachmentReads.requireViewable(a, visionCapable);
    return AttachmentReads.image(a, readFile(a), limits);
  }

  /**
   * Every attachment declared as one of the four image types whose bytes validate, for putting in
   * the first user message (see {@link AttachmentInjection}). One that fails validation is
   * skipped and logged, so one bad upload does not block the others.
   */
  public List<AttachmentImage> images() throws IOException {
    List<AttachmentImage> out = new ArrayList<>();
    for (Attachment a : attachments) {
      MediaType type = imageType(a);
      if (type == null) {
        continue;
      }
      try {
        out.add(new AttachmentImage(a, Images.fromBytes(readFile(a), type, limits)));
      } catch (TetherException e) {
        LOG.log(System.Logger.Level.WARNING, "skipping attachment {0}: {1}", a.fileName(), e.getMessage());
      }
    }
    return out;
  }

  private static MediaType imageType(Attachment a) {
    return AttachmentReads.imageType(a);
  }

  private byte[] readFile(Attachment a) throws IOException {
    // The manifest's size may come from an older, larger limit; never trust it beyond an array.
    long max = Math.min(Math.max(a.size(), maxUploadBytes), Integer.MAX_VALUE - 16);
    return inDirectory(d -> d.read(MediaFiles.requirePlain(a.fileName()), max));
  }

  @FunctionalInterface
  private interface DirectoryCall<T> {
    T call(ConfinedDirectory dir) throws IOException;
  }

  /** Runs {@code call} on the catalog's opened directory: the caller's handle, or the path opened for this call. */
  private <T> T inDirectory(DirectoryCall<T> call) throws IOException {
    return inDirectory(dir, handle, call);
  }

  private static <T> T inDirectory(Path dir, ConfinedDirectory handle, DirectoryCall<T> call) throws IOException {
    if (handle != null) {
      return call.call(handle);
    }
    try (ConfinedDirectory d = ConfinedDirectory.openOrCreate(dir)) {
      return call.call(d);
    }
  }

  private static String freeName(ConfinedDirectory dir, String wanted, List<Attachment> current) throws IOException {
    Set<String> taken = new HashSet<>();
    for (Attachment a : current) {
      taken.add(a.fileName().toLowerCase(Locale.ROOT));
    }
    String name = wanted;
    for (int n = 1; taken.contains(name.toLowerCase(Locale.ROOT))
        || dir.attributes(name).isPresent(); n++) {
      name = MediaFiles.sanitise(MediaFiles.withSuffix(wanted, n));
    }
    return name;
  }

  /** Builds and opens an {@link AttachmentCatalog}; setters fail fast naming the setting. Not thread-safe. */
  public static final class Builder {
    private final Path dir;
    private final ConfinedDirectory handle;
    private long maxUploadBytes = 20L << 20;
    private int maxReadChars = 50_000;
    private int maxAttachments = 10_000;
    private long maxManifestBytes = 16L << 20;
    private Limits limits = Limits.defaults();
    private Clock clock = Clock.systemUTC();

    private Builder(Path dir, ConfinedDirectory handle) {
      this.dir = dir;
      this.handle = handle;
    }

    /** The largest decoded upload. Default 20 MiB. */
    public Builder maxUploadBytes(long maxUploadBytes) {
      if (maxUploadBytes <= 0 || maxUploadBytes > Integer.MAX_VALUE - 8) {
        throw new IllegalArgumentException("maxUploadBytes must be in 1.." + (Integer.MAX_VALUE - 8)
            + " but was " + maxUploadBytes);
      }
      this.maxUploadBytes = maxUploadBytes;
      return this;
    }

    /** The most characters one read returns, and the default limit. Default 50,000. */
    public Builder maxReadChars(int maxReadChars) {
      if (maxReadChars <= 0) {
        throw new IllegalArgumentException("maxReadChars must be > 0 but was " + maxReadChars);
      }
      this.maxReadChars = maxReadChars;
      return this;
    }

    /** The most attachments in one catalog. Default 10,000. */
    public Builder maxAttachments(int maxAttachments) {
      if (maxAttachments <= 0) {
        throw new IllegalArgumentException("maxAttachments must be > 0 but was " + maxAttachments);
      }
      this.maxAttachments = maxAttachments;
      return this;
    }

    /** The largest manifest {@link #open()} reads. Default 16 MiB. */
    public Builder maxManifestBytes(long maxManifestBytes) {
      if (maxManifestBytes <= 0) {
        throw new IllegalArgumentException("maxManifestBytes must be > 0 but was " + maxManifestBytes);
      }
      this.maxManifestBytes = maxManifestBytes;
      return this;
    }

    /** The image limits {@link #view} checks. Default {@link Limits#defaults()}. */
    public Builder limits(Limits limits) {
      this.limits = Objects.requireNonNull(limits, "limits");
      return this;
    }

    /** The clock that stamps {@link Attachment#addedAt()}. */
    public Builder clock(Clock clock) {
      this.clock = Objects.requireNonNull(clock, "clock");
      return this;
    }

    /**
     * Creates the directory if needed (0700, for a catalog on a path) and reads its manifest, if
     * any, through the opened directory.
     *
     * @throws MediaFormatException when the manifest is invalid (nothing is opened then)
     * @throws dev.tether.sessions.UnsafeFileException when the manifest is a link, FIFO or directory
     */
    public AttachmentCatalog open() throws IOException {
      List<Attachment> loaded = inDirectory(dir, handle, d -> {
        if (d.attributes(AttachmentManifest.FILE_NAME).isEmpty()) {
          return List.of();
        }
        return AttachmentManifest.read(d, maxManifestBytes, maxAttachments);
      });
      return new AttachmentCatalog(this, loaded);
    }
  }
}
