package dev.tether.server.internal;

import dev.tether.api.ErrorCode;
import dev.tether.api.ImageRefs;
import dev.tether.api.MediaType;
import dev.tether.api.TetherException;
import dev.tether.api.blobs.BlobGcResult;
import dev.tether.api.blobs.BlobKey;
import dev.tether.api.blobs.BlobStore;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.NoSuchFileException;
import java.time.Duration;
import java.util.function.Predicate;

/**
 * One instance's blobs as the server keeps them ({@link Blobs}: the workspace, then the shared
 * blobs), as a {@link BlobStore} for the in-process client. Every read is checked as
 * {@link Blobs#read} checks it; a blob neither place has is a {@link NoSuchFileException}. The
 * server keeps blobs until the instance is removed, so {@code delete} and {@code collectGarbage}
 * are not offered. A view, no state of its own; thread-safe.
 */
final class InstanceBlobStore implements BlobStore {
  private final Blobs blobs;
  private final InstanceRegistry.Entry entry;
  private final long maxImageBytes;

  InstanceBlobStore(Blobs blobs, InstanceRegistry.Entry entry, long maxImageBytes) {
    this.blobs = blobs;
    this.entry = entry;
    this.maxImageBytes = maxImageBytes;
  }

  @Override
  public BlobKey put(byte[] bytes, MediaType mediaType) throws IOException {
    return blobs.put(entry, mediaType, bytes, bytes.length);
  }

  @Override
  public BlobKey put(InputStream in, MediaType mediaType) throws IOException {
    // one byte over the limit at most: the image check then names the limit
    byte[] bytes = in.readNBytes((int) Math.min(maxImageBytes + 1, Integer.MAX_VALUE - 8));
    return put(bytes, mediaType);
  }

  @Override
  public byte[] get(BlobKey key) throws IOException {
    try {
      return blobs.read(entry, new ImageRefs.Ref(0, key.mediaType(), key.fileName(), -1));
    } catch (TetherException e) {
      if (e.code() == ErrorCode.BLOB_NOT_FOUND) {
        throw new NoSuchFileException(key.fileName());
      }
      throw e;
    }
  }

  @Override
  public InputStream open(BlobKey key) throws IOException {
    return new ByteArrayInputStream(get(key));
  }

  @Override
  public boolean exists(BlobKey key) throws IOException {
    try {
      get(key);
      return true;
    } catch (NoSuchFileException e) {
      return false;
    }
  }

  @Override
  public boolean delete(BlobKey key) {
    throw new UnsupportedOperationException("the server keeps an instance's blobs until the instance is removed");
  }

  @Override
  public BlobGcResult collectGarbage(Predicate<BlobKey> isReferenced, Duration gracePeriod) {
    throw new UnsupportedOperationException("the server keeps an instance's blobs until the instance is removed");
  }
}
