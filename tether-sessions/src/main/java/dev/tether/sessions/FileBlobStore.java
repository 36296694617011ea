package dev.tether.sessions;

import dev.tether.api.ErrorCode;
import dev.tether.api.Limits;
import dev.tether.api.MediaType;
import dev.tether.api.TetherException;
import dev.tether.api.blobs.BlobCorruptedException;
import dev.tether.api.blobs.BlobGcResult;
import dev.tether.api.blobs.BlobKey;
import dev.tether.api.blobs.BlobStore;
import dev.tether.api.files.AtomicFiles;
import dev.tether.api.files.PrivateFiles;
import dev.tether.images.Images;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.security.MessageDigest;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.locks.ReadWriteLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.Predicate;

/**
 * A {@link BlobStore} that keeps each blob as the file {@code dir/{sha256-hex}.{ext}}.
 *
 * <p>Design. <b>Writes</b> go to a fresh temp file in the same directory ({@code .tmp-*.partial},
 * a name no {@link BlobKey} can have), are fsynced, renamed onto the key with
 * {@code ATOMIC_MOVE}, and the directory is fsynced; a reader therefore sees a whole blob or
 * none, and after {@code put} returns the blob survives a power cut. With {@code durable(false)}
 * both fsyncs are skipped (tests, benchmarks, tmpfs). <b>Dedup</b>: {@code put(byte[])} hashes
 * first and writes nothing when the blob exists with the right size; two concurrent puts of new
 * bytes each write their own temp file and the second rename replaces identical bytes, so both
 * succeed. <b>Keys</b> are validated by {@link BlobKey} before a path is built; file names that
 * are not keys (temp files, strangers) are never returned or deleted as blobs. <b>Reads</b>
 * verify the SHA-256 and reject files larger than the size limit.
 *
 * <p><b>GC race.</b> Every put stamps the blob's mtime with the clock, also when it deduplicates
 * against an old blob. GC deletes only blobs whose mtime is older than the grace period, and it
 * re-reads the mtime and deletes under the write side of a lock whose read side every put holds
 * while it stamps or renames. So a put in this store either completes before the check (and the
 * fresh mtime saves the blob) or waits until the delete is done (and writes the blob again).
 * Puts from another process are protected by the grace period alone; run GC in one process.
 *
 * <p>Thread-safe. Nothing blocks inside {@code synchronized}.
 */
public final class FileBlobStore implements BlobStore {
  static final String TEMP_PREFIX = ".tmp-";
  static final String TEMP_SUFFIX = ".partial";
  private static final int BUFFER = 64 * 1024;

  private final Path dir;
  private final Limits limits;
  private final Set<MediaType> mediaTypes;
  private final boolean durable;
  private final Clock clock;
  private final ReadWriteLock gcLock = new ReentrantReadWriteLock();

  private FileBlobStore(Builder b) throws IOException {
    this.dir = PrivateFiles.createDirectories(b.dir);
    this.limits = b.limits;
    this.mediaTypes = Set.copyOf(b.mediaTypes);
    this.durable = b.durable;
    this.clock = b.clock;
  }

  /** A durable store in {@code dir} (created if missing) with the default limits. */
  public static FileBlobStore open(Path dir) throws IOException {
    return builder(dir).build();
  }

  public static Builder builder(Path dir) {
    return new Builder(dir);
  }

  public Path directory() {
    return dir;
  }

  /** The file a key names; the key is already validated, so the path is always inside the directory. */
  public Path path(BlobKey key) {
    return dir.resolve(key.fileName());
  }

  @Override
  public BlobKey put(byte[] bytes, MediaType mediaType) throws IOException {
    Objects.requireNonNull(bytes, "bytes");
    checkImage(bytes.length, mediaType, bytes, Math.min(bytes.length, 12));
    BlobKey key = BlobKey.forContent(bytes, mediaType);
    gcLock.readLock().lock();
    try {
      if (refreshIfPresent(key, bytes.length)) {
        return key;
      }
      Path temp = newTemp();
      try (FileChannel ch = FileChannel.open(temp, StandardOpenOption.WRITE)) {
        ByteBuffer buffer = ByteBuffer.wrap(bytes);
        while (buffer.hasRemaining()) {
          ch.write(buffer);
        }
        if (durable) {
          ch.force(true);
        }
      } catch (IOException | RuntimeException e) {
        Files.deleteIfExists(temp);
        throw e;
      }
      publish(temp, key);
      return key;
    } finally {
      gcLock.readLock().unlock();
    }
  }

  @Override
  public BlobKey put(InputStream in, MediaType mediaType) throws IOException {
    Objects.requireNonNull(in, "in");
    Objects.requireNonNull(mediaType, "mediaType");
    MessageDigest digest = BlobKey.sha256();
    byte[] head = new byte[12];
    int headLength = 0;
    long size = 0;
    Path temp = newTemp();
    try {
      try (FileChannel ch = FileChannel.open(temp, StandardOpenOption.WRITE)) {
        byte[] buf = new byte[BUFFER];
        for (int n; (n = in.readNBytes(buf, 0, (int) Math.min(buf.length, limits.maxImageBytes() + 1 - size))) > 0; ) {
          if (headLength < head.length) {
            int take = Math.min(n, head.length - headLength);
            System.arraycopy(buf, 0, head, headLength, take);
            headLength += take;
          }
          size += n;
          if (size > limits.maxImageBytes()) {
            break; // checkImage below reports it; nothing more is read
          }
          digest.update(buf, 0, n);
          ByteBuffer buffer = ByteBuffer.wrap(buf, 0, n);
          while (buffer.hasRemaining()) {
            ch.write(buffer);
          }
        }
        checkImage(size, mediaType, head, headLength);
        if (durable) {
          ch.force(true);
        }
      }
      BlobKey key = BlobKey.ofDigest(digest.digest(), mediaType);
      gcLock.readLock().lock();
      try {
        if (refreshIfPresent(key, size)) {
          Files.deleteIfExists(temp);
        } else {
          publish(temp, key);
        }
      } finally {
        gcLock.readLock().unlock();
      }
      return key;
    } catch (IOException | RuntimeException e) {
      Files.deleteIfExists(temp);
      throw e;
    }
  }

  @Override
  public byte[] get(BlobKey key) throws IOException {
    Path path = path(key);
    try (FileChannel ch = FileChannel.open(path, StandardOpenOption.READ)) {
      long size = ch.size();
      if (size > Math.min(limits.maxImageBytes(), Integer.MAX_VALUE - 8)) {
        throw new BlobCorruptedException(key, "it is " + size + " bytes, over the limit of " + limits.maxImageBytes());
      }
      byte[] bytes = new byte[(int) size];
      ByteBuffer buffer = ByteBuffer.wrap(bytes);
      while (buffer.hasRemaining() && ch.read(buffer) >= 0) {
        // keep reading
      }
      if (buffer.hasRemaining()) {
        throw new BlobCorruptedException(key, "it shrank while being read");
      }
      if (!key.matches(BlobKey.sha256().digest(bytes))) {
        throw new BlobCorruptedException(key, "its bytes do not hash to its key");
      }
      return bytes;
    }
  }

  @Override
  public InputStream open(BlobKey key) throws IOException {
    return new VerifyingInputStream(key, Files.newInputStream(path(key)), limits.maxImageBytes());
  }

  @Override
  public boolean exists(BlobKey key) {
    return Files.isRegularFile(path(key));
  }

  @Override
  public boolean delete(BlobKey key) throws IOException {
    gcLock.writeLock().lock();
    try {
      return Files.deleteIfExists(path(key));
    } finally {
      gcLock.writeLock().unlock();
    }
  }

  /** Every stored blob's key, in key order. Temp files and other strangers are not listed. */
  public List<BlobKey> keys() throws IOException {
    List<BlobKey> keys = new ArrayList<>();
    try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir)) {
      for (Path entry : entries) {
        BlobKey.parse(entry.getFileName().toString()).ifPresent(keys::add);
      }
    }
    keys.sort(null);
    return keys;
  }

  @Override
  public BlobGcResult collectGarbage(Predicate<BlobKey> isReferenced, Duration gracePeriod) throws IOException {
    Objects.requireNonNull(isReferenced, "isReferenced");
    if (gracePeriod.isNegative()) {
      throw new IllegalArgumentException("gracePeriod must be >= 0 but was " + gracePeriod);
    }
    Instant cutoff = clock.instant().minus(gracePeriod);
    int deleted = 0;
    int temps = 0;
    int kept = 0;
    long freed = 0;
    try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir)) {
      for (Path entry : entries) {
        String name = entry.getFileName().toString();
        if (name.startsWith(TEMP_PREFIX) && name.endsWith(TEMP_SUFFIX)) {
          if (olderThan(entry, cutoff) && Files.deleteIfExists(entry)) {
            temps++;
          }
          continue;
        }
        BlobKey key = BlobKey.parse(name).orElse(null);
        if (key == null) {
          continue; // not ours: never delete a file we did not name
        }
        if (isReferenced.test(key)) {
          kept++;
          continue;
        }
        long size = deleteIfStale(entry, cutoff);
        if (size >= 0) {
          deleted++;
          freed += size;
        } else {
          kept++;
        }
      }
    }
    return new BlobGcResult(deleted, freed, temps, kept);
  }

  /** Deletes the blob when its mtime is before {@code cutoff}; its size, or -1 when kept. */
  private long deleteIfStale(Path blob, Instant cutoff) throws IOException {
    gcLock.writeLock().lock();
    try {
      BasicFileAttributes attrs = Files.readAttributes(blob, BasicFileAttributes.class);
      if (!attrs.lastModifiedTime().toInstant().isBefore(cutoff)) {
        return -1;
      }
      Files.delete(blob);
      return attrs.size();
    } catch (NoSuchFileException e) {
      return -1;
    } finally {
      gcLock.writeLock().unlock();
    }
  }

  private static boolean olderThan(Path path, Instant cutoff) throws IOException {
    try {
      return Files.getLastModifiedTime(path).toInstant().isBefore(cutoff);
    } catch (NoSuchFileException e) {
      return false;
    }
  }

  private void checkImage(long size, MediaType mediaType, byte[] head, int headLength) {
    Objects.requireNonNull(mediaType, "mediaType");
    if (!mediaTypes.contains(mediaType)) {
      throw TetherException.forImage(ErrorCode.UNSUPPORTED_MEDIA_TYPE, 0,
          "this blob store does not take " + mediaType.mimeType() + "; it takes " + mediaTypes);
    }
    Images.requireImage(mediaType, size, head, headLength, 0, limits);
  }

  /** Stamps an existing blob as fresh; false when there is none or its size is wrong (then it is rewritten). */
  private boolean refreshIfPresent(BlobKey key, long expectedSize) throws IOException {
    Path path = path(key);
    try {
      if (Files.size(path) != expectedSize) {
        return false;
      }
      Files.setLastModifiedTime(path, FileTime.from(clock.instant()));
      return true;
    } catch (NoSuchFileException e) {
      return false;
    }
  }

  private Path newTemp() throws IOException {
    return Files.createTempFile(dir, TEMP_PREFIX, TEMP_SUFFIX, PrivateFiles.fileAttributes(dir));
  }

  private void publish(Path temp, BlobKey key) throws IOException {
    Path target = path(key);
    Files.setLastModifiedTime(temp, FileTime.from(clock.instant()));
    try {
      Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE);
    } catch (FileAlreadyExistsException e) {
      // A platform whose rename does not replace: a concurrent put of the same bytes won. Stamp
      // its file, since GC judges by the stamp.
      Files.deleteIfExists(temp);
      Files.setLastModifiedTime(target, FileTime.from(clock.instant()));
      return;
    } catch (AtomicMoveNotSupportedException e) {
      Files.deleteIfExists(temp);
      throw e;
    }
    if (durable) {
      AtomicFiles.fsyncDirectory(dir);
    }
  }

  @Override
  public String toString() {
    return "FileBlobStore[" + dir + (durable ? "" : ", not durable") + "]";
  }

  /** Builds a {@link FileBlobStore}. Not thread-safe. */
  public static final class Builder {
    private final Path dir;
    private Limits limits = Limits.defaults();
    private Set<MediaType> mediaTypes = EnumSet.allOf(MediaType.class);
    private boolean durable = true;
    private Clock clock = Clock.systemUTC();

    private Builder(Path dir) {
      this.dir = Objects.requireNonNull(dir, "dir");
    }

    /** The size limit is {@link Limits#maxImageBytes()}; the default is the protocol's. */
    public Builder limits(Limits limits) {
      this.limits = Objects.requireNonNull(limits, "limits");
      return this;
    }

    /** The media types the store takes; all four by default. */
    public Builder mediaTypes(Set<MediaType> mediaTypes) {
      if (mediaTypes.isEmpty()) {
        throw new IllegalArgumentException("mediaTypes must not be empty");
      }
      this.mediaTypes = EnumSet.copyOf(mediaTypes);
      return this;
    }

    /** Whether puts fsync the file and the directory; true by default. */
    public Builder durable(boolean durable) {
      this.durable = durable;
      return this;
    }

    /** The clock that stamps blobs on put and decides their age in GC; the system clock by default. */
    public Builder clock(Clock clock) {
      this.clock = Objects.requireNonNull(clock, "clock");
      return this;
    }

    /** Opens the store, creating its directory when missing. */
    public FileBlobStore build() throws IOException {
      return new FileBlobStore(this);
    }
  }
}
