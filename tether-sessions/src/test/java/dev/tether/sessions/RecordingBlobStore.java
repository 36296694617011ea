package dev.tether.sessions;

import dev.tether.api.blobs.BlobStore;
import dev.tether.api.blobs.BlobKey;
import dev.tether.api.blobs.BlobGcResult;
import dev.tether.api.MediaType;
import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Predicate;

/** A real blob store that records which blobs were read. */
final class RecordingBlobStore implements BlobStore {
  private final BlobStore delegate;
  final List<BlobKey> reads = new CopyOnWriteArrayList<>();

  RecordingBlobStore(BlobStore delegate) {
    this.delegate = delegate;
  }

  @Override
  public BlobKey put(byte[] bytes, MediaType mediaType) throws IOException {
    return delegate.put(bytes, mediaType);
  }

  @Override
  public BlobKey put(InputStream in, MediaType mediaType) throws IOException {
    return delegate.put(in, mediaType);
  }

  @Override
  public byte[] get(BlobKey key) throws IOException {
    reads.add(key);
    return delegate.get(key);
  }

  @Override
  public InputStream open(BlobKey key) throws IOException {
    reads.add(key);
    return delegate.open(key);
  }

  @Override
  public boolean exists(BlobKey key) throws IOException {
    return delegate.exists(key);
  }

  @Override
  public boolean delete(BlobKey key) throws IOException {
    return delegate.delete(key);
  }

  @Override
  public BlobGcResult collectGarbage(Predicate<BlobKey> isReferenced, Duration gracePeriod) throws IOException {
    return delegate.collectGarbage(isReferenced, gracePeriod);
  }
}
