package dev.tether.store;

/**
 * How much of each instance's history a store keeps in memory (and, for the durable store, on
 * disk). Oldest frames are evicted until both caps hold; the newest frame is always kept, even
 * when it alone exceeds the byte cap. Bytes are payload bytes ({@code Frame.payload().size()}).
 *
 * <p><b>Deltas are transient by default.</b> With {@code deltasInRing} false (the default),
 * {@code assistant.delta} and {@code reasoning.delta} frames get a seq (never reused, also across
 * a restart of a durable store) and reach waiters and subscribers, but are never retained: they
 * never evict or count against stored frames, a durable store never writes them, and a long
 * stream of deltas cannot evict the {@code user.message} / {@code assistant.done} history. The
 * newest of them stay in a small bounded live window per instance, so a poll that arrives a
 * moment late still sees them; a delta that left the window is not a gap (it is a piece of the
 * {@code assistant.done} that follows it). Set {@code deltasInRing(true)} to store deltas like
 * other frames (the behaviour before, and {@code tether serve --keep-deltas}). The JetStream store
 * treats them the same way for readers but still writes them to its stream (its seq is the stream
 * sequence); see {@code JetStreamTetherStore}. Immutable.
 *
 * @param maxFrames the count cap, at least 1 (default 1000)
 * @param maxBytes the payload byte cap, at least 1 (default 128 MiB)
 * @param deltasInRing whether delta frames are stored like other frames (default false:
 *     transient)
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

  /** 1000 frames, 128 MiB, deltas transient (not stored). */
  public static Retention defaults() {
    return new Retention(DEFAULT_MAX_FRAMES, DEFAULT_MAX_BYTES, false);
  }

  public static Builder builder() {
    return new Builder();
  }

  /** Builds a {@link Retention}; each setter fails fast on a bad value. Not thread-safe. */
  public static final class Builder {
    private int maxFrames = DEFAULT_MAX_FRAMES;
    private long maxBytes = DEFAULT_MAX_BYTES;
    private boolean deltasInRing = false;

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

    /** Whether deltas are stored like other frames; default false (transient, see the class doc). */
    public Builder deltasInRing(boolean deltasInRing) {
      this.deltasInRing = deltasInRing;
      return this;
    }

    public Retention build() {
      return new Retention(maxFrames, maxBytes, deltasInRing);
    }
  }
}
