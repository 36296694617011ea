package dev.tether.api;

/**
 * Size and count limits for images and frames. Producers reject input beyond them; consumers
 * check again.
 *
 * <p>The defaults are the protocol's: 10 MiB decoded per image, 20 MiB decoded per frame, 4
 * images per message and 28 MiB on the wire. Instances are immutable and thread-safe.
 *
 * <pre>{@code
 * Limits limits = Limits.builder().maxImagesPerMessage(2).build();
 * }</pre>
 */
public final class Limits {
  /** 10 MiB: the largest decoded image. */
  public static final long MAX_IMAGE_BYTES = 10L << 20;
  /** 20 MiB: the largest decoded total of all images in one frame. */
  public static final long MAX_FRAME_IMAGE_BYTES = 20L << 20;
  /** 4: the most images in one message. */
  public static final int MAX_IMAGES_PER_MESSAGE = 4;
  /** 28 MiB: the largest encoded frame on the wire ({@code MaxFrameBytes}). */
  public static final int MAX_FRAME_BYTES = 28 << 20;

  private static final Limits DEFAULTS = builder().build();

  private final long maxImageBytes;
  private final long maxFrameImageBytes;
  private final int maxImagesPerMessage;
  private final int maxFrameBytes;

  private Limits(Builder builder) {
    this.maxImageBytes = builder.maxImageBytes;
    this.maxFrameImageBytes = builder.maxFrameImageBytes;
    this.maxImagesPerMessage = builder.maxImagesPerMessage;
    this.maxFrameBytes = builder.maxFrameBytes;
  }

  /** The protocol's default limits. */
  public static Limits defaults() {
    return DEFAULTS;
  }

  public static Builder builder() {
    return new Builder();
  }

  /** A builder starting from these limits. */
  public Builder toBuilder() {
    return new Builder()
        .maxImageBytes(maxImageBytes)
        .maxFrameImageBytes(maxFrameImageBytes)
        .maxImagesPerMessage(maxImagesPerMessage)
        .maxFrameBytes(maxFrameBytes);
  }

  public long maxImageBytes() {
    return maxImageBytes;
  }

  public long maxFrameImageBytes() {
    return maxFrameImageBytes;
  }

  public int maxImagesPerMessage() {
    return maxImagesPerMessage;
  }

  public int maxFrameBytes() {
    return maxFrameBytes;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Limits other
        && maxImageBytes == other.maxImageBytes
        && maxFrameImageBytes == other.maxFrameImageBytes
        && maxImagesPerMessage == other.maxImagesPerMessage
        && maxFrameBytes == other.maxFrameBytes;
  }

  @Override
  public int hashCode() {
    return Long.hashCode(maxImageBytes) * 31 * 31 * 31
        + Long.hashCode(maxFrameImageBytes) * 31 * 31
        + maxImagesPerMessage * 31
        + maxFrameBytes;
  }

  @Override
  public String toString() {
    return "Limits{maxImageBytes=" + maxImageBytes
        + ", maxFrameImageBytes=" + maxFrameImageBytes
        + ", maxImagesPerMessage=" + maxImagesPerMessage
        + ", maxFrameBytes=" + maxFrameBytes + "}";
  }

  /** Builds {@link Limits}; each setter fails fast on a value that can never be right. */
  public static final class Builder {
    private long maxImageBytes = MAX_IMAGE_BYTES;
    private long maxFrameImageBytes = MAX_FRAME_IMAGE_BYTES;
    private int maxImagesPerMessage = MAX_IMAGES_PER_MESSAGE;
    private int maxFrameBytes = MAX_FRAME_BYTES;

    private Builder() {}

    public Builder maxImageBytes(long maxImageBytes) {
      requirePositive("maxImageBytes", maxImageBytes);
      this.maxImageBytes = maxImageBytes;
      return this;
    }

    public Builder maxFrameImageBytes(long maxFrameImageBytes) {
      requirePositive("maxFrameImageBytes", maxFrameImageBytes);
      this.maxFrameImageBytes = maxFrameImageBytes;
      return this;
    }

    /** Zero is allowed: a host that accepts text only. */
    public Builder maxImagesPerMessage(int maxImagesPerMessage) {
      if (maxImagesPerMessage < 0) {
        throw new IllegalArgumentException("maxImagesPerMessage must be >= 0 but was " + maxImagesPerMessage);
      }
      this.maxImagesPerMessage = maxImagesPerMessage;
      return this;
    }

    /** At most {@code Integer.MAX_VALUE - 8}, the largest array the JVM reliably allocates. */
    public Builder maxFrameBytes(int maxFrameBytes) {
      requirePositive("maxFrameBytes", maxFrameBytes);
      if (maxFrameBytes > Integer.MAX_VALUE - 8) {
        throw new IllegalArgumentException(
            "maxFrameBytes must be <= " + (Integer.MAX_VALUE - 8) + " but was " + maxFrameBytes);
      }
      this.maxFrameBytes = maxFrameBytes;
      return this;
    }

    public Limits build() {
      return new Limits(this);
    }

    private static void requirePositive(String name, long value) {
      if (value <= 0) {
        throw new IllegalArgumentException(name + " must be > 0 but was " + value);
      }
    }
  }
}
