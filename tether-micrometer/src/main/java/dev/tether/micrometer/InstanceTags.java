package dev.tether.micrometer;

import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Bounds the values of the {@code instance} tag, so that ten thousand instances cannot explode the
 * number of series a registry holds. Instances are <b>opt-in</b>: only the instances named here get
 * a tag value of their own, every other instance is counted under {@link #OTHER}. Optionally the
 * first {@code n} instances seen are opted in as well ({@link #firstSeen}), up to a hard cap, for
 * setups whose instances are few but not known in advance; past the cap everything new is
 * {@link #OTHER}. Which instances got their own value never changes afterwards, so no series is
 * dropped or renamed while the process runs. Thread-safe.
 */
public final class InstanceTags {
  /** The tag value of every instance that did not opt in. */
  public static final String OTHER = "_other";

  private final Set<String> named;
  private final int maxSeen;
  private final Set<String> seen = ConcurrentHashMap.newKeySet();
  private final AtomicInteger seenCount = new AtomicInteger();

  private InstanceTags(Set<String> named, int maxSeen) {
    this.named = Set.copyOf(named);
    this.maxSeen = maxSeen;
  }

  /** Every instance under {@link #OTHER}: one series per meter, whatever the instances. */
  public static InstanceTags none() {
    return new InstanceTags(Set.of(), 0);
  }

  /** Only {@code instances} get their own value; the rest is {@link #OTHER}. */
  public static InstanceTags only(Set<String> instances) {
    Objects.requireNonNull(instances, "instances");
    return new InstanceTags(instances, 0);
  }

  /**
   * {@code instances}, and the first {@code max} other instances seen (at most 1000), get their
   * own value; the rest is {@link #OTHER}.
   *
   * @throws IllegalArgumentException when {@code max} is not 0..1000
   */
  public static InstanceTags firstSeen(Set<String> instances, int max) {
    Objects.requireNonNull(instances, "instances");
    if (max < 0 || max > 1000) {
      throw new IllegalArgumentException("max must be in 0..1000 but was " + max);
    }
    return new InstanceTags(instances, max);
  }

  /** The tag value for {@code instance}. */
  public String of(String instance) {
    if (named.contains(instance) || seen.contains(instance)) {
      return instance;
    }
    if (maxSeen > 0 && seenCount.get() < maxSeen) {
      if (seenCount.incrementAndGet() <= maxSeen) {
        seen.add(instance);
        return instance;
      }
      seenCount.decrementAndGet();
    }
    return OTHER;
  }

  /** The most distinct values this can produce: the named instances, the first-seen cap and {@link #OTHER}. */
  public int maxValues() {
    return named.size() + maxSeen + 1;
  }
}
