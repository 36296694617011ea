package dev.tether.sessions;

import dev.tether.api.blobs.BlobKey;
import dev.tether.api.blobs.BlobCorruptedException;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.security.MessageDigest;

/** Hashes what passes through and checks the hash against the key at the end of the stream. Not thread-safe. */
final class VerifyingInputStream extends FilterInputStream {
  private final BlobKey key;
  private final MessageDigest digest = BlobKey.sha256();
  private final long maxBytes;
  private long count;
  private boolean verified;

  VerifyingInputStream(BlobKey key, InputStream in, long maxBytes) {
    super(in);
    this.key = key;
    this.maxBytes = maxBytes;
  }

  @Override
  public int read() throws IOException {
    byte[] one = new byte[1];
    int n = read(one, 0, 1);
    return n < 0 ? -1 : one[0] & 0xff;
  }

  @Override
  public int read(byte[] b, int off, int len) throws IOException {
    int n = in.read(b, off, len);
    if (n < 0) {
      verify();
      return -1;
    }
    count += n;
    if (count > maxBytes) {
      throw new BlobCorruptedException(key, "it is over the limit of " + maxBytes + " bytes");
    }
    digest.update(b, off, n);
    return n;
  }

  @Override
  public long skip(long n) throws IOException {
    // Skipped bytes must still be hashed, so skip by reading.
    byte[] buf = new byte[(int) Math.min(8192, Math.max(1, n))];
    long skipped = 0;
    while (skipped < n) {
      int r = read(buf, 0, (int) Math.min(buf.length, n - skipped));
      if (r < 0) {
        break;
      }
      skipped += r;
    }
    return skipped;
  }

  @Override
  public boolean markSupported() {
    return false;
  }

  private void verify() throws IOException {
    if (!verified) {
      verified = true;
      if (!key.matches(digest.digest())) {
        throw new BlobCorruptedException(key, "its bytes do not hash to its key");
      }
    }
  }
}
