package dev.tether.api.blobs;

import java.io.IOException;
import java.util.Objects;

/**
 * A stored blob whose bytes no longer hash to its key (disk corruption, a truncated copy, a file
 * edited by hand). An environment failure, hence an {@link IOException}; callers that assemble a
 * conversation drop the image and keep going.
 */
public final class BlobCorruptedException extends IOException {
  private static final long serialVersionUID = 1L;

  private final transient BlobKey key;

  public BlobCorruptedException(BlobKey key, String message) {
    super("blob " + Objects.requireNonNull(key, "key") + " is corrupt: " + message);
    this.key = key;
  }

  /** The blob that failed verification. */
  public BlobKey key() {
    return key;
  }
}
