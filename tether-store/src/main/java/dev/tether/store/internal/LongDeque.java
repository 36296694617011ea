package dev.tether.store.internal;

import java.util.Arrays;

/**
 * A growable circular deque of ascending longs with indexed access and binary search. Not
 * thread-safe; the owning {@link FrameRing} guards it.
 */
public final class LongDeque {
  private long[] a = new long[8];
  private int head;
  private int size;

  public int size() {
    return size;
  }

  public boolean isEmpty() {
    return size == 0;
  }

  public long get(int i) {
    return a[(head + i) & (a.length - 1)];
  }

  public long first() {
    return a[head];
  }

  public void addLast(long v) {
    if (size == a.length) {
      grow();
    }
    a[(head + size) & (a.length - 1)] = v;
    size++;
  }

  public long removeFirst() {
    if (size == 0) {
      throw new IllegalStateException("empty");
    }
    long v = a[head];
    head = (head + 1) & (a.length - 1);
    size--;
    return v;
  }

  public void clear() {
    head = 0;
    size = 0;
  }

  private void grow() {
    long[] b = new long[a.length * 2];
    int firstPart = Math.min(size, a.length - head);
    System.arraycopy(a, head, b, 0, firstPart);
    System.arraycopy(a, 0, b, firstPart, size - firstPart);
    a = b;
    head = 0;
  }

  @Override
  public String toString() {
    long[] out = new long[size];
    for (int i = 0; i < size; i++) {
      out[i] = get(i);
    }
    return Arrays.toString(out);
  }
}
