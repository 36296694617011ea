package dev.tether.store.jetstream.internal;

import dev.tether.store.StoreListener;

/**
 * The listener a host's local views get: everything but {@link StoreListener#appended}, since a
 * view receives the frames of every host and the store counts an append once, where it was
 * published and acknowledged.
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
  public void evicted(String instance, int frames, long payloadBytes) {
    delegate.evicted(instance, frames, payloadBytes);
  }

  @Override
  public void gapServed(String instance) {
    delegate.gapServed(instance);
  }

  @Override
  public void woke(String instance, long nanos) {
    delegate.woke(instance, nanos);
  }
}
