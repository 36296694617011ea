package dev.tether.store;

/**
 * What one instance holds in a store's memory, as {@link TetherStore#usage} reports it (the host
 * shows it in its instance list): for monitoring, not for flow control. Immutable.
 *
 * @param frames frames retained (transient deltas in their live window excluded)
 * @param bytes payload bytes of those frames
 */
public record InstanceUsage(int frames, long bytes) {
  public InstanceUsage {
    if (frames < 0 || bytes < 0) {
      throw new IllegalArgumentException("frames and bytes must be >= 0 but were " + frames + " and " + bytes);
    }
  }
}
