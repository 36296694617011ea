package dev.tether.mcp;

import java.util.function.LongSupplier;

/**
 * A {@link CharSequence} that stops a regular expression at a deadline: {@link #charAt} checks the
 * clock every {@value #CHECK_EVERY} reads and throws {@link Expired} once it has passed. A pattern
 * that backtracks catastrophically ({@code (a+)+$} on a long run of {@code a}) reads characters
 * without end, so it is cut off within about one check's work of its budget, on the thread that
 * runs it, without a watchdog thread. {@link #subSequence} keeps the same deadline. Not
 * thread-safe (one matcher at a time).
 */
final class DeadlineCharSequence implements CharSequence {
  static final int CHECK_EVERY = 1024;

  /** The deadline passed while a pattern was matching. */
  static final class Expired extends RuntimeException {
    private static final long serialVersionUID = 1L;

    Expired() {
      super("the pattern ran past its time budget", null, false, false);
    }
  }

  private final CharSequence text;
  private final long deadlineNanos;
  private final LongSupplier nanoTime;
  private int reads;

  DeadlineCharSequence(CharSequence text, long deadlineNanos, LongSupplier nanoTime) {
    this.text = text;
    this.deadlineNanos = deadlineNanos;
    this.nanoTime = nanoTime;
  }

  @Override
  public char charAt(int index) {
    if (++reads >= CHECK_EVERY) {
      reads = 0;
      if (nanoTime.getAsLong() - deadlineNanos > 0) {
        throw new Expired();
      }
    }
    return text.charAt(index);
  }

  @Override
  public int length() {
    return text.length();
  }

  @Override
  public CharSequence subSequence(int start, int end) {
    return new DeadlineCharSequence(text.subSequence(start, end), deadlineNanos, nanoTime);
  }

  @Override
  public String toString() {
    return text.toString();
  }
}
