package dev.tether.api;

/**
 * What {@code FrameValidator} proved about a payload's {@code images} (see {@link ImageProof}):
 * image {@code i} was declared as {@code types[i]} (null for a blob ref), and its data string runs
 * from {@code starts[i]} to the closing quote at {@code ends[i]}, relative to the payload's first
 * byte, holding strict base64 without escapes ({@code ends[i]} -1 when it had escapes). The arrays
 * are owned copies, never handed out.
 */
record VerifiedImages(MediaType[] types, int[] starts, int[] ends) {
  /** Whether image {@code index} was proven declared as {@code type}. */
  boolean covers(int index, MediaType type) {
    return index < types.length && types[index] == type;
  }

  /**
   * The closing quote of image {@code index}'s data relative to the payload, when its data was
   * proven to start at {@code start} (relative) and to hold no escapes; else -1.
   */
  int end(int index, int start) {
    return index < starts.length && starts[index] == start ? ends[index] : -1;
  }
}
