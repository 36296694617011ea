package dev.tether.server.jetstream;

import io.nats.client.Connection;
import io.nats.client.JetStreamApiException;
import io.nats.client.JetStreamOptions;
import io.nats.client.KeyValueOptions;
import io.nats.client.ObjectStoreOptions;
import io.nats.client.api.KeyValueConfiguration;
import io.nats.client.api.ObjectStoreConfiguration;
import io.nats.client.api.StorageType;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * Makes the two buckets of {@link JetStreamAttachments} when they are missing, as every host does
 * at start (concurrently: a bucket that exists, with this or another configuration, is used).
 * While a cluster is still forming (a request times out, or JetStream answers 10005 "no suitable
 * peers" or 10008 "temporarily unavailable") it retries with growing pauses for up to
 * {@value #WAIT_SECONDS} s. Stateless.
 */
final class AttachmentBuckets {
  static final int WAIT_SECONDS = 30;
  private static final Set<Integer> FORMING = Set.of(10005, 10008);
  private static final int EXISTS_OTHERWISE = 10058;

  private AttachmentBuckets() {}

  static void create(Connection nc, JetStreamOptions js, String bucket, int replicas) throws IOException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_SECONDS);
    for (int attempt = 0; ; attempt++) {
      try {
        createOnce(nc, js, bucket, replicas);
        return;
      } catch (IOException | JetStreamApiException e) {
        long pause = Math.min(1000, 100L << Math.min(attempt, 4));
        boolean forming = e instanceof JetStreamApiException api ? FORMING.contains(api.getApiErrorCode())
            : !(e instanceof InterruptedIOException);
        if (!forming || System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(pause) - deadline > 0) {
          throw new IOException("cannot open the attachment buckets " + bucket + " on NATS JetStream: " + e.getMessage(), e);
        }
        try {
          Thread.sleep(pause);
        } catch (InterruptedException ie) {
          Thread.currentThread().interrupt();
          throw new InterruptedIOException("interrupted while opening the attachment buckets");
        }
      }
    }
  }

  private static void createOnce(Connection nc, JetStreamOptions js, String bucket, int replicas)
      throws IOException, JetStreamApiException {
    try {
      nc.keyValueManagement(KeyValueOptions.builder().jetStreamOptions(js).build()).create(
          KeyValueConfiguration.builder(bucket).description("tether attachment manifests and byte counts")
              .maxHistoryPerKey(1).storageType(StorageType.File).replicas(replicas).build());
    } catch (JetStreamApiException e) {
      if (e.getApiErrorCode() != EXISTS_OTHERWISE) {
        throw e;
      }
    }
    try {
      nc.objectStoreManagement(ObjectStoreOptions.builder().jetStreamOptions(js).build()).create(
          ObjectStoreConfiguration.builder(bucket).description("tether attachment bytes").storageType(StorageType.File)
              .replicas(replicas).build());
    } catch (JetStreamApiException e) {
      if (e.getApiErrorCode() != EXISTS_OTHERWISE) {
        throw e;
      }
    }
  }
}
