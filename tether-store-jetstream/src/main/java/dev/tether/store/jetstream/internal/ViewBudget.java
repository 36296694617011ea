package dev.tether.store.jetstream.internal;

import dev.tether.api.ErrorCode;
import dev.tether.api.TetherException;
import java.util.Collection;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * One host's byte budget across its views: the payload bytes every view's ring retains, counted
 * together against {@code max}, so that many views (each within the retention's caps) cannot
 * together hold more than the host can. The same rule as the memory store's
 * {@code maxTotalBytes}: while the views are over the budget, the oldest frame of the view that
 * holds the most bytes is evicted (never the last frame a view holds; a read after it reports
 * the gap); an append this host makes first makes room the same way and is refused with
 * {@link ErrorCode#STORE_FULL} when nothing more can be evicted, or when the frame alone is larger
 * than the budget. The frames stay in the stream; only this host's memory of them goes.
 *
 * <p>Concurrency: the count is one {@link AtomicLong}. Each view reports its own changes under its
 * feeding lock ({@link InstanceMirror}), and evictions for the budget take that same lock, so a
 * change is counted once. Enforcing walks the views (what the memory store does per append over
 * its budget); it runs on the thread that delivered or appended, never under a view's lock.
 */
public final class ViewBudget {
  /** No budget: counts nothing, never evicts or refuses. */
  public static final ViewBudget NONE = new ViewBudget(Long.MAX_VALUE, java.util.List::of);

  private final long max;
  private final Supplier<Collection<InstanceMirror>> views;
  private final AtomicLong used = new AtomicLong();

  /** A budget of {@code max} payload bytes over the views {@code views} lists now. */
  public ViewBudget(long max, Supplier<Collection<InstanceMirror>> views) {
    if (max < 1) {
      throw new IllegalArgumentException("maxTotalBytes must be >= 1 but was " + max);
    }
    this.max = max;
    this.views = views;
  }

  /** Whether there is a budget at all. */
  public boolean limited() {
    return max != Long.MAX_VALUE;
  }

  /** The budget in payload bytes ({@link Long#MAX_VALUE}: none). */
  public long max() {
    return max;
  }

  /** Payload bytes the views hold now. */
  public long used() {
    return used.get();
  }

  void add(long delta) {
    if (delta != 0 && limited()) {
      used.addAndGet(delta);
    }
  }

  /** Evicts while the views are over the budget, as far as they can give. */
  public void enforce() {
    while (limited() && used.get() > max && evictLargest()) {
      // one frame at a time, from whichever view holds the most
    }
  }

  /**
   * Makes room for an append of {@code size} payload bytes to {@code instance} by this host: the
   * frame will come back to its view (if the host holds one).
   *
   * @throws TetherException {@link ErrorCode#STORE_FULL} when it cannot fit
   */
  public void makeRoom(String instance, long size) {
    if (!limited()) {
      return;
    }
    if (size > max) {
      throw TetherException.of(ErrorCode.STORE_FULL, "a frame of " + size
          + " payload bytes is larger than this host's budget of " + max + " bytes for its views (maxTotalBytes)");
    }
    while (used.get() + size > max) {
      if (!evictLargest()) {
        throw TetherException.of(ErrorCode.STORE_FULL, "this host's budget of " + max
            + " bytes for its views is used up by the newest frames of its instances; cannot take "
            + size + " more bytes for instance " + instance + "; retry later or remove instances");
      }
    }
  }

  /** Evicts the oldest frame of the view holding the most bytes; false when none can give. */
  private boolean evictLargest() {
    InstanceMirror largest = null;
    long most = 0;
    for (InstanceMirror m : views.get()) {
      long b = m.index().retainedBytes();
      if (b > most) {
        most = b;
        largest = m;
      }
    }
    if (largest != null && largest.evictForBudget() >= 0) {
      return true;
    }
    // The largest could not give (one frame left, or it stopped meanwhile): try every view once.
    for (InstanceMirror m : views.get()) {
      if (m != largest && m.evictForBudget() >= 0) {
        return true;
      }
    }
    return false;
  }
}
