package dev.tether.server.jetstream;

import io.nats.client.JetStreamApiException;
import io.nats.client.JetStreamManagement;
import io.nats.client.api.MessageInfo;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.ReadableByteChannel;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;

/**
 * One Object Store object's bytes as a channel that fetches its chunks one at a time, as they are
 * read: each {@link #read} that has consumed the chunk in hand asks the stream for the next chunk
 * message of the object ({@code $O.<bucket>.C.<nuid>}, a direct request by subject after the last
 * sequence read). However large the object and however slow the reader, it holds one chunk
 * (128 KiB by default), never the object.
 *
 * <p>Exactly {@code size} bytes are delivered. A chunk missing before that (the object was deleted
 * while it was read), more bytes than announced, or bytes whose SHA-256 is not the object's digest
 * fail the read with an {@link IOException}: the download is cut rather than completed with other
 * bytes. Not thread-safe (one reader, as a channel is used).
 */
final class ObjectChunks implements ReadableByteChannel {
  private final JetStreamManagement jsm;
  private final String stream;
  private final String subject;
  private final long size;
  private final String digest;
  private final MessageDigest sha;
  private ByteBuffer chunk = ByteBuffer.allocate(0);
  private long nextSeq = 1;
  private long delivered;
  private boolean open = true;

  /**
   * @param bucket the Object Store bucket
   * @param nuid the object's chunk id ({@code ObjectInfo.getNuid()})
   * @param size the object's size
   * @param digest the object's digest as the Object Store records it ({@code SHA-256=<base64url>})
   */
  ObjectChunks(JetStreamManagement jsm, String bucket, String nuid, long size, String digest) {
    this.jsm = jsm;
    this.stream = "OBJ_" + bucket;
    this.subject = "$O." + bucket + ".C." + nuid;
    this.size = size;
    this.digest = digest;
    try {
      this.sha = MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JDK has SHA-256", e);
    }
  }

  @Override
  public int read(ByteBuffer dst) throws IOException {
    if (!open) {
      throw new ClosedChannelException();
    }
    if (!chunk.hasRemaining()) {
      if (delivered == size) {
        return -1;
      }
      fetch();
    }
    int n = Math.min(dst.remaining(), chunk.remaining());
    ByteBuffer slice = chunk.slice(chunk.position(), n);
    dst.put(slice);
    chunk.position(chunk.position() + n);
    return n;
  }

  private void fetch() throws IOException {
    MessageInfo m;
    try {
      m = jsm.getNextMessage(stream, nextSeq, subject);
    } catch (JetStreamApiException e) {
      throw new IOException("the attachment's bytes ended after " + delivered + " of " + size
          + " bytes (deleted while it was read?): " + e.getMessage(), e);
    }
    byte[] data = m.getData() == null ? new byte[0] : m.getData();
    nextSeq = m.getSeq() + 1;
    if (delivered + data.length > size) {
      throw new IOException("the attachment holds more than its " + size + " bytes");
    }
    sha.update(data);
    delivered += data.length;
    if (delivered == size) {
      String got = "SHA-256=" + Base64.getUrlEncoder().encodeToString(sha.digest());
      if (!digestsMatch(got, digest)) {
        throw new IOException("the attachment's bytes do not match the digest they were stored with");
      }
    }
    chunk = ByteBuffer.wrap(data);
  }

  /** jnats writes the digest base64url with padding; compare without caring for padding. */
  private static boolean digestsMatch(String a, String b) {
    return b != null && strip(a).equals(strip(b));
  }

  private static String strip(String s) {
    int end = s.length();
    while (end > 0 && s.charAt(end - 1) == '=') {
      end--;
    }
    return s.substring(0, end);
  }

  @Override
  public boolean isOpen() {
    return open;
  }

  @Override
  public void close() {
    open = false;
    chunk = ByteBuffer.allocate(0);
  }
}
