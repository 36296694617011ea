package dev.tether.store.jetstream.internal;

import dev.tether.store.FrameCounts;
import dev.tether.store.StoreListener;
import java.util.Objects;

/**
 * The listener a host's local views get: a view receives the frames of every host, and the store
 * counts an append once, where it was published and acknowledged ({@link AppendCounts}), so the
 * counts a view hands on report no appends; its evictions, gaps served and wake latencies pass
 * through.
 */
public final class ViewListener implements StoreListener {
  private final StoreListener delegate;

  private ViewListener(StoreListener delegate) {
    this.delegate = delegate;
  }

  /** {@link StoreListener#NONE} for {@code NONE} (so views skip their clock reads), else a filter. */
  public static StoreListener of(StoreListener listener) {
    return listener == StoreListener.NONE ? StoreListener.NONE : new ViewListener(listener);
  }

  @Override
  public StoreListener forInstance(String instance, FrameCounts counts) {
    WithoutAppends view = new WithoutAppends(counts);
    StoreListener perInstance = delegate.forInstance(instance, view);
    return new StoreListener() {
      @Override
      public void released(String name, FrameCounts ignored) {
        perInstance.released(name, view); // the same object the delegate was given
      }

      @Override
      public void woke(String name, long nanos) {
        perInstance.woke(name, nanos);
      }
    };
  }

  @Override
  public void woke(String instance, long nanos) {
    delegate.woke(instance, nanos);
  }

  /** A view's counts without its appends. */
  private record WithoutAppends(FrameCounts counts) implements FrameCounts {
    @Override
    public long appendedFrames(int typeIndex) {
      Objects.checkIndex(typeIndex, TYPES.size());
      return 0;
    }

    @Override
    public long appendedBytes(int typeIndex) {
      Objects.checkIndex(typeIndex, TYPES.size());
      return 0;
    }

    @Override
    public long evictedFrames() {
      return counts.evictedFrames();
    }

    @Override
    public long evictedBytes() {
      return counts.evictedBytes();
    }

    @Override
    public long gapsServed() {
      return counts.gapsServed();
    }
  }
}
