package dev.tether.media;

import dev.tether.api.TetherException;
import dev.tether.api.ErrorCode;
import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Expiry;
import com.github.benmanes.caffeine.cache.RemovalCause;
import com.github.benmanes.caffeine.cache.Ticker;
import dev.tether.media.internal.MediaText;
import java.io.IOException;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Predicate;

/**
 * The media references that channels registered, kept until their time to live passes, so that an
 * agent can fetch media it saw as a {@link MediaPlaceholder}.
 *
 * <p><b>Design.</b> Entries live in a Caffeine cache with a per-entry expiry (each reference
 * expires at {@link MediaReference#expiresAt()}) and a maximum size (Caffeine's recency-and-frequency
 * policy picks what to drop when it is exceeded; a dropped reference reads as unknown). Time comes from one injectable {@link Clock}, which also drives
 * Caffeine's ticker, so tests advance time without sleeping. When an entry expires, its id is
 * remembered for a day in a second, equally bounded cache, so that {@link #require} can say
 * "expired" rather than "unknown". Cache maintenance runs on the calling thread.
 *
 * <p><b>Concurrency.</b> Safe for concurrent use: register, look up, list and prune are lock-free
 * cache operations. {@link #save} and {@link #load} take one lock between themselves so that
 * concurrent saves cannot overwrite a newer snapshot with an older one.
 *
 * <p><b>Persistence.</b> {@link #save} writes the live references atomically (temp file, fsync,
 * atomic rename) for another process to read; {@link #load} reads such a file. The file format
 * is described in the {@code MediaRegistryFile} class; on POSIX systems it is created readable by
 * its owner only, because download info may hold tokens, unless {@link Builder#filePermissions}
 * says otherwise.
 */
public final class MediaRegistry {
  private static final Duration TOMBSTONE_TTL = Duration.ofDays(1);

  private final Clock clock;
  private final long maxFileBytes;
  private final int maximumSize;
  private final Set<PosixFilePermission> filePermissions;
  private final Cache<String, MediaReference> refs;
  private final Cache<String, Instant> expired;
  private final ReentrantLock fileLock = new ReentrantLock();

  private MediaRegistry(Builder b) {
    this.clock = b.clock;
    this.maxFileBytes = b.maxFileBytes;
    this.maximumSize = b.maximumSize;
    this.filePermissions = b.filePermissions;
    Ticker ticker = () -> nanos(clock.instant());
    this.expired = Caffeine.newBuilder()
        .maximumSize(b.maximumSize)
        .expireAfterWrite(TOMBSTONE_TTL)
        .ticker(ticker)
        .executor(Runnable::run)
        .build();
    Caffeine<Object, Object> refsBuilder = Caffeine.newBuilder();
    if (b.recordStats) {
      refsBuilder.recordStats();
    }
    this.refs = refsBuilder
        .maximumSize(b.maximumSize)
        .expireAfter(new RefExpiry())
        .ticker(ticker)
        .executor(Runnable::run)
        .<String, MediaReference>removalListener((id, ref, cause) -> {
          if (cause == RemovalCause.EXPIRED && id != null && ref != null) {
            expired.put(id, ref.expiresAt());
          }
        })
        .build();
  }

  /** The reference cache's statistics now (counts stay 0 unless the builder asked to record them). */
  public MediaCacheStats stats() {
    com.github.benmanes.caffeine.cache.stats.CacheStats s = refs.stats();
    return new MediaCacheStats(s.hitCount(), s.missCount(), s.evictionCount(), refs.estimatedSize());
  }

  /** A registry with the defaults: 10,000 references, the system clock, 64 MiB files. */
  public static MediaRegistry create() {
    return builder().build();
  }

  public static Builder builder() {
    return new Builder();
  }

  /** Adds or replaces {@code ref} (by id) and returns its id. An already expired reference is remembered as expired. */
  public String register(MediaReference ref) {
    Objects.requireNonNull(ref, "ref");
    if (ref.isExpiredAt(clock.instant())) {
      refs.invalidate(ref.id());
      expired.put(ref.id(), ref.expiresAt());
    } else {
      expired.invalidate(ref.id());
      refs.put(ref.id(), ref);
    }
    return ref.id();
  }

  /** The live reference with this id, or empty when it is unknown or expired. */
  public Optional<MediaReference> get(String id) {
    Objects.requireNonNull(id, "id");
    MediaReference ref = refs.getIfPresent(id);
    return ref == null || ref.isExpiredAt(clock.instant()) ? Optional.empty() : Optional.of(ref);
  }

  /**
   * The live reference with this id.
   *
   * @throws TetherException {@link ErrorCode#EXPIRED_REF} when its time to live has
   *     passed, {@link ErrorCode#UNKNOWN_REF} when it was never registered here
   */
  public MediaReference require(String id) {
    Optional<MediaReference> ref = get(id);
    if (ref.isPresent()) {
      return ref.get();
    }
    refs.cleanUp(); // moves entries that just expired into the tombstones
    Instant expiredAt = expired.getIfPresent(id);
    if (expiredAt != null) {
      throw TetherException.of(ErrorCode.EXPIRED_REF, "media ref:" + id + " expired at " + expiredAt
          + "; it can no longer be fetched, so ask the sender to send it again");
    }
    throw TetherException.of(ErrorCode.UNKNOWN_REF, "media ref:"
        + MediaText.excerpt(id) + " is unknown; use list_media to see the available references");
  }

  /** Removes the reference with this id, if any. */
  public void remove(String id) {
    refs.invalidate(Objects.requireNonNull(id, "id"));
  }

  /** Drops expired references now rather than during later operations. */
  public void prune() {
    refs.cleanUp();
  }

  /** The live references, newest first (by creation time, then id). A snapshot. */
  public List<MediaReference> list() {
    return list(ref -> true);
  }

  /**
   * The live references that {@code filter} accepts, newest first; for example those of one chat,
   * {@code list(ref -> ref.chat().equals(jid))}.
   */
  public List<MediaReference> list(Predicate<? super MediaReference> filter) {
    Objects.requireNonNull(filter, "filter");
    Instant now = clock.instant();
    List<MediaReference> live = new ArrayList<>();
    for (MediaReference ref : refs.asMap().values()) {
      if (!ref.isExpiredAt(now) && filter.test(ref)) {
        live.add(ref);
      }
    }
    live.sort(Comparator.comparing(MediaReference::createdAt).reversed().thenComparing(MediaReference::id));
    return live;
  }

  /**
   * The live references as text for a {@code list_media} tool, newest first: one line each,
   * {@code - } and the placeholder, line breaks in captions shown as spaces; {@code No media available.}
   * when there is none.
   */
  public String listText() {
    List<MediaReference> live = list();
    if (live.isEmpty()) {
      return "No media available.";
    }
    StringBuilder sb = new StringBuilder();
    for (MediaReference ref : live) {
      if (sb.length() > 0) {
        sb.append('\n');
      }
      sb.append("- ").append(ref.placeholder().format().replaceAll("[\\r\\n\\u2028\\u2029]+", " "));
    }
    return sb.toString();
  }

  /** The number of live references. */
  public int size() {
    return list().size();
  }

  /** Writes the live references to {@code path} atomically, newest first. */
  public void save(Path path) throws IOException {
    save(path, ref -> true);
  }

  /**
   * Writes the live references that {@code filter} accepts to {@code path} atomically, newest
   * first: one file per group or chat, so that an agent's container sees only its own media.
   */
  public void save(Path path, Predicate<? super MediaReference> filter) throws IOException {
    Objects.requireNonNull(path, "path");
    Objects.requireNonNull(filter, "filter");
    fileLock.lock();
    try {
      MediaRegistryFile.write(path, filePermissions, list(filter));
    } finally {
      fileLock.unlock();
    }
  }

  /**
   * Adds the references in the file at {@code path}: those already expired are remembered as
   * expired, and an id already registered here keeps its in-memory reference. The whole file is
   * read and checked before anything is added, so a corrupt file changes nothing.
   *
   * @return how many references were added
   * @throws MediaFormatException when the file is not a valid registry file or too large
   */
  public int load(Path path) throws IOException {
    fileLock.lock();
    try {
      List<MediaReference> loaded = MediaRegistryFile.read(path, maxFileBytes, maximumSize);
      int added = 0;
      for (MediaReference ref : loaded) {
        if (refs.getIfPresent(ref.id()) == null) {
          register(ref);
          added += ref.isExpiredAt(clock.instant()) ? 0 : 1;
        }
      }
      return added;
    } finally {
      fileLock.unlock();
    }
  }

  Clock clock() {
    return clock;
  }

  private static long nanos(Instant instant) {
    try {
      return Math.addExact(Math.multiplyExact(instant.getEpochSecond(), 1_000_000_000L), instant.getNano());
    } catch (ArithmeticException e) {
      return instant.getEpochSecond() < 0 ? Long.MIN_VALUE : Long.MAX_VALUE;
    }
  }

  /** Each entry lives until its reference's expiry, measured on the registry's ticker. */
  private static final class RefExpiry implements Expiry<String, MediaReference> {
    @Override
    public long expireAfterCreate(String id, MediaReference ref, long currentTime) {
      long end = nanos(ref.expiresAt());
      long remaining = end - currentTime;
      boolean overflow = ((end ^ currentTime) & (end ^ remaining)) < 0;
      return overflow ? Long.MAX_VALUE : Math.max(0, remaining);
    }

    @Override
    public long expireAfterUpdate(String id, MediaReference ref, long currentTime, long currentDuration) {
      return expireAfterCreate(id, ref, currentTime);
    }

    @Override
    public long expireAfterRead(String id, MediaReference ref, long currentTime, long currentDuration) {
      return currentDuration;
    }
  }

  /** Builds a {@link MediaRegistry}; setters fail fast on impossible values. Not thread-safe. */
  public static final class Builder {
    private int maximumSize = 10_000;
    private Clock clock = Clock.systemUTC();
    private long maxFileBytes = 64L << 20;
    private Set<PosixFilePermission> filePermissions;
    private boolean recordStats;

    private Builder() {}

    /**
     * Keeps Caffeine's hit, miss and eviction counts for {@link MediaRegistry#stats()} (a few
     * counter increments per lookup). Default false: nothing is counted.
     */
    public Builder recordStats(boolean recordStats) {
      this.recordStats = recordStats;
      return this;
    }

    /**
     * The most references kept; beyond it Caffeine's size policy (recency and frequency) evicts
     * some. Default 10,000.
     */
    public Builder maximumSize(int maximumSize) {
      if (maximumSize <= 0) {
        throw new IllegalArgumentException("maximumSize must be > 0 but was " + maximumSize);
      }
      this.maximumSize = maximumSize;
      return this;
    }

    /** The time source for expiry and for stamping; tests pass a clock they advance. */
    public Builder clock(Clock clock) {
      this.clock = Objects.requireNonNull(clock, "clock");
      return this;
    }

    /** The largest registry file {@link #load} reads. Default 64 MiB. */
    public Builder maxFileBytes(long maxFileBytes) {
      if (maxFileBytes <= 0) {
        throw new IllegalArgumentException("maxFileBytes must be > 0 but was " + maxFileBytes);
      }
      this.maxFileBytes = maxFileBytes;
      return this;
    }

    /**
     * The POSIX permissions of saved registry files, for a reader running as another user (a
     * container), for example {@code PosixFilePermissions.fromString("rw-r-----")}. Default:
     * owner read and write only, because download info may hold tokens.
     */
    public Builder filePermissions(Set<PosixFilePermission> filePermissions) {
      this.filePermissions = Set.copyOf(filePermissions);
      return this;
    }

    public MediaRegistry build() {
      return new MediaRegistry(this);
    }
  }
}
