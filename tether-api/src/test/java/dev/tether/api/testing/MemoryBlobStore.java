package dev.tether.api.testing;

import dev.tether.api.MediaType;
import dev.tether.api.blobs.BlobCorruptedException;
import dev.tether.api.blobs.BlobGcResult;
import dev.tether.api.blobs.BlobKey;
import dev.tether.api.blobs.BlobStore;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.NoSuchFileException;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;

/**
 * A {@link BlobStore} in a map, for tests of modules without tether-sessions' {@code FileBlobStore}:
 * reads verify the bytes against the key, as the contract says; {@link #corrupt} replaces a blob's
 * bytes behind the store's back; no image checks, no GC. Thread-safe.
 */
public final class MemoryBlobStore implements BlobStore {
  private final Map<BlobKey, byte[]> blobs = new ConcurrentHashMap<>();

  @Override
  public BlobKey put(byte[] bytes, MediaType mediaType) {
    BlobKey key = BlobKey.forContent(bytes, mediaType);
    blobs.put(key, bytes.clone());
    return key;
  }

  @Override
  public BlobKey put(InputStream in, MediaType mediaType) throws IOException {
    return put(in.readAllBytes(), mediaType);
  }

  @Override
  public byte[] get(BlobKey key) throws IOException {
    byte[] bytes = blobs.get(key);
    if (bytes == null) {
      throw new NoSuchFileException(key.fileName());
    }
    if (!key.matches(BlobKey.sha256().digest(bytes))) {
      throw new BlobCorruptedException(key, "the bytes do not hash to the key");
    }
    return bytes.clone();
  }

  @Override
  public InputStream open(BlobKey key) throws IOException {
    return new ByteArrayInputStream(get(key));
  }

  @Override
  public boolean exists(BlobKey key) {
    return blobs.containsKey(key);
  }

  @Override
  public boolean delete(BlobKey key) {
    return blobs.remove(key) != null;
  }

  @Override
  public BlobGcResult collectGarbage(Predicate<BlobKey> isReferenced, Duration gracePeriod) {
    throw new UnsupportedOperationException("no GC in the test store");
  }

  /** Replaces the bytes of blob {@code key}, as a corrupt disk would. */
  public void corrupt(BlobKey key, byte[] bytes) {
    blobs.put(key, bytes.clone());
  }
}
