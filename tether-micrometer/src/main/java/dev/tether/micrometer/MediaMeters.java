package dev.tether.micrometer;

import dev.tether.media.MediaRegistry;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * Binds a {@link MediaRegistry}'s cache statistics ({@link MediaRegistry#stats()}, Caffeine's own
 * counts; build the registry with {@code recordStats(true)}): {@code tether.media.cache.hits},
 * {@code tether.media.cache.misses}, {@code tether.media.cache.evictions} and the gauge
 * {@code tether.media.cache.size}, tagged {@code cache}. Read when scraped; the registry is held
 * weakly.
 */
final class MediaMeters {
  private MediaMeters() {}

  static void bind(MeterRegistry registry, MediaRegistry media, String cache) {
    FunctionCounter.builder("tether.media.cache.hits", media, m -> m.stats().hits()).tag("cache", cache)
        .description("Media reference lookups that hit").register(registry);
    FunctionCounter.builder("tether.media.cache.misses", media, m -> m.stats().misses()).tag("cache", cache)
        .description("Media reference lookups that missed").register(registry);
    FunctionCounter.builder("tether.media.cache.evictions", media, m -> m.stats().evictions()).tag("cache", cache)
        .description("Media references evicted").register(registry);
    Gauge.builder("tether.media.cache.size", media, m -> m.stats().size()).tag("cache", cache)
        .description("Media references held").register(registry);
  }
}
