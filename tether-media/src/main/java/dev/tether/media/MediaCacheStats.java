package dev.tether.media;

/**
 * A snapshot of a {@link MediaRegistry}'s reference cache, from Caffeine's own statistics: what a
 * metrics binder (the {@code tether-micrometer} module) reads. Counts are cumulative since the
 * registry was built and stay 0 unless {@link MediaRegistry.Builder#recordStats(boolean)} was set;
 * {@code size} is always current. Immutable.
 *
 * @param hits lookups that found a live reference
 * @param misses lookups that found none (unknown or expired)
 * @param evictions references evicted by size or expiry
 * @param size references held now (approximate, as Caffeine's estimatedSize)
 */
public record MediaCacheStats(long hits, long misses, long evictions, long size) {}
