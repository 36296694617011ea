package dev.tether.store.jetstream;

import dev.tether.api.MediaType;
import dev.tether.api.blobs.BlobGcResult;
import dev.tether.api.blobs.BlobKey;
import dev.tether.api.blobs.BlobStore;
import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;
import java.util.function.Predicate;

/**
 * One instance's blobs as the hosts on the same NATS servers share them (see
 * {@link JetStreamTetherStore#hostBlobs}): reads never create the instance's bucket, and JetStream
 * not answering is a {@link StoreUnavailableException}. A view over
 * {@link InstanceBlobs}, no state of its own; thread-safe.
 */
final class HostBlobStore implements BlobStore {
  private final InstanceBlobs blobs;
  private final String instance;

  HostBlobStore(InstanceBlobs blobs, String instance) {
    this.blobs = blobs;
    this.instance = instance;
  }

  @Override
  public BlobKey put(byte[] bytes, MediaType mediaType) {
    return blobs.put(instance, bytes, mediaType);
  }

  @Override
  public BlobKey put(InputStream in, MediaType mediaType) throws IOException {
    return blobs.bucket(instance).put(in, mediaType);
  }

  @Override
  public byte[] get(BlobKey key) throws IOException {
    return blobs.read(instance, key);
  }

  @Override
  public InputStream open(BlobKey key) throws IOException {
    return blobs.existing(instance).open(key);
  }

  @Override
  public boolean exists(BlobKey key) {
    return blobs.has(instance, key);
  }

  @Override
  public boolean delete(BlobKey key) throws IOException {
    return blobs.existing(instance).delete(key);
  }

  @Override
  public BlobGcResult collectGarbage(Predicate<BlobKey> isReferenced, Duration gracePeriod) throws IOException {
    return blobs.existing(instance).collectGarbage(isReferenced, gracePeriod);
  }

  @Override
  public String toString() {
    return "blobs of instance " + instance + " shared by the hosts";
  }
}
