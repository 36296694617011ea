package dev.tether.store.jetstream;

import dev.tether.api.Frame;
import dev.tether.api.Limits;
import dev.tether.api.MediaType;
import dev.tether.api.blobs.BlobCorruptedException;
import dev.tether.api.blobs.BlobKey;
import dev.tether.store.TetherStore;
import dev.tether.store.jetstream.internal.ImageOffload;
import dev.tether.store.jetstream.internal.Names;
import dev.tether.store.jetstream.internal.StreamAdmin;
import io.nats.client.Connection;
import io.nats.client.JetStream;
import io.nats.client.JetStreamApiException;
import io.nats.client.JetStreamManagement;
import io.nats.client.ObjectStoreManagement;
import io.nats.client.api.ObjectStoreConfiguration;
import io.nats.client.api.StorageType;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The image half of the store: one Object Store bucket per instance for the image bytes of its
 * frames, created on first write with the store's replicas, so a blob stored on one host is served
 * and accepted by every host. The store's public blob methods delegate here; their Javadoc states
 * the contracts.
 *
 * <p>Concurrency: thread-safe. Opened buckets are cached in a concurrent map (a bucket is created
 * or opened once per instance and process, inside the map's compute); reads never create a bucket
 * and use a fresh handle when none is cached. The cache entry goes when the instance is removed.
 * Every call blocks on JetStream on the caller's thread.
 */
final class InstanceBlobs {
  private static final int BUCKET_NAME_IN_USE = 10058;
  private static final int BUCKET_NOT_FOUND = 10059;

  private final ConcurrentHashMap<String, ObjectStoreBlobStore> buckets = new ConcurrentHashMap<>();
  private final Connection nc;
  private final ObjectStoreManagement osm;
  private final JetStream js;
  private final JetStreamManagement jsm;
  private final Names names;
  private final int replicas;
  private final Duration timeout;
  private final Lifecycle lifecycle;

  /** @param timeout the store's append timeout, named when JetStream does not answer */
  InstanceBlobs(Connection nc, Names names, int replicas, Duration timeout, Lifecycle lifecycle) throws IOException {
    this.nc = nc;
    this.osm = nc.objectStoreManagement();
    this.js = nc.jetStream();
    this.jsm = nc.jetStreamManagement();
    this.names = names;
    this.replicas = replicas;
    this.timeout = timeout;
    this.lifecycle = lifecycle;
  }

  /** The bucket of {@code instance}, created on first use. */
  ObjectStoreBlobStore bucket(String instance) {
    TetherStore.requireInstance(instance);
    lifecycle.checkOpen();
    return buckets.computeIfAbsent(instance, i -> {
      String bucket = names.bucket(i);
      try {
        try {
          osm.create(ObjectStoreConfiguration.builder(bucket).storageType(StorageType.File).replicas(replicas).build());
        } catch (JetStreamApiException e) {
          if (e.getApiErrorCode() != BUCKET_NAME_IN_USE) { // exists with another configuration: use it
            throw e;
          }
        }
        return new ObjectStoreBlobStore(nc.objectStore(bucket), js, jsm, Limits.defaults());
      } catch (IOException | JetStreamApiException e) {
        throw StreamAdmin.unavailable(i, timeout, e);
      }
    });
  }

  byte[] read(String instance, BlobKey key) throws IOException {
    Objects.requireNonNull(key, "key");
    try {
      return existing(instance).get(key);
    } catch (NoSuchFileException | BlobCorruptedException e) {
      throw e;
    } catch (IOException e) {
      throw StreamAdmin.unavailable(instance, timeout, e);
    }
  }

  boolean has(String instance, BlobKey key) {
    Objects.requireNonNull(key, "key");
    try {
      return existing(instance).exists(key);
    } catch (IOException e) {
      throw StreamAdmin.unavailable(instance, timeout, e);
    }
  }

  BlobKey put(String instance, byte[] bytes, MediaType mediaType) {
    try {
      return bucket(instance).put(bytes, mediaType);
    } catch (IOException e) {
      throw StreamAdmin.unavailable(instance, timeout, e);
    }
  }

  BlobKey put(String instance, BlobKey key, byte[] bytes) {
    try {
      return bucket(instance).put(key, bytes);
    } catch (IOException e) {
      throw StreamAdmin.unavailable(instance, timeout, e);
    }
  }

  /** {@code frame} with its blob refs replaced by the bytes from {@code instance}'s bucket. */
  Frame inline(String instance, Frame frame) throws IOException {
    return ImageOffload.toInline(Objects.requireNonNull(frame, "frame"), bucket(instance));
  }

  /** Deletes {@code instance}'s bucket, if it has one (see {@link #forget} for its handle). */
  void delete(String instance) throws IOException, JetStreamApiException {
    try {
      osm.delete(names.bucket(instance));
    } catch (JetStreamApiException e) {
      if (e.getApiErrorCode() != BUCKET_NOT_FOUND) { // the instance never had images
        throw e;
      }
    }
  }

  /** Forgets the cached handle of {@code instance}'s bucket (it was removed, here or elsewhere). */
  void forget(String instance) {
    buckets.remove(instance);
  }

  /** The bucket's handle for reading: the cached one, else one that does not create the bucket. */
  ObjectStoreBlobStore existing(String instance) throws IOException {
    TetherStore.requireInstance(instance);
    lifecycle.checkOpen();
    ObjectStoreBlobStore cached = buckets.get(instance);
    return cached != null ? cached : new ObjectStoreBlobStore(nc.objectStore(names.bucket(instance)), js, jsm, Limits.defaults());
  }
}
