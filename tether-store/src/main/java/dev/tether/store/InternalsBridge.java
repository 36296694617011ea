package dev.tether.store;

import dev.tether.api.Frame;
import dev.tether.api.SessionKey;
import dev.tether.store.internal.SequencedFrameIndex;
import dev.tether.store.internal.StoreInternals;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.Executor;

/** The memory store's side of {@link StoreInternals}. */
final class InternalsBridge implements StoreInternals.Bridge {
  @Override
  public MemoryTetherStore mirror(MemoryTetherStore.Builder settings) {
    return MemoryTetherStore.create(settings.settings().withMaxTotalBytes(Long.MAX_VALUE), null);
  }

  @Override
  public Retention retention(MemoryTetherStore.Builder settings) {
    return settings.settings().retention();
  }

  @Override
  public Executor executor(MemoryTetherStore.Builder settings) {
    return settings.settings().executor();
  }

  @Override
  public long maxTotalBytes(MemoryTetherStore.Builder settings) {
    return settings.settings().maxTotalBytes();
  }

  @Override
  public StoreListener listener(MemoryTetherStore.Builder settings) {
    return settings.settings().listener();
  }

  @Override
  public void restore(MemoryTetherStore rings, String instance, List<Frame> frames, long highSeq, long evictedSeq,
      Map<SessionKey, Long> sessionEvicted) {
    rings.instance(instance, false).restore(frames, highSeq, evictedSeq, sessionEvicted);
  }

  @Override
  public void evictThrough(MemoryTetherStore rings, String instance, long seq) {
    InstanceState i = rings.existing(instance);
    if (i != null) {
      i.evictThrough(seq);
    }
  }

  @Override
  public boolean publish(MemoryTetherStore rings, String instance, List<Frame> stored) {
    return rings.instance(instance, false).publish(stored);
  }

  @Override
  public boolean canCreate(MemoryTetherStore rings, String instance) {
    return rings.canCreate(instance);
  }

  @Override
  public void create(MemoryTetherStore rings, String instance) {
    rings.instance(instance);
  }

  @Override
  public boolean exists(MemoryTetherStore rings, String instance) {
    return rings.existing(instance) != null;
  }

  @Override
  public SequencedFrameIndex index(String name, Retention retention, SequencedFrameIndex.Timer timer, long seqFloor,
      Executor executor, StoreListener listener) {
    return InstanceIndex.create(name, retention, timer, seqFloor, executor, listener);
  }

  @Override
  public SequencedFrameIndex.Timer timer(String threadName) {
    return new LazyTimer(Objects.requireNonNull(threadName, "threadName"));
  }
}
