package dev.tether.server.jetstream;

import dev.tether.api.ErrorCode;
import dev.tether.api.TetherException;
import dev.tether.server.SharedAttachments;
import dev.tether.store.jetstream.JetStreamTetherStore;
import io.nats.client.Connection;
import io.nats.client.JetStreamApiException;
import io.nats.client.JetStreamManagement;
import io.nats.client.JetStreamOptions;
import io.nats.client.KeyValueOptions;
import io.nats.client.ObjectStore;
import io.nats.client.ObjectStoreOptions;
import io.nats.client.api.KeyValueEntry;
import io.nats.client.api.ObjectInfo;
import io.nats.client.api.ObjectMeta;
import java.io.ByteArrayInputStream;
import java.io.IOException;
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
 * <p>Thread-safe; no state but the buckets' handles (the KV through {@link AttachmentKv}). Calls JetStream does not answer throw
 * {@link dev.tether.store.jetstream.StoreUnavailableException} (503).
 */
final class JetStreamAttachments implements SharedAttachments {
  static final int MAX_ATTACHMENTS = 10_000;
  private static final System.Logger LOG = System.getLogger(JetStreamAttachments.class.getName());
  static final int MAX_MANIFEST_BYTES = 512 * 1024;

  private final String bucket;
  private final AttachmentKv kv;
  private final ObjectStore objects;
  private final JetStreamManagement jsm;
  private final Clock clock;

  private JetStreamAttachments(String bucket, AttachmentKv kv, ObjectStore objects, JetStreamManagement jsm, Clock clock) {
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
    return new JetStreamAttachments(bucket, new AttachmentKv(nc.keyValue(bucket, KeyValueOptions.builder().jetStreamOptions(js).build())),
        nc.objectStore(bucket, ObjectStoreOptions.builder().jetStreamOptions(js).build()), nc.jetStreamManagement(js),
        Clock.systemUTC());
  }

  @Override
  public Stored save(Place place, IntFunction<String> names, String mimeType, byte[] bytes, long maxTotalBytes) throws IOException {
    String usage = AttachmentKeys.usage(place.instance(), place.generation());
    kv.reserve(usage, bytes.length, maxTotalBytes, place.instance());
    String object = AttachmentKeys.object(place);
    boolean listed = false;
    try {
      ObjectInfo info = put(object, bytes);
      Stored stored = list(place, names, mimeType, bytes.length, object, info);
      listed = true;
      return stored;
    } finally {
      if (!listed) {
        kv.release(usage, bytes.length);
        deleteObject(object);
      }
    }
  }

  private ObjectInfo put(String object, byte[] bytes) {
    try {
      return objects.put(ObjectMeta.builder(object).description("tether attachment").build(), new ByteArrayInputStream(bytes));
    } catch (IOException | JetStreamApiException | NoSuchAlgorithmException e) {
      throw AttachmentKv.unavailable("store an attachment's bytes", e);
    }
  }

  /** Lists the stored object in the session's manifest under the first free name. */
  private Stored list(Place place, IntFunction<String> names, String mimeType, long size, String object, ObjectInfo info) {
    String key = AttachmentKeys.manifest(place);
    for (int attempt = 0; attempt < AttachmentKv.MAX_CONFLICTS; attempt++) {
      KeyValueEntry e = kv.get(key);
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
      if (kv.compareAndSet(key, e, next)) {
        return stored;
      }
    }
    throw AttachmentKv.busy(key);
  }

  @Override
  public List<Stored> list(Place place) {
    String key = AttachmentKeys.manifest(place);
    return manifest(place, key, kv.get(key)).entries().stream().map(AttachmentManifest.Entry::stored).toList();
  }

  @Override
  public Optional<Download> open(Place place, String name) {
    String key = AttachmentKeys.manifest(place);
    return manifest(place, key, kv.get(key)).find(name).map(e -> new Download(e.stored(),
        new ObjectChunks(jsm, bucket, e.nuid(), e.stored().size(), e.digest())));
  }

  @Override
  public Optional<Stored> remove(Place place, String name) {
    String key = AttachmentKeys.manifest(place);
    for (int attempt = 0; attempt < AttachmentKv.MAX_CONFLICTS; attempt++) {
      KeyValueEntry e = kv.get(key);
      AttachmentManifest m = manifest(place, key, e);
      Optional<AttachmentManifest.Entry> gone = m.find(name);
      if (gone.isEmpty()) {
        return Optional.empty();
      }
      if (kv.compareAndSet(key, e, m.without(gone.get()).toJson())) {
        deleteObject(gone.get().object());
        kv.release(AttachmentKeys.usage(place.instance(), place.generation()), gone.get().stored().size());
        return Optional.of(gone.get().stored());
      }
    }
    throw AttachmentKv.busy(key);
  }

  @Override
  public long bytes(String instance, Instant generation) {
    return kv.count(AttachmentKeys.usage(instance, generation));
  }

  @Override
  public void removeInstance(String instance, Instant generation) throws IOException {
    for (String key : kv.keys(AttachmentKeys.manifests(instance, generation))) {
      KeyValueEntry e = kv.get(key);
      if (e != null) {
        for (AttachmentManifest.Entry a : AttachmentManifest.parse(key, e.getValue()).entries()) {
          deleteObject(a.object());
        }
      }
      kv.purge(key);
    }
    kv.purge(AttachmentKeys.usage(instance, generation));
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

  private void deleteObject(String object) {
    try {
      objects.delete(object);
    } catch (IOException | JetStreamApiException | RuntimeException e) {
      LOG.log(System.Logger.Level.WARNING, "deleting the attachment object {0} failed: {1}", object, e.toString());
    }
  }
}
