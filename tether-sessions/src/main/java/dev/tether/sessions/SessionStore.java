package dev.tether.sessions;

import dev.tether.api.blobs.BlobStore;
import dev.tether.api.blobs.BlobKey;
import dev.tether.api.blobs.BlobGcResult;
import dev.tether.api.Limits;
import dev.tether.api.SessionKey;
import dev.tether.api.files.PrivateFiles;
import dev.tether.images.FrameValidator;
import java.io.Closeable;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The conversation sessions of one agent: a directory of JSONL files, one per {@link SessionKey},
 * and the {@link BlobStore} their images live in.
 *
 * <pre>{@code
 * BlobStore blobs = FileBlobStore.open(root.resolve("blobs"));
 * try (SessionStore sessions = SessionStore.builder(root.resolve("sessions"), blobs).build()) {
 *   SessionLog log = sessions.open(new SessionKey("telegram", "12345"));
 *   log.ingest(frame);
 *   Conversation context = log.assembleContext(systemPrompt, 40, 100_000);
 * }
 * }</pre>
 *
 * <p>Design. Sessions are keyed by the (channel, id) value, never a joined string: file names are
 * escaped so that no two keys share a file (see {@code SessionFileNames}), hence
 * {@code host:default} and {@code telegram:default} are independent. {@link #open} loads a session
 * once and hands out the same {@link SessionLog} until {@link #close}; opening holds a store-wide
 * lock (loading is I/O, so this is a {@link ReentrantLock}, never {@code synchronized}).
 * Thread-safe. One process owns a session directory.
 */
public final class SessionStore implements Closeable {
  /**
   * The least line limit: 256 KiB. The default is larger when the frame limits allow larger
   * frames (see {@link Builder#maxLineBytes}).
   */
  public static final int DEFAULT_MAX_LINE_BYTES = 256 * 1024;
  /** Room in a line beyond the frame's own bytes: the turn's role, timestamp and field names. */
  static final int LINE_OVERHEAD_BYTES = 64 * 1024;
  /** The default number of session files kept open at once. */
  public static final int DEFAULT_MAX_OPEN_FILES = 64;

  /** What every {@link SessionLog} of a store shares. */
  record Settings(BlobStore blobs, int maxLineBytes, boolean durable, Clock clock, FrameValidator validator,
      ContextAssembler assembler) {}

  private final Path dir;
  private final Settings settings;
  private final ReentrantLock lock = new ReentrantLock();
  private final Map<SessionKey, SessionLog> open = new HashMap<>();
  private final OpenFiles openFiles;
  private boolean closed;

  private SessionStore(Path dir, Settings settings, int maxOpenFiles) {
    this.dir = dir;
    this.settings = settings;
    this.openFiles = new OpenFiles(maxOpenFiles);
  }

  public static Builder builder(Path dir, BlobStore blobs) {
    return new Builder(dir, blobs);
  }

  public Path directory() {
    return dir;
  }

  public BlobStore blobs() {
    return settings.blobs();
  }

  /**
   * The session's log, loading it on first use (an absent session starts empty). The same
   * instance is returned until it or the store is closed.
   */
  public SessionLog open(SessionKey key) throws IOException {
    Objects.requireNonNull(key, "key");
    lock.lock();
    try {
      if (closed) {
        throw new IllegalStateException("the session store is closed");
      }
      SessionLog log = open.get(key);
      if (log == null || log.isClosed()) {
        log = SessionLog.open(key, file(key), settings, openFiles);
        open.put(key, log);
      }
      return log;
    } finally {
      lock.unlock();
    }
  }

  /** How many session files are open now: at most the builder's {@code maxOpenFiles}, plus appends in flight. */
  int openFileCount() {
    int n = 0;
    lock.lock();
    try {
      for (SessionLog log : open.values()) {
        n += log.holdsFile() ? 1 : 0;
      }
    } finally {
      lock.unlock();
    }
    return n;
  }

  /** The longest line this store writes and loads. */
  public int maxLineBytes() {
    return settings.maxLineBytes();
  }

  /** The file that holds {@code key}'s turns. */
  public Path file(SessionKey key) {
    return dir.resolve(SessionFileNames.fileName(key));
  }

  /** Every blob that any session file in the directory refers to, read from disk. */
  public Set<BlobKey> referencedBlobs() throws IOException {
    Set<BlobKey> keys = new HashSet<>();
    try (DirectoryStream<Path> files = Files.newDirectoryStream(dir, "*" + SessionFileNames.SUFFIX)) {
      for (Path file : files) {
        SessionFileScan.collectBlobKeys(file, settings.maxLineBytes(), keys);
      }
    }
    return keys;
  }

  /**
   * Deletes blobs no session refers to and that no put touched within {@code gracePeriod}. The
   * references are read before the blob store is swept, so a turn appended meanwhile is protected
   * by the fresh stamp its blob got from its put (keep the grace period well above the time
   * between putting an image and appending its turn).
   */
  public BlobGcResult collectGarbage(Duration gracePeriod) throws IOException {
    Set<BlobKey> referenced = referencedBlobs();
    return settings.blobs().collectGarbage(referenced::contains, gracePeriod);
  }

  /** Closes every open session. */
  @Override
  public void close() throws IOException {
    lock.lock();
    try {
      closed = true;
      IOException first = null;
      for (SessionLog log : open.values()) {
        try {
          log.close();
        } catch (IOException e) {
          if (first == null) {
            first = e;
          } else {
            first.addSuppressed(e);
          }
        }
      }
      open.clear();
      if (first != null) {
        throw first;
      }
    } finally {
      lock.unlock();
    }
  }

  /** Builds a {@link SessionStore}; setters fail fast on impossible values. Not thread-safe. */
  public static final class Builder {
    private final Path dir;
    private final BlobStore blobs;
    private int maxLineBytes = -1;
    private int maxOpenFiles = DEFAULT_MAX_OPEN_FILES;
    private int imageCost = ContextAssembler.DEFAULT_IMAGE_COST;
    private int maxImages = ContextAssembler.ALL_IMAGES;
    private boolean durable = true;
    private Clock clock = Clock.systemUTC();
    private FrameValidator validator = FrameValidator.standard();

    private Builder(Path dir, BlobStore blobs) {
      this.dir = Objects.requireNonNull(dir, "dir");
      this.blobs = Objects.requireNonNull(blobs, "blobs");
    }

    /**
     * The longest line loading accepts and appending writes. By default every frame the limits
     * accept fits: {@code max(256 KiB, maxFrameBytes + 64 KiB)}, so 28 MiB + 64 KiB with the
     * default limits (a user turn holds the frame's text, never more bytes than the frame, and
     * refs in place of images). Loading reads a line into a buffer that grows as needed.
     */
    public Builder maxLineBytes(int maxLineBytes) {
      if (maxLineBytes < 64) {
        throw new IllegalArgumentException("maxLineBytes must be >= 64 but was " + maxLineBytes);
      }
      this.maxLineBytes = maxLineBytes;
      return this;
    }

    /**
     * How many session files stay open at once; 64 by default.
     * The least recently used logs close their files and open them again on their next append.
     */
    public Builder maxOpenFiles(int maxOpenFiles) {
      if (maxOpenFiles < 1) {
        throw new IllegalArgumentException("maxOpenFiles must be >= 1 but was " + maxOpenFiles);
      }
      this.maxOpenFiles = maxOpenFiles;
      return this;
    }

    /** Characters one image counts for in context assembly; 2000 by default. */
    public Builder imageCost(int imageCost) {
      if (imageCost < 0) {
        throw new IllegalArgumentException("imageCost must be >= 0 but was " + imageCost);
      }
      this.imageCost = imageCost;
      return this;
    }

    /** Whether appends fsync before returning; true by default. */
    /**
     * Context assembly keeps only the newest {@code maxImages} images, older ones becoming
     * placeholders (see {@link ContextAssembler#withMaxImages(int)}). Default: every image.
     */
    public Builder maxImages(int maxImages) {
      if (maxImages < 0) {
        throw new IllegalArgumentException("maxImages must be >= 0 but was " + maxImages);
      }
      this.maxImages = maxImages;
      return this;
    }

    public Builder durable(boolean durable) {
      this.durable = durable;
      return this;
    }

    /** The clock that stamps turns whose frame has no {@code ts}. */
    public Builder clock(Clock clock) {
      this.clock = Objects.requireNonNull(clock, "clock");
      return this;
    }

    /** Validates ingested frames; {@link FrameValidator#standard()} by default. */
    public Builder limits(Limits limits) {
      this.validator = FrameValidator.withLimits(limits);
      return this;
    }

    /** Opens the store, creating its directory when missing. */
    public SessionStore build() throws IOException {
      PrivateFiles.createDirectories(dir);
      int lineBytes = maxLineBytes > 0 ? maxLineBytes : defaultLineBytes(validator.limits());
      return new SessionStore(dir, new Settings(blobs, lineBytes, durable, clock, validator,
          new ContextAssembler(blobs, imageCost).withMaxImages(maxImages)), maxOpenFiles);
    }

    static int defaultLineBytes(Limits limits) {
      return (int) Math.min(Integer.MAX_VALUE - 8, Math.max(DEFAULT_MAX_LINE_BYTES,
          (long) limits.maxFrameBytes() + LINE_OVERHEAD_BYTES));
    }
  }
}
