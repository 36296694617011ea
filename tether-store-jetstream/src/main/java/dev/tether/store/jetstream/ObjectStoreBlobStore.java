package dev.tether.store.jetstream;

import dev.tether.api.ErrorCode;
import dev.tether.api.Limits;
import dev.tether.api.MediaType;
import dev.tether.api.TetherException;
import dev.tether.api.blobs.BlobCorruptedException;
import dev.tether.api.blobs.BlobGcResult;
import dev.tether.api.blobs.BlobKey;
import dev.tether.api.blobs.BlobStore;
import dev.tether.images.Images;
import dev.tether.store.jetstream.internal.ObjectChunks;
import io.nats.client.JetStream;
import io.nats.client.JetStreamApiException;
import io.nats.client.JetStreamManagement;
import io.nats.client.ObjectStore;
import io.nats.client.api.ObjectInfo;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.nio.file.NoSuchFileException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.util.Arrays;
import java.util.Objects;
import java.util.function.Predicate;

/**
 * A {@link BlobStore} on a JetStream Object Store bucket: the image bytes of frames kept by
 * {@link JetStreamTetherStore}, shared by every host connected to the same NATS cluster.
 *
 * <p>Objects are named by their {@link BlobKey#fileName() key} ({@code {sha256-hex}.{ext}}), so
 * the same bytes stored twice, from any host, are one object; the Object Store splits them into
 * chunks below the server's {@code max_payload} and replicates them like the frames. A put of bytes
 * already present only checks the stored size. Reads look the object up once, fetch its chunks and
 * verify their SHA-256 against the key.
 *
 * <p>Thread-safe (the jnats object store is). Image checks as {@link BlobStore} requires: the size
 * limit of {@link Limits#defaults()} and the declared type's signature, as {@link TetherException}.
 * Server and network failures are {@link IOException}s.
 */
public final class ObjectStoreBlobStore implements BlobStore {
  /** How long a read waits for each chunk (jnats' own {@code get} waits 1 s; a loaded host needs more). */
  private static final Duration CHUNK_TIMEOUT = Duration.ofSeconds(5);

  private final ObjectStore bucket;
  private final JetStream js;
  private final JetStreamManagement jsm;
  private final Limits limits;

  /** {@code js} and {@code jsm} read the chunks of {@code bucket}, on the same connection. */
  ObjectStoreBlobStore(ObjectStore bucket, JetStream js, JetStreamManagement jsm, Limits limits) {
    this.bucket = Objects.requireNonNull(bucket, "bucket");
    this.js = Objects.requireNonNull(js, "js");
    this.jsm = Objects.requireNonNull(jsm, "jsm");
    this.limits = Objects.requireNonNull(limits, "limits");
  }

  /** The bucket's name. */
  public String bucketName() {
    return bucket.getBucketName();
  }

  @Override
  public BlobKey put(byte[] bytes, MediaType mediaType) throws IOException {
    Objects.requireNonNull(bytes, "bytes");
    Objects.requireNonNull(mediaType, "mediaType");
    if (bytes.length > limits.maxImageBytes()) {
      throw TetherException.forImage(ErrorCode.IMAGE_TOO_LARGE, 0, "the image is " + bytes.length
          + " bytes; the limit is " + limits.maxImageBytes() + " bytes");
    }
    // Checks the signature of the declared type (on the first bytes only; no base64 of the whole).
    Images.fromBytes(Arrays.copyOf(bytes, Math.min(bytes.length, 16)), mediaType, limits);
    BlobKey key = BlobKey.forContent(bytes, mediaType);
    ObjectInfo existing = info(key);
    if (existing != null && existing.getSize() == bytes.length) {
      return key;
    }
    try {
      bucket.put(key.fileName(), bytes);
    } catch (JetStreamApiException e) {
      throw new IOException("object store " + bucketName() + " refused " + key + ": " + e.getMessage(), e);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
    return key;
  }

  @Override
  public BlobKey put(InputStream in, MediaType mediaType) throws IOException {
    byte[] bytes = in.readNBytes((int) Math.min(Integer.MAX_VALUE - 8, limits.maxImageBytes() + 1));
    return put(bytes, mediaType);
  }

  /**
   * Stores {@code bytes} under {@code key}, which they must hash to: how a host copies a blob it
   * holds elsewhere (a workspace file a client referenced) into the bucket.
   *
   * @throws TetherException {@link ErrorCode#BLOB_CORRUPTED} when the bytes do not hash to the
   *     key, or the image checks of {@link #put(byte[], MediaType)}
   */
  public BlobKey put(BlobKey key, byte[] bytes) throws IOException {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(bytes, "bytes");
    if (!BlobKey.forContent(bytes, key.mediaType()).equals(key)) {
      throw TetherException.of(ErrorCode.BLOB_CORRUPTED, "the " + bytes.length + " bytes given for blob "
          + key.fileName() + " do not hash to its name");
    }
    return put(bytes, key.mediaType());
  }

  /**
   * The object's bytes, verified against the key: one info lookup (existence, size), then the
   * chunks read straight into one array of the announced size and hashed on the way (jnats'
   * {@code get} would look the info up a second time and copy through a stream). An object larger
   * than the image limit is refused before it is read; one whose bytes do not hash to the key, or
   * do not add up to the announced size, is {@link BlobCorruptedException}.
   */
  @Override
  public byte[] get(BlobKey key) throws IOException {
    Objects.requireNonNull(key, "key");
    ObjectInfo info = info(key);
    if (info == null) {
      throw new NoSuchFileException(key.fileName(), null, "no such blob in object store " + bucketName());
    }
    if (info.getSize() > limits.maxImageBytes()) {
      throw new BlobCorruptedException(key, "object " + key + " in " + bucketName() + " is " + info.getSize()
          + " bytes, more than an image may be (" + limits.maxImageBytes() + ")");
    }
    MessageDigest sha256 = BlobKey.sha256();
    byte[] bytes;
    try {
      bytes = ObjectChunks.read(js, jsm, bucketName(), info, sha256, CHUNK_TIMEOUT);
    } catch (ObjectChunks.Mismatch e) {
      throw new BlobCorruptedException(key, "object " + key + " in " + bucketName() + " is corrupt: " + e.getMessage());
    } catch (JetStreamApiException e) {
      throw new IOException("object store " + bucketName() + " failed to read " + key + ": " + e.getMessage(), e);
    }
    if (!key.matches(sha256.digest())) {
      throw new BlobCorruptedException(key, "object " + key + " in " + bucketName() + " does not hash to its name");
    }
    return bytes;
  }

  /** Reads the whole verified object, then streams it; the check happens before the first byte. */
  @Override
  public InputStream open(BlobKey key) throws IOException {
    return new ByteArrayInputStream(get(key));
  }

  @Override
  public boolean exists(BlobKey key) throws IOException {
    return info(Objects.requireNonNull(key, "key")) != null;
  }

  @Override
  public boolean delete(BlobKey key) throws IOException {
    if (info(key) == null) {
      return false;
    }
    try {
      bucket.delete(key.fileName());
      return true;
    } catch (JetStreamApiException e) {
      throw new IOException("object store " + bucketName() + " failed to delete " + key + ": " + e.getMessage(), e);
    }
  }

  /** Deletes unreferenced objects last written before {@code gracePeriod} ago; no temp files exist. */
  @Override
  public BlobGcResult collectGarbage(Predicate<BlobKey> isReferenced, Duration gracePeriod) throws IOException {
    ZonedDateTime cutoff = ZonedDateTime.now().minus(gracePeriod);
    int deleted = 0;
    int kept = 0;
    long freed = 0;
    try {
      for (ObjectInfo o : bucket.getList()) {
        if (o.isDeleted()) {
          continue;
        }
        BlobKey key = BlobKey.parse(o.getObjectName()).orElse(null);
        if (key == null || isReferenced.test(key) || o.getModified() == null || o.getModified().isAfter(cutoff)) {
          kept++;
          continue;
        }
        bucket.delete(o.getObjectName());
        deleted++;
        freed += o.getSize();
      }
    } catch (JetStreamApiException e) {
      throw new IOException("object store " + bucketName() + " failed to list: " + e.getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while collecting garbage");
    }
    return new BlobGcResult(deleted, freed, 0, kept);
  }

  private ObjectInfo info(BlobKey key) throws IOException {
    try {
      ObjectInfo i = bucket.getInfo(key.fileName());
      return i == null || i.isDeleted() ? null : i;
    } catch (JetStreamApiException e) {
      if (e.getApiErrorCode() == 10037 || e.getApiErrorCode() == 10059) { // no such object; no bucket at all
        return null;
      }
      throw new IOException("object store " + bucketName() + " failed to look up " + key + ": " + e.getMessage(), e);
    }
  }

  @Override
  public String toString() {
    return "ObjectStoreBlobStore[" + bucketName() + "]";
  }
}
