package dev.tether.store.jetstream.internal;

import io.nats.client.JetStream;
import io.nats.client.JetStreamApiException;
import io.nats.client.JetStreamManagement;
import io.nats.client.JetStreamSubscription;
import io.nats.client.Message;
import io.nats.client.PushSubscribeOptions;
import io.nats.client.api.MessageInfo;
import io.nats.client.api.ObjectInfo;
import io.nats.client.support.NatsObjectStoreUtil;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.security.MessageDigest;
import java.time.Duration;

/**
 * Reads an Object Store object's bytes from its chunks, given the {@link ObjectInfo} the caller
 * already looked up: jnats' {@code ObjectStore.get} looks the info up again before it reads, so a
 * read that checked the object first (size, existence) paid two lookups. Reads the chunk subject
 * {@code $O.<bucket>.C.<nuid>} of the object's stream as jnats does (one direct get for a
 * one-chunk object, else an ordered push consumer), straight into one array of the announced size,
 * and feeds every chunk to the caller's digest on the way. Stateless; blocks the caller.
 */
public final class ObjectChunks {
  /** The chunks an object announces do not add up to its size: the object is corrupt or was replaced. */
  public static final class Mismatch extends IOException {
    private static final long serialVersionUID = 1L;

    Mismatch(String message) {
      super(message);
    }
  }

  private ObjectChunks() {}

  /**
   * The bytes of the object {@code info} describes in {@code bucket}: exactly {@code info.getSize()}
   * bytes in {@code info.getChunks()} chunks, each passed to {@code digest}.
   *
   * @param chunkTimeout how long to wait for each chunk
   * @throws Mismatch when the chunks hold more or fewer bytes, or another count, than announced
   * @throws IOException when JetStream does not deliver a chunk in time
   */
  public static byte[] read(JetStream js, JetStreamManagement jsm, String bucket, ObjectInfo info, MessageDigest digest,
      Duration chunkTimeout) throws IOException, JetStreamApiException {
    long size = info.getSize();
    long chunks = info.getChunks();
    if (size < 0 || size > Integer.MAX_VALUE - 8 || chunks < 0 || (chunks == 0) != (size == 0)) {
      throw new Mismatch("object " + info.getObjectName() + " announces " + size + " bytes in " + chunks + " chunks");
    }
    byte[] bytes = new byte[(int) size];
    if (chunks == 0) {
      return bytes;
    }
    String stream = NatsObjectStoreUtil.toStreamName(bucket);
    String subject = NatsObjectStoreUtil.toChunkPrefix(bucket) + info.getNuid();
    if (chunks == 1) {
      MessageInfo m = jsm.getLastMessage(stream, subject);
      put(bytes, 0, m.getData(), digest, info);
      return complete(bytes, m.getData().length, info);
    }
    JetStreamSubscription sub = js.subscribe(subject, PushSubscribeOptions.builder().stream(stream).ordered(true).build());
    try {
      int filled = 0;
      for (long c = 0; c < chunks; c++) {
        Message m = sub.nextMessage(chunkTimeout);
        if (m == null) {
          throw new IOException("object " + info.getObjectName() + " in " + bucket + ": chunk " + (c + 1) + " of "
              + chunks + " did not arrive within " + chunkTimeout.toMillis() + " ms");
        }
        filled = put(bytes, filled, m.getData(), digest, info);
      }
      return complete(bytes, filled, info);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while reading " + info.getObjectName());
    } finally {
      try {
        sub.unsubscribe();
      } catch (RuntimeException ignored) {
        // closed connection: the ephemeral consumer goes with it
      }
    }
  }

  private static int put(byte[] bytes, int at, byte[] chunk, MessageDigest digest, ObjectInfo info) throws Mismatch {
    if (chunk == null) {
      chunk = new byte[0];
    }
    if (chunk.length > bytes.length - at) {
      throw new Mismatch("object " + info.getObjectName() + " has more bytes than the announced " + bytes.length);
    }
    System.arraycopy(chunk, 0, bytes, at, chunk.length);
    digest.update(chunk);
    return at + chunk.length;
  }

  private static byte[] complete(byte[] bytes, int filled, ObjectInfo info) throws Mismatch {
    if (filled != bytes.length) {
      throw new Mismatch("object " + info.getObjectName() + " has " + filled + " bytes, not the announced " + bytes.length);
    }
    return bytes;
  }
}
