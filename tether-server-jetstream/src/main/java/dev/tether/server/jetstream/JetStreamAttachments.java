package dev.tether.server.jetstream;

import dev.tether.api.ErrorCode;
import dev.tether.api.TetherException;
import dev.tether.server.SharedAttachments;
import dev.tether.store.jetstream.JetStreamTetherStore;
import dev.tether.store.jetstream.StoreUnavailableException;
import io.nats.client.Connection;
import io.nats.client.JetStreamApiException;
import io.nats.client.JetStreamManagement;
import io.nats.client.JetStreamOptions;
import io.nats.client.KeyValue;
import io.nats.client.KeyValueOptions;
import io.nats.client.ObjectStore;
import io.nats.client.ObjectStoreOptions;
import io.nats.client.api.KeyValueEntry;
import io.nats.client.api.ObjectInfo;
import io.nats.client.api.ObjectMeta;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.charset.StandardCharsets;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.IntFunction;

/**
 * The session attachments every host on the same NATS servers (and subject prefix) shares:
 * bytes in an Object Store bucket of their own ({@code <PREFIX>_ATTACHMENTS}), and in a KV bucket
 * of the same name one manifest per session (name, MIME type, size, time, the object) and one
 * byte count per registration of an instance (see {@link AttachmentKeys}). File storage, the
 * store's replicas.
 *
 * <p><b>Atomicity across hosts.</b> Every change of a manifest or a count is a compare-and-set on
 * the key's revision, retried on a conflict: two hosts saving {@code a.txt} to one session at once
 * store {@code a.txt} and {@code a-1.txt}; two uploads that each fit the budget but not together
 * get one 201 and one 507. A save reserves its bytes in the count first, then writes the object,
 * then lists it (so a listed attachment always has its bytes); a failure after the reservation
 * gives it back and deletes the object. A delete unlists first, then deletes the object and gives
 * the bytes back. A host that dies between those steps leaves bytes counted (or an unlisted
 * object) until the instance is deleted: the budget errs on the side of refusing.
 *
 * <p><b>Generations.</b> Keys and objects carry the registration's {@code createdAt}, so a
 * re-created id reads other keys and starts with none.
 *
 * <p><b>Reads</b> stream the object's chunks one at a time ({@link ObjectChunks}), one KV get
 * before them. A session holds at most {@value #MAX_ATTACHMENTS} attachments and a manifest
 * {@value #MAX_MANIFEST_BYTES} bytes (about 2,000 attachments with long names); past either an
 * upload is {@code INVALID_UPLOAD}.
 *
 * <p>Thread-safe; no state but the buckets' handles. Calls JetStream does not answer throw
 * {@link StoreUnavailableException} (503).
 */
final class JetStreamAttachments implements SharedAttachments {
  static final int MAX_ATTACHMENTS = 10_000;
  static final int MAX_MANIFEST_BYTES = 512 * 1024;
  private static final int MAX_CONFLICTS = 64;
  private static final int WRONG_LAST_SEQUENCE = 10071;

  private final String bucket;
  private final KeyValue kv;
  private final ObjectStore objects;
  private final JetStreamManagement jsm;
  private final Clock clock;

  private JetStreamAttachments(String bucket, KeyValue kv, ObjectStore objects, JetStreamManagement jsm, Clock clock) {
    this.bucket = bucket;
    this.kv = kv;
    this.objects = objects;
    this.jsm = jsm;
    this.clock = clock;
  }

  /**
   * Opens (creating when absent) the attachment buckets of {@code store}'s connection, prefix and
   * replicas, waiting up to 30 s for a cluster that is still forming.
   *
   * @throws IOException when JetStream cannot be reached or the buckets cannot be made
   */
  static JetStreamAttachments open(JetStreamTetherStore store) throws IOException {
    Connection nc = store.connection();
    String bucket = store.subjectPrefix().toUpperCase(Locale.ROOT).replace('.', '_') + "_ATTACHMENTS";
    JetStreamOptions js = JetStreamOptions.builder().requestTimeout(Duration.ofSeconds(5)).build();
    AttachmentBuckets.create(nc, js, bucket, store.replicas());
    return new JetStreamAttachments(bucket, nc.keyValue(bucket, KeyValueOptions.builder().jetStreamOptions(js).build()),
        nc.objectStore(bucket, ObjectStoreOptions.builder().jetStreamOptions(js).build()), nc.jetStreamManagement(js),
        Clock.systemUTC());
  }

  @Override
  public Stored save(Place place, IntFunction<String> names, String mimeType, byte[] bytes, long maxTotalBytes) throws IOException {
    String usage = AttachmentKeys.usage(place.instance(), place.generation());
    reserve(usage, bytes.length, maxTotalBytes, place.instance());
    String object = AttachmentKeys.object(place);
    boolean listed = false;
    try {
      ObjectInfo info = put(object, bytes);
      Stored stored = list(place, names, mimeType, bytes.length, object, info);
      listed = true;
      return stored;
    } finally {
      if (!listed) {
        release(usage, bytes.length);
        deleteObject(object);
      }
    }
  }

  private ObjectInfo put(String object, byte[] bytes) {
    try {
      return objects.put(ObjectMeta.builder(object).description("tether attachment").build(), new ByteArrayInputStream(bytes));
    } catch (IOException | JetStreamApiException | NoSuchAlgorithmException e) {
      throw unavailable("store an attachment's bytes", e);
    }
  }

  /** Lists the stored object in the session's manifest under the first free name. */
  private Stored list(Place place, IntFunction<String> names, String mimeType, long size, String object, ObjectInfo info) {
    String key = AttachmentKeys.manifest(place);
    for (int attempt = 0; attempt < MAX_CONFLICTS; attempt++) {
      KeyValueEntry e = get(key);
      AttachmentManifest m = manifest(place, key, e);
      if (m.entries().size() >= MAX_ATTACHMENTS) {
        throw TetherException.of(ErrorCode.INVALID_UPLOAD, "the session already holds " + m.entries().size()
            + " attachments, its limit");
      }
      String name = names.apply(0);
      for (int n = 1; m.taken(name); n++) {
        name = names.apply(n);
      }
      Stored stored = new Stored(name, mimeType, size, clock.instant());
      byte[] next = m.with(new AttachmentManifest.Entry(stored, object, info.getNuid(), info.getDigest())).toJson();
      if (next.length > MAX_MANIFEST_BYTES) {
        throw TetherException.of(ErrorCode.INVALID_UPLOAD, "the session's attachment list is full (" + m.entries().size()
            + " attachments); delete some first");
      }
      if (compareAndSet(key, e, next)) {
        return stored;
      }
    }
    throw busy(key);
  }

  @Override
  public List<Stored> list(Place place) {
    String key = AttachmentKeys.manifest(place);
    return manifest(place, key, get(key)).entries().stream().map(AttachmentManifest.Entry::stored).toList();
  }

  @Override
  public Optional<Download> open(Place place, String name) {
    String key = AttachmentKeys.manifest(place);
    return manifest(place, key, get(key)).find(name).map(e -> new Download(e.stored(),
        new ObjectChunks(jsm, bucket, e.nuid(), e.stored().size(), e.digest())));
  }

  @Override
  public Optional<Stored> remove(Place place, String name) {
    String key = AttachmentKeys.manifest(place);
    for (int attempt = 0; attempt < MAX_CONFLICTS; attempt++) {
      KeyValueEntry e = get(key);
      AttachmentManifest m = manifest(place, key, e);
      Optional<AttachmentManifest.Entry> gone = m.find(name);
      if (gone.isEmpty()) {
        return Optional.empty();
      }
      if (compareAndSet(key, e, m.without(gone.get()).toJson())) {
        deleteObject(gone.get().object());
        release(AttachmentKeys.usage(place.instance(), place.generation()), gone.get().stored().size());
        return Optional.of(gone.get().stored());
      }
    }
    throw busy(key);
  }

  @Override
  public long bytes(String instance, Instant generation) {
    KeyValueEntry e = get(AttachmentKeys.usage(instance, generation));
    return e == null ? 0 : count(e);
  }

  @Override
  public void removeInstance(String instance, Instant generation) throws IOException {
    List<String> keys;
    try {
      keys = kv.keys(AttachmentKeys.manifests(instance, generation));
    } catch (JetStreamApiException e) {
      throw unavailable("list the attachments of a deleted instance", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while removing attachments");
    }
    for (String key : keys) {
      KeyValueEntry e = get(key);
      if (e != null) {
        for (AttachmentManifest.Entry a : AttachmentManifest.parse(key, e.getValue()).entries()) {
          deleteObject(a.object());
        }
      }
      purge(key);
    }
    purge(AttachmentKeys.usage(instance, generation));
  }

  /** Adds {@code bytes} to the count at {@code key} when the total stays within {@code max}. */
  private void reserve(String key, long bytes, long max, String instance) {
    for (int attempt = 0; attempt < MAX_CONFLICTS; attempt++) {
      KeyValueEntry e = get(key);
      long used = e == null ? 0 : count(e);
      if (used > max - bytes) {
        throw TetherException.of(ErrorCode.INSUFFICIENT_STORAGE, "instance '" + instance + "' keeps " + used
            + " bytes of attachments on every host; this upload of " + bytes + " bytes would pass its disk budget."
            + " Delete attachments (DELETE /v1/instances/{id}/attachments/{name}) first");
      }
      if (compareAndSet(key, e, Long.toString(used + bytes).getBytes(StandardCharsets.US_ASCII))) {
        return;
      }
    }
    throw busy(key);
  }

  /** Takes {@code bytes} off the count at {@code key}; best effort (a failure leaves them counted). */
  private void release(String key, long bytes) {
    try {
      for (int attempt = 0; attempt < MAX_CONFLICTS; attempt++) {
        KeyValueEntry e = get(key);
        if (e == null) {
          return;
        }
        long next = Math.max(0, count(e) - bytes);
        if (compareAndSet(key, e, Long.toString(next).getBytes(StandardCharsets.US_ASCII))) {
          return;
        }
      }
    } catch (RuntimeException e) {
      log("giving back " + bytes + " bytes of the attachment count " + key, e);
    }
  }

  private AttachmentManifest manifest(Place place, String key, KeyValueEntry e) {
    if (e == null) {
      return AttachmentManifest.empty(place);
    }
    AttachmentManifest m = AttachmentManifest.parse(key, e.getValue());
    if (!m.isOf(place)) {
      throw TetherException.of(ErrorCode.INVALID_ARGUMENT, "the attachments of this session cannot be kept: its key"
          + " collides with another session's; use another session id");
    }
    return m;
  }

  private static long count(KeyValueEntry e) {
    try {
      return Long.parseLong(e.getValueAsString());
    } catch (RuntimeException ex) {
      throw new StoreUnavailableException("the attachment count " + e.getKey() + " on NATS JetStream is damaged", ex);
    }
  }

  /** The live entry at {@code key}, null when there is none (never set, deleted or purged). */
  private KeyValueEntry get(String key) {
    try {
      KeyValueEntry e = kv.get(key);
      return e == null || e.getValue() == null ? null : e;
    } catch (IOException | JetStreamApiException e) {
      throw unavailable("read the attachments", e);
    }
  }

  /** Writes {@code value} at {@code key} when it still is {@code seen} (null: absent); false on a conflict. */
  private boolean compareAndSet(String key, KeyValueEntry seen, byte[] value) {
    try {
      if (seen == null) {
        kv.create(key, value);
      } else {
        kv.update(key, value, seen.getRevision());
      }
      return true;
    } catch (JetStreamApiException e) {
      if (e.getApiErrorCode() == WRONG_LAST_SEQUENCE) {
        return false;
      }
      throw unavailable("update the attachments", e);
    } catch (IOException e) {
      throw unavailable("update the attachments", e);
    }
  }

  private void purge(String key) {
    try {
      kv.purge(key);
    } catch (IOException | JetStreamApiException e) {
      throw unavailable("remove the attachments of a deleted instance", e);
    }
  }

  private void deleteObject(String object) {
    try {
      objects.delete(object);
    } catch (IOException | JetStreamApiException | RuntimeException e) {
      log("deleting the attachment object " + object, e);
    }
  }

  private static void log(String what, Exception e) {
    System.getLogger(JetStreamAttachments.class.getName()).log(System.Logger.Level.WARNING, "{0} failed: {1}", what,
        e.toString());
  }

  private static StoreUnavailableException busy(String key) {
    return new StoreUnavailableException("the attachments at " + key + " changed " + MAX_CONFLICTS
        + " times while this host tried to change them; retry", null);
  }

  private static StoreUnavailableException unavailable(String what, Exception cause) {
    return new StoreUnavailableException("the attachments on NATS JetStream could not " + what
        + " (servers unreachable, or the bucket has no leader); retry later. Cause: " + cause, cause);
  }
}
