package dev.tether.store;

/**
 * How much of each instance's history a store keeps in memory (and, for the durable store, on
 * disk). Oldest frames are evicted until both caps hold; the newest frame is always kept, even
 * when it alone exceeds the byte cap. Bytes are payload bytes ({@code Frame.payload().size()}).
 *
 * <p>With {@code deltasInRing} false, {@code assistant.delta} and {@code reasoning.delta} frames
 * get a seq and reach waiters and subscribers but are never retained, so a long stream of deltas
 * cannot evict the {@code user.message} / {@code assistant.done} history. Immutable.
 *
 * @param maxFrames the count cap, at least 1 (default 1000)
 * @param maxBytes the payload byte cap, at least 1 (default 128 MiB)
 * @param deltasInRing whether delta frames are retained (default true)
 */
public record Retention(int maxFrames, long maxBytes, boolean deltasInRing) {
  public static final int DEFAULT_MAX_FRAMES = 1000;
  public static final long DEFAULT_MAX_BYTES = 128L << 20;

  /** @throws IllegalArgumentException naming the setting when a cap is below 1 */
  public Retention {
    if (maxFrames < 1) {
      throw new IllegalArgumentException("maxFrames must be >= 1 but was " + maxFrames);
    }
    if (maxBytes < 1) {
      throw new IllegalArgumentException("maxBytes must be >= 1 but was " + maxBytes);
    }
  }

  /** 1000 frames, 128 MiB, deltas retained. */
  public static Retention defaults() {
    return new Retention(DEFAULT_MAX_FRAMES, DEFAULT_MAX_BYTES, true);
  }

  public static Builder builder() {
    return new Builder();
  }

  /** Builds a {@link Retention}; each setter fails fast on a bad value. Not thread-safe. */
  public static final class Builder {
    private int maxFrames = DEFAULT_MAX_FRAMES;
    private long maxBytes = DEFAULT_MAX_BYTES;
    private boolean deltasInRing = true;

    private Builder() {}

    public Builder maxFrames(int maxFrames) {
      if (maxFrames < 1) {
        throw new IllegalArgumentException("maxFrames must be >= 1 but was " + maxFrames);
      }
      this.maxFrames = maxFrames;
      return this;
    }

    public Builder maxBytes(long maxBytes) {
      if (maxBytes < 1) {
        throw new IllegalArgumentException("maxBytes must be >= 1 but was " + maxBytes);
      }
      this.maxBytes = maxBytes;
      return this;
    }

    public Builder deltasInRing(boolean deltasInRing) {
      this.deltasInRing = deltasInRing;
      return this;
    }

    public Retention build() {
      return new Retention(maxFrames, maxBytes, deltasInRing);
    }
  }
}
