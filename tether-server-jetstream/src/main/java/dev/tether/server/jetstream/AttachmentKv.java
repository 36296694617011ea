package dev.tether.server.jetstream;

import dev.tether.api.ErrorCode;
import dev.tether.api.TetherException;
import dev.tether.store.jetstream.StoreUnavailableException;
import io.nats.client.JetStreamApiException;
import io.nats.client.KeyValue;
import io.nats.client.api.KeyValueEntry;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The attachment KV bucket as {@link JetStreamAttachments} changes it: reads, compare-and-set on a
 * key's revision (a conflict is {@code false}, for the caller to read again and retry), purges,
 * and the byte count of a registration ({@link AttachmentKeys#usage}), to which {@link #reserve}
 * adds an upload's size only while the total stays within the budget. Thread-safe; every failure
 * to reach JetStream is a {@link StoreUnavailableException}.
 */
final class AttachmentKv {
  /** Compare-and-set attempts before a key is called too busy (503). */
  static final int MAX_CONFLICTS = 64;
  private static final int WRONG_LAST_SEQUENCE = 10071;
  private static final System.Logger LOG = System.getLogger(AttachmentKv.class.getName());

  private final KeyValue kv;

  AttachmentKv(KeyValue kv) {
    this.kv = kv;
  }

  /** The live entry at {@code key}, null when there is none (never set, deleted or purged). */
  KeyValueEntry get(String key) {
    try {
      KeyValueEntry e = kv.get(key);
      return e == null || e.getValue() == null ? null : e;
    } catch (IOException | JetStreamApiException e) {
      throw unavailable("read the attachments", e);
    }
  }

  /** Writes {@code value} at {@code key} when it still is {@code seen} (null: absent); false on a conflict. */
  boolean compareAndSet(String key, KeyValueEntry seen, byte[] value) {
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

  /** The keys matching {@code filter} ({@code *} for one token). */
  List<String> keys(String filter) throws InterruptedIOException {
    try {
      return kv.keys(filter);
    } catch (IOException | JetStreamApiException e) {
      throw unavailable("list the attachments", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while listing attachments");
    }
  }

  void purge(String key) {
    try {
      kv.purge(key);
    } catch (IOException | JetStreamApiException e) {
      throw unavailable("remove the attachments of a deleted instance", e);
    }
  }

  /** The bytes counted at {@code key}, 0 when none. */
  long count(String key) {
    KeyValueEntry e = get(key);
    return e == null ? 0 : count(e);
  }

  /**
   * Adds {@code bytes} to the count at {@code key} when the total stays within {@code max}.
   *
   * @throws TetherException {@code INSUFFICIENT_STORAGE} when it would not (nothing added)
   */
  void reserve(String key, long bytes, long max, String instance) {
    for (int attempt = 0; attempt < MAX_CONFLICTS; attempt++) {
      KeyValueEntry e = get(key);
      long used = e == null ? 0 : count(e);
      if (used > max - bytes) {
        throw TetherException.of(ErrorCode.INSUFFICIENT_STORAGE, "instance '" + instance + "' keeps " + used
            + " bytes of attachments on every host; this upload of " + bytes + " bytes would pass its disk budget."
            + " Delete attachments (DELETE /v1/instances/{id}/attachments/{name}) first");
      }
      if (compareAndSet(key, e, ascii(used + bytes))) {
        return;
      }
    }
    throw busy(key);
  }

  /** Takes {@code bytes} off the count at {@code key}; best effort (a failure leaves them counted, and is logged). */
  void release(String key, long bytes) {
    try {
      for (int attempt = 0; attempt < MAX_CONFLICTS; attempt++) {
        KeyValueEntry e = get(key);
        if (e == null || compareAndSet(key, e, ascii(Math.max(0, count(e) - bytes)))) {
          return;
        }
      }
      throw busy(key);
    } catch (RuntimeException e) {
      LOG.log(System.Logger.Level.WARNING, "giving back {0} bytes of the attachment count {1} failed: {2}", bytes, key,
          e.toString());
    }
  }

  private static long count(KeyValueEntry e) {
    try {
      return Long.parseLong(e.getValueAsString());
    } catch (RuntimeException ex) {
      throw new StoreUnavailableException("the attachment count " + e.getKey() + " on NATS JetStream is damaged", ex);
    }
  }

  private static byte[] ascii(long n) {
    return Long.toString(n).getBytes(StandardCharsets.US_ASCII);
  }

  static StoreUnavailableException busy(String key) {
    return new StoreUnavailableException("the attachments at " + key + " changed " + MAX_CONFLICTS
        + " times while this host tried to change them; retry", null);
  }

  static StoreUnavailableException unavailable(String what, Exception cause) {
    return new StoreUnavailableException("the attachments on NATS JetStream could not " + what
        + " (servers unreachable, or the bucket has no leader); retry later. Cause: " + cause, cause);
  }
}
